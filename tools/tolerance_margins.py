"""Audit how much room every numerical check leaves, under several BLAS kernels.

    python tools/tolerance_margins.py [--kernels native Prescott Sandybridge Haswell]
                                      [--threshold 0.01] [--only book|tests]

Runs the unit tests and every chapter notebook once per OpenBLAS kernel with
``tools/margin_plugin.py`` loaded, which records, for every ``check_close``,
``assert_allclose`` and ``pytest.approx`` comparison, the ratio of the discrepancy to the
tolerance. It then lists the comparisons whose worst ratio over all kernels exceeds
``--threshold`` (default 0.01: less than a factor 100 of room), with the ratio per kernel.

A listed check is not necessarily wrong: a Monte Carlo check whose tolerance is a few standard
errors uses a good part of it by design, and then the ratio is the same under every kernel.
What the list asks is that each such tolerance be derived (ε·size·condition number, a standard
error, a quadrature error, an optimiser's tol) and said where the check is made. A ratio that
changes between kernels is rounding, and must sit far below 1.

This is an audit tool for developers; CI does not run it (it takes several minutes).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"


def run_tests(env, log):
    env = dict(
        env,
        MLCOURSE_MARGIN_LOG=str(log),
        PYTHONPATH=f"{TOOLS}{os.pathsep}" + env.get("PYTHONPATH", ""),
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "margin_plugin",
            "-p",
            "no:cacheprovider",
            "tests",
            "-x",
            "--no-header",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        check=False,
    )


def run_notebook(path, env, log):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    pre = nbformat.v4.new_code_cell(
        f"import sys; sys.path.insert(0, {str(TOOLS)!r}); import margin_plugin"
    )
    nb.cells.insert(0, pre)
    env = dict(env, MLCOURSE_MARGIN_LOG=str(log), MLCOURSE_MARGIN_WHERE=path.name)
    old = os.environ.copy()
    os.environ.clear()
    os.environ.update(env)
    try:
        NotebookClient(
            nb,
            timeout=300,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
            allow_errors=True,
        ).execute()
    finally:
        os.environ.clear()
        os.environ.update(old)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--kernels", nargs="+", default=["native", "Prescott", "Sandybridge", "Haswell"]
    )
    ap.add_argument("--threshold", type=float, default=0.01)
    ap.add_argument("--only", choices=["book", "tests"])
    ap.add_argument(
        "--notebooks", nargs="*", help="notebook names (default: all in book/)"
    )
    args = ap.parse_args()

    results = collections.defaultdict(dict)  # (where, what) -> {kernel: max ratio}
    with tempfile.TemporaryDirectory() as tmp:
        for kern in args.kernels:
            env = os.environ.copy()
            env.pop("OPENBLAS_CORETYPE", None)
            if kern != "native":
                env["OPENBLAS_CORETYPE"] = kern
            log = Path(tmp) / f"{kern}.jsonl"
            log.touch()
            if args.only != "book":
                print(f"[{kern}] unit tests", file=sys.stderr, flush=True)
                run_tests(env, log)
            if args.only != "tests":
                names = args.notebooks or [
                    p.name for p in sorted((ROOT / "book").glob("*.ipynb"))
                ]
                for name in names:
                    print(f"[{kern}] {name}", file=sys.stderr, flush=True)
                    run_notebook(ROOT / "book" / name, env, log)
            for line in log.read_text().splitlines():
                rec = json.loads(line)
                key = (rec["where"], rec["what"])
                results[key][kern] = max(results[key].get(kern, 0.0), rec["ratio"])

    rows = [
        (max(v.values()), k, v)
        for k, v in results.items()
        if max(v.values()) > args.threshold
    ]
    rows.sort(key=lambda r: -r[0])
    print(
        f"{len(results)} comparisons; {len(rows)} use more than {args.threshold:g} of their "
        f"tolerance under some kernel"
    )
    head = "  ".join(f"{k:>11}" for k in args.kernels)
    print(f"{'worst':>9}  {head}  where :: what")
    for worst, (where, what), v in rows:
        cols = "  ".join(f"{v.get(k, float('nan')):11.3g}" for k in args.kernels)
        print(f"{worst:9.3g}  {cols}  {where} :: {what}")


if __name__ == "__main__":
    main()
