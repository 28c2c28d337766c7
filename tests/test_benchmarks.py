"""Every benchmark case runs, and mlcourse and its baseline compute the same thing (small inputs).

Timings are not tested here: speed is measured by `python benchmarks/run.py`.
"""

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))
import run  # noqa: E402
from harness import run_case  # noqa: E402

CASES = run.all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_benchmark_case_agrees_with_baseline(case):
    result = run_case(case, repeat=1, quick=True)
    assert result.ours_s > 0 and result.theirs_s > 0


def test_roc_auc_is_the_first_row():
    assert CASES[0].name.startswith("roc_auc"), [c.name for c in CASES[:3]]


def test_same_gets_the_inputs_ours_and_theirs_ran_on():
    from harness import Case

    seen = []
    case = Case(
        name="toy",
        setup=lambda quick: {"x": 2.0},
        ours=lambda d: d["x"] ** 2,
        theirs=lambda d: d["x"] * d["x"],
        same=lambda a, b, d: seen.append(d) or a == b == d["x"] ** 2,
        goal=1.0,
    )
    result = run_case(case, repeat=3, quick=True)
    assert seen == [{"x": 2.0}] and result.ours_s > 0 and result.theirs_s > 0
