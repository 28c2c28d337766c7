"""Time mlcourse against scikit-learn (or another route) on the same inputs; print medians and ratios.

    python benchmarks/run.py               # every case in benchmarks/bench_*.py
    python benchmarks/run.py roc_auc       # only cases whose name contains "roc_auc"
    python benchmarks/run.py --repeat 15

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


def all_cases():
    cases = []
    for path in sorted(HERE.glob("bench_*.py")):
        cases += importlib.import_module(path.stem).CASES
    return cases


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("filter", nargs="?", default="", help="substring of case names to run")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per side (median)")
    args = parser.parse_args(argv)
    results = []
    for case in all_cases():
        if args.filter in case.name:
            results.append(run_case(case, repeat=args.repeat))
            print(f"  done: {case.name}", file=sys.stderr)
    print(format_table(results))


if __name__ == "__main__":
    main()
