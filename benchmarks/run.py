"""Time mlcourse against scikit-learn (or another route) on the same inputs.

Prints medians and ratios.

    python benchmarks/run.py               # every case in benchmarks/bench_*.py
    python benchmarks/run.py roc_auc       # only cases whose name contains "roc_auc"
    python benchmarks/run.py --repeat 15

The table starts with ``bench_metrics`` (roc_auc on 10^6 scores, the first benchmark of the
project); the other ``bench_*.py`` modules follow in alphabetical order.

Both sides run with one BLAS thread (``threadpoolctl.threadpool_limits(1)``, as in the
notebooks): on a shared or loaded machine, multi-threaded BLAS makes the timings, and so the
ratios, depend on how many cores happen to be free.

Exit status 0 always: a missed goal is reported in the table, not treated as a test failure
(timings depend on the machine; correctness is checked before timing).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import format_table, run_case  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

FIRST = ("bench_metrics",)  # modules whose rows open the table, in this order


def all_cases():
    paths = sorted(
        HERE.glob("bench_*.py"),
        key=lambda p: (FIRST.index(p.stem) if p.stem in FIRST else len(FIRST), p.stem),
    )
    cases = []
    for path in paths:
        cases += importlib.import_module(path.stem).CASES
    return cases


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "filter", nargs="?", default="", help="substring of case names to run"
    )
    parser.add_argument(
        "--repeat", type=int, default=7, help="timed runs per side (median)"
    )
    args = parser.parse_args(argv)
    results = []
    # import the cases (and so NumPy's and SciPy's BLAS) first: threadpool_limits caps only the
    # libraries already loaded when it is entered
    cases = [case for case in all_cases() if args.filter in case.name]
    with threadpool_limits(
        limits=1
    ):  # one BLAS thread for both sides (see the docstring)
        for case in cases:
            results.append(run_case(case, repeat=args.repeat))
            print(f"  done: {case.name}", file=sys.stderr)
    print(format_table(results))


if __name__ == "__main__":
    main()
