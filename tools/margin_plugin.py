"""Record how close every numerical comparison comes to its tolerance.

Used by tolerance_margins.py.

Loaded into pytest with ``-p margin_plugin`` (``tools/`` on ``sys.path``) and into a notebook kernel
by importing it before the first cell. It wraps ``mlcourse.checks.check_close``,
``numpy.testing.assert_allclose`` and pytest's ``approx`` so that each comparison appends one JSON
line to the file named by ``$MLCOURSE_MARGIN_LOG``:

    {"where": "<test id or notebook>", "what": "<label or file:line>", "ratio": r}

with r = max |actual − expected| / (atol + rtol·|expected|): 1 means the tolerance is used up,
0.01 means a margin of 100. Comparisons with a zero tolerance (exact equality) are skipped.
"""

from __future__ import annotations

import functools
import json
import os
import sys

import numpy as np

WHERE = os.environ.get("MLCOURSE_MARGIN_WHERE", "?")


def _ratio(actual, expected, rtol, atol):
    a = np.asarray(actual, dtype=complex if np.iscomplexobj(actual) else float)
    e = np.asarray(expected, dtype=complex if np.iscomplexobj(expected) else float)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        err = np.where(a == e, 0.0, np.abs(a - e))
        tol = atol + rtol * np.abs(e)
        r = np.where(err == 0, 0.0, err / tol)
    r = np.where(np.isnan(r), np.inf, r)
    return float(np.max(r)) if r.size else 0.0


def _caller():
    f = sys._getframe(2)
    while f is not None and (
        "margin_plugin" in f.f_code.co_filename
        or "/numpy/" in f.f_code.co_filename
        or "/_pytest/" in f.f_code.co_filename
    ):
        f = f.f_back
    if f is None:
        return "?"
    return f"{os.path.basename(f.f_code.co_filename)}:{f.f_lineno}"


def _log(what, ratio):
    path = os.environ.get("MLCOURSE_MARGIN_LOG")
    if not path:
        return
    with open(path, "a") as fh:
        fh.write(json.dumps({"where": WHERE, "what": what, "ratio": ratio}) + "\n")


def _wrap_check_close():
    import mlcourse.checks as checks

    orig = checks.check_close
    if getattr(orig, "_margin", False):
        return

    @functools.wraps(orig)
    def check_close(actual, expected, what, *, rtol=1e-9, atol=0.0):
        if rtol or atol:
            try:
                _log(what, _ratio(actual, expected, rtol, atol))
            except Exception:  # a shape mismatch: let check_close report it
                pass
        return orig(actual, expected, what, rtol=rtol, atol=atol)

    check_close._margin = True
    checks.check_close = check_close


def _wrap_allclose():
    import numpy.testing as npt

    orig = npt.assert_allclose
    if getattr(orig, "_margin", False):
        return

    @functools.wraps(orig)
    def assert_allclose(actual, desired, rtol=1e-7, atol=0, *args, **kwargs):
        if rtol or atol:
            try:
                _log(_caller(), _ratio(actual, desired, rtol, atol))
            except Exception:
                pass
        return orig(actual, desired, rtol, atol, *args, **kwargs)

    assert_allclose._margin = True
    npt.assert_allclose = assert_allclose


def _wrap_approx():
    try:  # pytest >= 8.4 moved approx out of python_api
        from _pytest.approx import ApproxScalar as cls
    except ImportError:
        from _pytest.python_api import ApproxScalar as cls
    orig = cls.__eq__
    if getattr(orig, "_margin", False):
        return

    def __eq__(self, actual):
        try:
            tol = self.tolerance
            if tol and np.isfinite(tol):
                err = abs(actual - self.expected)
                _log(_caller(), float(err / tol) if err else 0.0)
        except Exception:
            pass
        return orig(self, actual)

    __eq__._margin = True
    cls.__eq__ = __eq__


def install():
    _wrap_check_close()
    _wrap_allclose()
    _wrap_approx()


install()


def pytest_runtest_setup(item):
    global WHERE
    WHERE = item.nodeid
