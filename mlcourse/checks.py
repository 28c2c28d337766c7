"""Assertions for the chapters' check cells, and the tolerances they derive.

A check cell compares a derived result with an independent computation. ``check_close``,
``check_equal`` and ``check`` raise ``AssertionError`` with the size of the discrepancy when the
check fails, and otherwise print one line naming what was checked and the tolerance used. They
never print the (machine-dependent) size of a passing residual, so the stored notebook output is
the same on every machine and nbval can pin it.

Inside ``with summary():`` the lines are collected instead, and the cell shows one line, "✓ 3
checks passed", with the three lines folded behind it (an HTML ``<details>`` on the site and in
JupyterLab; the plain-text form, which nbval compares, holds every line).

Tolerances come from the numerics, and the chapters and the unit tests share these bounds:

=====================  ===========================================================================
``round_up``           a derived bound rounded up to 1 (or more) significant digits, to print alike
``relative_rounding``  10·ε·max(N, D, 10): the relative rounding of a decomposition of N × D data
``fd_error``           a priori error bound of a central difference (rounding and truncation)
``fd_truncation``      a central difference's truncation error, estimated from a second step
``nll_rounding``       rounding of E = Σ_n ℓ(φ_nᵀw), and ``gradient_rounding``, of its gradient
``newton_gradient``    ‖∇E‖ left where Newton's method stopped (its step test)
``gradient_at_stop``   ‖∇E‖ left where a solver stopped on max|∇E|/N ≤ tol (scikit-learn's)
``optimum_gap``        ‖w₁ − w₂‖ between two points near one minimum, from their gradients
``lbfgsb_tolerances``  gradient and parameter error left at an L-BFGS-B stop (SciPy's defaults)
=====================  ===========================================================================
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from .utils.optimize import NEWTON_TOL

__all__ = [
    "check_close",
    "check_equal",
    "check",
    "summary",
    "Summary",
    "EPS",
    "round_up",
    "relative_rounding",
    "fd_error",
    "fd_truncation",
    "nll_rounding",
    "gradient_rounding",
    "newton_gradient",
    "gradient_at_stop",
    "optimum_gap",
    "LBFGSB_FTOL",
    "LBFGSB_GTOL",
    "lbfgsb_gain",
    "lbfgsb_tolerances",
    "format_bound",
]

# One rounding moves a result by at most EPS/2 of its size; a sum of N terms by at most N·EPS
# times the sum of their sizes, whatever the order of the additions or the BLAS kernel.
EPS = float(np.finfo(float).eps)


def check_close(
    actual, expected, what: str, *, rtol: float = 1e-9, atol: float = 0.0
) -> None:
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
        raise AssertionError(
            f"{what}: max |difference| = {worst:.3g} exceeds "
            f"atol={atol:g} + rtol={rtol:g}·|expected|"
        )
    _passed(f"{what}: agree within rtol={rtol:g}, atol={atol:g}")


def check_equal(actual, expected, what: str) -> None:
    """Assert exact equality (integers, labels, counts)."""
    a, e = np.asarray(actual), np.asarray(expected)
    if a.shape != e.shape or not np.array_equal(a, e):
        raise AssertionError(
            f"{what}: not equal\n  got      {a.tolist()}\n  expected {e.tolist()}"
        )
    _passed(f"{what}: equal")


def check(condition, what: str) -> None:
    """Assert a boolean condition (e.g. a strict inequality)."""
    if not bool(np.all(condition)):
        raise AssertionError(f"{what}: does not hold")
    _passed(what)


# --- one line per check cell ----------------------------------------------------------------------

_open_summaries: list[Summary] = []


def _passed(what: str) -> None:
    """Report a passed check: to the innermost open :func:`summary`, else print it."""
    line = f"✓ {what}"
    if _open_summaries:
        _open_summaries[-1].lines.append(line)
    else:
        print(line)


class Summary:
    """The checks passed inside one ``with summary(...)`` block; shows as one line.

    Attributes
    ----------
    title : str or None
        What the checks establish, shown after the count.
    lines : list of str
        One "✓ …" line per passed check, in order.
    """

    def __init__(self, title: str | None = None):
        self.title = title
        self.lines: list[str] = []

    def headline(self) -> str:
        n = len(self.lines)
        head = f"✓ {n} check{'s' if n != 1 else ''} passed"
        return f"{head}: {self.title}" if self.title else head

    def __repr__(self) -> str:
        return "\n".join([self.headline(), *("  " + line for line in self.lines)])

    def _repr_html_(self) -> str:
        from html import escape

        body = "\n".join(escape(line) for line in self.lines)
        return (
            '<details class="mlcourse-checks"><summary>'
            f"{escape(self.headline())}</summary><pre>{body}</pre></details>"
        )

    def __enter__(self) -> Summary:
        _open_summaries.append(self)
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        _open_summaries.remove(self)
        if exc_type is not None:
            # show what passed before the failure, then let it raise
            for line in self.lines:
                _passed(line[2:])
            return False
        if _open_summaries:  # nested: the outer summary counts these lines
            _open_summaries[-1].lines.extend(self.lines)
        else:
            _display(self)
        return False


def summary(title: str | None = None) -> Summary:
    """Fold the checks of a block into one line: ``with summary("the mode"): check(...)``.

    The block's checks print nothing; at its end the cell shows "✓ N checks passed: title",
    with each check's line behind it (HTML ``<details>``; the plain text lists them all, so
    nbval still compares every tolerance). A failing check raises as usual, after printing the
    lines of the checks that passed before it.

    Parameters
    ----------
    title : str, optional
        What the checks establish together, e.g. ``"the posterior mode and its derivatives"``.

    Returns
    -------
    Summary
        The context manager; its ``lines`` are the passed checks.
    """
    return Summary(title)


def _display(obj) -> None:
    """Display `obj` as rich output in IPython (HTML and plain text), else print it."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # IPython is not a dependency of mlcourse
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(obj)
    else:
        print(repr(obj))


# --- tolerances from the numerics ---------------------------------------------------------------


def round_up(bound: float, digits: int = 1) -> float:
    """`bound` rounded up to `digits` significant digits, e.g. 3.2e-7 → 4e-7.

    A tolerance derived from the data differs between machines in its last bits; rounded up it
    prints the same everywhere, and it is never below the bound (up to a relative 1e-6: a bound
    within that of a round value, e.g. 3.0000000001e-10, is taken as that value, so that its
    rounding noise cannot flip it to the next one).
    """
    bound = float(bound)
    if not (np.isfinite(bound) and bound > 0):
        raise ValueError(f"bound must be a positive finite number; got {bound!r}.")
    unit = 10.0 ** (np.floor(np.log10(bound)) - (digits - 1))
    return float(np.ceil(np.round(bound / unit, 6)) * unit)


def format_bound(bound: float, digits: int = 1) -> str:
    """`bound` rounded *up* to `digits` significant digits, as text: 3.2e-7 → "4e-07".

    For a tolerance printed in a check's description: the printed number is never below the
    bound it stands for (``f"{x:.1g}"`` rounds to nearest and can print a third less).
    """
    return f"{round_up(bound, digits):.{digits}g}"


def relative_rounding(*shape: int) -> float:
    """10·EPS·n, n = max(*shape, 10): the relative rounding error of a decomposition (eigen-,
    singular value, Cholesky) of an N × D matrix, or of a product or sum over its entries.

    n counts the terms of a sum or the order of a matrix; the 10 covers the constant factors of
    the standard backward-error bounds. PCA treats a variance below EPS·n·λ₁ as zero.
    """
    return 10 * EPS * max(*shape, 10)


def fd_error(f_rounding, x_size, slope, third, h: float = 1e-6):
    """Bound on the error of a central difference (f(x + h) − f(x − h)) / 2h.

    The rounding of f (`f_rounding`) and of the points x ± h (EPS·|x|·|f′|, with `x_size` = |x|
    and `slope` = |f′|), divided by h, plus the truncation h²|f‴|/6 (`third` bounds |f‴| near x).
    Elementwise for array arguments.
    """
    return (f_rounding + EPS * x_size * slope) / h + h**2 * third / 6


def fd_truncation(fd_h, fd_kh, k: float):
    """The truncation error of central differences `fd_h` (step h), estimated from `fd_kh`
    (step k·h): the error is c·h² + O(h⁴), so fd_kh − fd_h = (k² − 1)·c·h² and
    |c·h²| ≈ |fd_kh − fd_h| / (k² − 1) (Richardson). Elementwise; add the rounding separately.
    """
    return np.abs(np.asarray(fd_kh) - np.asarray(fd_h)) / (k * k - 1)


def _activation_size(Phi, w):
    """|φ_n|ᵀ|w| per point (for K stacked weight vectors, with the largest |w_k| entry by entry)."""
    return np.abs(Phi) @ np.abs(np.reshape(w, (-1, Phi.shape[1]))).max(axis=0)


def nll_rounding(Phi, w, nll, d1) -> float:
    """Bound on the rounding error of E = Σ_n ℓ_n(a_n), a_n = φ_nᵀw.

    Each term errs by about EPS·|ℓ_n| and by |ℓ′_n| times the rounding of a_n (EPS·|φ_n|ᵀ|w|),
    and N terms are added. `nll` holds ℓ_n, `d1` ℓ′_n (N,), or for K weight vectors stacked in
    `w` (K·M,) the derivatives in each activation (N, K).
    """
    slopes = np.sum(np.abs(d1).reshape(len(Phi), -1), axis=1)
    per_point = np.abs(nll) + slopes * _activation_size(Phi, w)
    return len(Phi) * EPS * float(np.sum(per_point))


def gradient_rounding(Phi, w, d1, d2):
    """Bound on the rounding error of each component of ∇E = Σ_n ℓ′_n φ_n, shape (M,) or (M, K).

    ℓ′_n (`d1`; a column per weight vector for the softmax) errs by about EPS, and by
    ℓ″_n (`d2`) times the rounding of a_n; N terms are added.
    """
    act = _activation_size(Phi, w)
    per_point = (
        np.abs(d1) + 1 + np.abs(d2) * (act if np.ndim(d1) == 1 else act[:, None])
    )
    return len(Phi) * EPS * (np.abs(Phi).T @ per_point)


def newton_gradient(Phi, w, g_rounding, third: float, tol: float = NEWTON_TOL) -> float:
    """Bound on ‖∇E‖₂ where :func:`~mlcourse.utils.optimize.newton_minimize` stopped.

    Its last step d, which it takes, had max|d| ≤ tol·(1 + max|w|) and leaves a gradient of at
    most ½·L·‖d‖², L = third·Σ_n‖φ_n‖³ bounding how fast the Hessian of E = Σ_n ℓ(φ_nᵀw)
    changes (`third` bounds |ℓ‴|); plus the rounding of ∇E (`g_rounding`, e.g. from
    :func:`gradient_rounding`). `tol` is the solver's (the estimators' default,
    ``NEWTON_TOL`` = 1e-8).
    """
    step = np.sqrt(np.size(w)) * tol * (1 + np.max(np.abs(w)))
    return float(
        0.5 * third * np.sum(np.linalg.norm(Phi, axis=1) ** 3) * step**2
        + np.linalg.norm(g_rounding)
    )


def gradient_at_stop(
    n_params: int, n_samples: int, tol: float, g_rounding=0.0
) -> float:
    """Bound on ‖∇E‖₂ where a solver stopped on max|∇E|/N ≤ tol (scikit-learn's solvers, whose
    objective is E/N): √P·N·tol for P parameters, plus the rounding of ∇E (`g_rounding`)."""
    return float(np.sqrt(n_params) * n_samples * tol + np.linalg.norm(g_rounding))


def optimum_gap(H, *gradient_bounds, n_null: int = 0) -> float:
    """Bound on ‖w₁ − w₂‖₂ for points near the minimum of a convex E with Hessian H there.

    ‖w − w*‖₂ ≤ ‖∇E(w)‖₂ / λ_min(H) for each point, so the bounds on the two points' gradient
    norms are added and divided by λ_min, the smallest eigenvalue of H after `n_null` null ones
    (directions that change nothing, e.g. a common shift of the softmax's weight vectors).
    """
    return float(sum(gradient_bounds) / np.linalg.eigvalsh(H)[n_null])


# SciPy's L-BFGS-B defaults, which scikit-learn and mlcourse's GP regressor and classifier use: it
# stops when every projected-gradient component is below LBFGSB_GTOL, or when an iteration
# changes the objective f by less than LBFGSB_FTOL·max(|f|, 1) (ftol = factr·EPS, factr = 1e7).
LBFGSB_FTOL, LBFGSB_GTOL = 1e7 * EPS, 1e-5


def lbfgsb_gain(value: float) -> float:
    """The gain in f left at an L-BFGS-B stop on its ftol rule, with a factor 10 of room over
    the last iteration's: 10·LBFGSB_FTOL·max(|f|, 1)."""
    return 10 * LBFGSB_FTOL * max(abs(value), 1.0)


def lbfgsb_tolerances(
    grad, theta, value: float, h: float = 1e-4, parameters: bool = False
):
    """What L-BFGS-B's stopping rules leave at a maximum θ of f (with f(θ) = `value`), per
    component.

    With A = −∇∇f (central differences of the analytic gradient `grad`, step h, symmetrised)
    and G = :func:`lbfgsb_gain` (f), the gain left, ½gᵀA⁻¹g ≤ G, bounds each gradient
    component, |g_i| ≤ √(2A_ii·G); a stop on the gradient rule leaves |g_i| ≤ LBFGSB_GTOL.

    Returns
    -------
    g_tol : ndarray of shape (P,)
        The larger of the two, for each i.
    theta_tol : ndarray of shape (P,), only with ``parameters=True``
        Each parameter's distance from the maximum, the larger of √(2G·(A⁻¹)_ii) and
        Σ_j|(A⁻¹)_ij|·LBFGSB_GTOL (A must then be positive definite).
    """
    from .utils.numdiff import central_differences

    theta = np.asarray(theta, dtype=float)
    A = -central_differences(grad, theta, h)
    A = 0.5 * (A + A.T)
    G = lbfgsb_gain(value)
    g_tol = np.maximum(LBFGSB_GTOL, np.sqrt(2 * np.clip(np.diag(A), 0, None) * G))
    if not parameters:
        return g_tol
    A_inv = linalg.cho_solve(linalg.cho_factor(A), np.eye(len(theta)))
    theta_tol = np.maximum(
        np.sqrt(2 * G * np.diag(A_inv)), np.abs(A_inv).sum(1) * LBFGSB_GTOL
    )
    return g_tol, theta_tol
