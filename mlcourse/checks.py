"""Assertions for the chapters' check cells.

A check cell compares a derived result with an independent computation. These helpers raise
``AssertionError`` with the size of the discrepancy when the check fails, and otherwise print
one line naming what was checked and the tolerance used. They never print the (machine-
dependent) size of a passing residual, so the stored notebook output is the same on every
machine and nbval can pin it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["check_close", "check_equal", "check"]


def check_close(actual, expected, what: str, *, rtol: float = 1e-9, atol: float = 0.0) -> None:
    """Assert ``|actual − expected| ≤ atol + rtol·|expected|`` elementwise.

    Parameters
    ----------
    actual, expected : array_like
        Same shape (or broadcastable scalars). NaN anywhere fails the check; equal infinities
        (e.g. a leading ``inf`` threshold) agree.
    what : str
        What is being compared, e.g. ``"ROC points vs sklearn"``.
    rtol, atol : float
        Relative and absolute tolerance; state them where the check is made.
    """
    a = np.asarray(actual, dtype=float)
    e = np.asarray(expected, dtype=float)
    if a.shape != e.shape and a.size != 1 and e.size != 1:
        raise AssertionError(f"{what}: shapes differ, {a.shape} vs {e.shape}")
    with np.errstate(invalid="ignore"):  # inf - inf: equal infinities count as agreeing
        err = np.where(a == e, 0.0, np.abs(a - e))
    ok = err <= atol + rtol * np.abs(e)
    if not np.all(ok):
        worst = float(np.nanmax(np.where(np.isnan(err), np.inf, err)))
        raise AssertionError(f"{what}: max |difference| = {worst:.3g} exceeds "
                             f"atol={atol:g} + rtol={rtol:g}·|expected|")
    print(f"✓ {what}: agree within rtol={rtol:g}, atol={atol:g}")


def check_equal(actual, expected, what: str) -> None:
    """Assert exact equality (integers, labels, counts)."""
    a, e = np.asarray(actual), np.asarray(expected)
    if a.shape != e.shape or not np.array_equal(a, e):
        raise AssertionError(f"{what}: not equal\n  got      {a.tolist()}\n  expected {e.tolist()}")
    print(f"✓ {what}: equal")


def check(condition, what: str) -> None:
    """Assert a boolean condition (e.g. a strict inequality)."""
    if not bool(np.all(condition)):
        raise AssertionError(f"{what}: does not hold")
    print(f"✓ {what}")
