"""What the Gaussian-process regressor and classifier share (private to :mod:`mlcourse.gp`):
helper functions that each estimator's ``fit`` calls in turn (no base class).

* :data:`CONSTRAINTS` — the hyperparameters both have: ``kernel``, ``optimize``,
  ``n_restarts``, ``random_state``;
* :func:`learn_theta` — the hyperparameter search of GPML §5.4.1, with restarts;
  :func:`check_theta` — the argument of ``log_marginal_likelihood(theta)``;
* :func:`cholesky_jitter` — one Cholesky factorisation, with diagonal jitter only when the
  plain factorisation fails, and a warning that says so; :func:`cholesky_in_place` — one
  without a copy of the matrix;
* :func:`maximize_log_params` — L-BFGS-B on log-parameters with random restarts;
* :func:`restart_box` — where the restarts are drawn from, scaled to the data;
* :func:`kernel_copy`, :func:`learnable`, :func:`require_learnable`, :func:`require_theta` —
  what a kernel must offer.
"""

from __future__ import annotations

import copy
import warnings
from numbers import Integral

import numpy as np
from scipy import linalg, optimize

from ..kernels import SquaredExponential
from ..utils.validation import (
    HasMethods,
    Interval,
    check_array,
    check_random_state,
)

# Jitter: when K (+ noise) is not numerically positive definite — e.g. duplicated inputs with
# zero noise variance — add JITTER_START·mean(diag K) to the diagonal, then ten times more, up to
# JITTER_MAX·mean(diag K). 1e-10 is far below any noise level the data could support; beyond
# 1e-4 the jitter would change predictions visibly, so we raise instead.
JITTER_START, JITTER_MAX = 1e-10, 1e-4

# Search bounds for the log-parameters: length scales and signal variance in [1e-5, 1e5]
# (scikit-learn's defaults), noise variance in [1e-10, 1e5] (GPML Fig. 2.5 fits σ_n = 5e-5,
# i.e. σ_n² = 2.5e-9, so the lower bound must reach below that).
PARAM_BOUNDS = (1e-5, 1e5)
NOISE_BOUNDS = (1e-10, 1e5)


def cholesky_jitter(A, rebuild, what: str = "K"):
    """Lower Cholesky factor of the symmetric matrix `A`, adding jitter only if needed.

    The plain factor is computed in `A`'s own memory, without a copy (:func:`cholesky_in_place`).
    If that fails it has written over part of `A`, so `rebuild`, a function that returns `A`
    afresh, gives the matrix the jitter is added to.

    Returns
    -------
    L : ndarray of shape (n, n)
        Lower triangular, L Lᵀ = A + jitter·I.
    jitter : float
        What was added to the diagonal (0.0 when the plain factorisation succeeded).

    Warns
    -----
    RuntimeWarning
        When jitter was added (names its size).

    Raises
    ------
    ValueError
        If `A` is not positive definite even with JITTER_MAX·mean(diag A) added.
    """
    try:
        return cholesky_in_place(A), 0.0
    except linalg.LinAlgError:
        A = rebuild()
    scale = float(np.mean(np.diag(A))) or 1.0
    jitter = JITTER_START * scale
    while jitter <= JITTER_MAX * scale * (1 + 1e-12):
        try:
            L = linalg.cholesky(
                A + jitter * np.eye(len(A)), lower=True, check_finite=False
            )
        except linalg.LinAlgError:
            jitter *= 10.0
            continue
        warnings.warn(
            f"{what} is not numerically positive definite (duplicated inputs with zero "
            f"noise?); added jitter {jitter:.1e} to its diagonal.",
            RuntimeWarning,
            stacklevel=3,
        )
        return L, jitter
    raise ValueError(
        f"{what} is not positive definite, even with jitter {JITTER_MAX:g}·mean "
        "diagonal; use a positive noise_variance or remove duplicated inputs."
    )


def cholesky_in_place(A):
    """Lower Cholesky factor of the symmetric matrix `A`, in `A`'s memory (overwritten).

    LAPACK factorises a Fortran-ordered array in place but copies a C-ordered one (transposing
    it on the way). A symmetric `A` in C order is its own transpose, and ``A.T`` is that matrix
    in Fortran order: the same entries, so the same factor to the bit, without the copy.

    Raises
    ------
    numpy.linalg.LinAlgError
        If `A` is not numerically positive definite (then part of it has been overwritten).
    """
    F = A.T if A.flags.c_contiguous else A
    return linalg.cholesky(F, lower=True, overwrite_a=True, check_finite=False)


def learnable(kernel) -> bool:
    """Whether `kernel` has what hyperparameter learning needs: theta, with_theta and gradient."""
    return all(hasattr(kernel, a) for a in ("theta", "with_theta", "gradient"))


def require_learnable(kernel, what: str, instead: str) -> None:
    """Raise a ValueError saying that `what` needs a kernel with log-parameters θ, and what to
    do `instead`."""
    if not learnable(kernel):
        raise ValueError(
            f"{what} needs a kernel with theta, with_theta and gradient (e.g. "
            f"SquaredExponential); {type(kernel).__name__} has no log-parameters. "
            f"{instead}"
        )


def require_theta(kernel) -> None:
    """The guard of both estimators' ``log_marginal_likelihood(theta, eval_gradient)``."""
    require_learnable(
        kernel,
        "log_marginal_likelihood(theta) or eval_gradient=True",
        "log_marginal_likelihood() gives the value at the fitted kernel.",
    )


# The kernel hyperparameter of both estimators (the predictive variances need k(x, x)).
KERNEL_CONSTRAINT = HasMethods(
    ["__call__", "diag"],
    "a callable k(X, Y) with a diag(X) method (e.g. mlcourse.kernels.SquaredExponential)",
)


def kernel_copy(kernel, X, optimize_flag: bool):
    """A private copy of `kernel` (default ``SquaredExponential()``), checked against the inputs.

    The kernel (already known to be callable with a ``diag`` method, ``KERNEL_CONSTRAINT``) is
    evaluated once on the first input, as k(A, B), which also validates its own
    hyperparameters; to be optimised it must also be :func:`learnable`.
    """
    kernel = copy.deepcopy(SquaredExponential() if kernel is None else kernel)
    shapes = np.shape(kernel(X[:1], X[:1])), np.shape(kernel.diag(X[:1]))
    if shapes != ((1, 1), (1,)):
        raise ValueError(
            f"kernel(X[:1], X[:1]) and kernel.diag(X[:1]) must have shapes (1, 1) and "
            f"(1,); got {shapes[0]} and {shapes[1]}."
        )
    if optimize_flag:
        require_learnable(
            kernel,
            "optimize=True",
            "Pass optimize=False to keep its hyperparameters fixed.",
        )
    return kernel


def restart_box(X, y_var: float | None, n_length_scales: int) -> np.ndarray:
    """Log-space box of shape (n_params, 2) from which restarts are drawn.

    ℓ_d log-uniform in [0.05, 2]·(range of input d); σ_f² in [0.1, 10]·var(y) for regression
    (``y_var``) or [0.3, 30] for classification (``y_var=None``); σ_n² in [1e-3, 1]·var(y).
    """
    span = np.ptp(X, axis=0)
    span = np.where(span > 0, span, 1.0)
    span = (
        np.full(n_length_scales, span.mean()) if n_length_scales != X.shape[1] else span
    )
    ell = np.log(np.column_stack([0.05 * span, 2.0 * span]))
    v = 1.0 if y_var is None or y_var <= 0 else y_var
    sig = np.log([[0.3, 30.0]]) if y_var is None else np.log([[0.1 * v, 10.0 * v]])
    rows = [sig, ell] + ([] if y_var is None else [np.log([[1e-3 * v, v]])])
    return np.vstack(rows)


def maximize_log_params(fun, theta0, bounds, n_restarts, rng, box):
    """Maximise ``fun(θ) -> (value, gradient)`` by L-BFGS-B from θ0 and `n_restarts` random starts.

    Parameters
    ----------
    fun : callable
        Returns the objective and its gradient; may return ``-inf`` where it is undefined.
    theta0 : ndarray of shape (p,)
        First start (the estimator's initial hyperparameters), clipped into `bounds`.
    bounds : ndarray of shape (p, 2)
        Log-space bounds.
    box : ndarray of shape (p, 2)
        Log-space box the restarts are drawn from (uniformly), clipped into `bounds`.

    Returns
    -------
    theta : ndarray of shape (p,)
        The best optimum found.
    value : float
        ``fun`` there.
    """

    def neg(theta):
        value, grad = fun(theta)
        if not np.isfinite(value):
            return np.inf, np.zeros_like(theta)
        return -value, -grad

    box = np.clip(box, bounds[:, :1], bounds[:, 1:])
    starts = [np.clip(theta0, bounds[:, 0], bounds[:, 1])]
    starts += [rng.uniform(box[:, 0], box[:, 1]) for _ in range(n_restarts)]
    best = None
    for start in starts:
        res = optimize.minimize(neg, start, jac=True, method="L-BFGS-B", bounds=bounds)
        if best is None or res.fun < best.fun:
            best = res
    if not np.isfinite(best.fun):
        raise ValueError(
            "the marginal likelihood could not be evaluated at any start; check "
            "the data scale or pass optimize=False with suitable hyperparameters."
        )
    return best.x, -float(best.fun)


# The hyperparameters both estimators share, and what they mean (each class lists them in its
# own ``_parameter_constraints``).
CONSTRAINTS = {
    "kernel": [None, KERNEL_CONSTRAINT],
    "optimize": ["boolean"],
    "n_restarts": [Interval(Integral, 0, None, closed="left")],
    "random_state": ["random_state"],
}


def learn_theta(lml, theta0, extra_bounds, X, y_var, n_restarts, random_state):
    """θ maximising ``lml(θ) -> (ln p, gradient)`` (GPML §5.4.1): L-BFGS-B from `theta0` (the
    kernel's log-parameters [ln σ_f², ln ℓ_1, …], then the estimator's own, bounded by
    `extra_bounds`) and from `n_restarts` starts drawn from :func:`restart_box` (`y_var`: the
    targets' variance for regression, ``None`` for classification)."""
    n_k = len(theta0) - len(extra_bounds)
    theta, _ = maximize_log_params(
        lml,
        theta0,
        np.log([PARAM_BOUNDS] * n_k + list(extra_bounds)),
        n_restarts,
        check_random_state(random_state),
        restart_box(X, y_var, n_k - 1),
    )
    return theta


def check_theta(theta, fitted):
    """`theta` (default: `fitted`) as a finite vector of the fitted θ's length."""
    fitted = np.asarray(fitted, dtype=float)
    if theta is None:
        return fitted
    theta = check_array(theta, "theta", ndim=1, min_samples=0)
    if theta.shape != fitted.shape:
        raise ValueError(
            f"theta must be a finite vector of length {fitted.size}; got shape "
            f"{theta.shape}."
        )
    return theta
