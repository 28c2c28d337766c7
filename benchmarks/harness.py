"""A tiny benchmark harness: mlcourse and a baseline on the same inputs, in one process.

A benchmark module ``benchmarks/bench_<topic>.py`` defines ``CASES``, a list of :class:`Case`.
The runner (``benchmarks/run.py``) builds each case's inputs once, checks that mlcourse and the
baseline compute the same thing, times both alternately, and reports medians and their ratio
against the case's goal.

A baseline is scikit-learn, another mlcourse route, or the **floor**: the least work the problem
itself needs, written inline with the same NumPy/SciPy primitives (one ``argsort`` for a ROC
curve; kernel, Cholesky and triangular solves for a GP). Its ``baseline`` starts with "floor",
and the ratio ours/floor says how much is left to gain.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass
class Case:
    """One row of the benchmark table.

    Parameters
    ----------
    name : str
        Row label.
    setup : callable(quick: bool) -> dict
        Builds the inputs (seeded). ``quick=True`` must give a small version, used by the tests.
    ours, theirs : callable(inputs: dict) -> result
        The mlcourse computation and the baseline computation.
    same : callable(ours_result, theirs_result, inputs: dict) -> bool
        True when both computed the same thing (within a stated tolerance); gets the inputs too,
        e.g. to compare two fitted models on them.
    goal : float
        Target ratio ours/theirs (lower is faster); e.g. 0.6 means "at most 0.6x".
    baseline : str
        What ``theirs`` is: scikit-learn (the default), another mlcourse route, or
        ``"floor: <what>"``, the least work the problem needs (see the module docstring).
    """

    name: str
    setup: Callable[[bool], dict]
    ours: Callable[[dict], Any]
    theirs: Callable[[dict], Any]
    same: Callable[[Any, Any, dict], bool]
    goal: float
    baseline: str = "scikit-learn"


@dataclass
class Result:
    case: Case
    ours_s: float
    theirs_s: float

    @property
    def ratio(self) -> float:
        return self.ours_s / self.theirs_s

    @property
    def met(self) -> bool:
        return self.ratio <= self.case.goal


# A row whose two sides together take longer than SLOW_S on the warm-up runs is timed
# SLOW_REPEAT times instead of `repeat` (a median of 3 multi-second runs varies by a few
# percent), which keeps `python benchmarks/run.py` to a few minutes.
SLOW_S, SLOW_REPEAT = 1.0, 3


def run_case(case: Case, repeat: int = 7, quick: bool = False) -> Result:
    inputs = case.setup(quick)
    t0 = time.perf_counter()
    a, b = case.ours(inputs), case.theirs(inputs)  # warm-up, and the correctness check
    if time.perf_counter() - t0 > SLOW_S:
        repeat = min(repeat, SLOW_REPEAT)
    if not case.same(a, b, inputs):
        raise AssertionError(f"{case.name}: mlcourse and {case.baseline} disagree")
    ours, theirs = [], []
    for _ in range(repeat):  # alternate, so drift hits both equally
        t0 = time.perf_counter()
        case.ours(inputs)
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        case.theirs(inputs)
        theirs.append(time.perf_counter() - t0)
    return Result(case, statistics.median(ours), statistics.median(theirs))


def format_table(results) -> str:
    head = (
        f"{'case':<52} {'mlcourse':>10} {'baseline':>10} {'ratio':>7} {'goal':>6}  "
        "baseline (ratio = mlcourse/baseline)"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        flag = "ok" if r.met else "MISSED"
        lines.append(
            f"{r.case.name:<52} {r.ours_s * 1e3:>8.2f}ms {r.theirs_s * 1e3:>8.2f}ms "
            f"{r.ratio:>6.2f}x {r.case.goal:>5.2f}x  {r.case.baseline} [{flag}]"
        )
    return "\n".join(lines)
