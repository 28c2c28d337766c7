"""The minimisers of the course: Newton–Raphson (lecture 003) and the first-order methods of
lecture 004, for the convex objectives of :mod:`mlcourse.utils.objectives` (and any like them).

* :func:`newton_minimize` — Newton–Raphson / IRLS with backtracking (lecture 003 §4-3-3), the
  workhorse that the linear, Laplace, RVM and GP-classification chapters reuse to find a
  posterior mode; :func:`newton_direction` and :func:`restrict` are its building blocks;
* :func:`gradient_descent` and :func:`sgd` — batch and stochastic gradient descent (lecture 004).

An objective is a callable ``fun(x) -> (E, grad, hess)`` (``(E, grad)`` for the first-order
methods), e.g. :func:`mlcourse.utils.objectives.logistic_objective` with Φ, t and the prior
fixed. Every minimiser returns an :class:`OptimizeResult` (``hess=None`` for first order).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import blas, lapack

from .validation import all_finite, check_random_state, check_scalar, check_vector

__all__ = [
    "NEWTON_TOL",
    "OptimizeResult",
    "newton_minimize",
    "newton_direction",
    "restrict",
    "gradient_descent",
    "sgd",
]

# Newton's method stops when a step is below NEWTON_TOL relative to the point, max|Δx| ≤
# NEWTON_TOL·(1 + max|x|). Convergence being quadratic, the point returned (the last step taken)
# is then accurate to about NEWTON_TOL² relative: far below every tolerance a mode is used with
# (the RVM loops' 1e-3 on ln α, the chapters' checks), in a handful of steps. The default of
# newton_minimize and of every Newton solver in the package (IRLS, the Laplace approximation,
# the RVM classifier's Laplace step).
NEWTON_TOL = 1e-8

# A Hessian that is not numerically positive definite (collinear features without a prior,
# saturated probabilities on separable data) gets a ridge τI before its Cholesky factorisation,
# τ = NEWTON_JITTER · mean(diag H) (or NEWTON_JITTER if that is 0), grown 100-fold until the
# factorisation succeeds. The step is then a slightly damped Newton step in the ill-determined
# directions only; at a regular optimum no ridge is ever added.
NEWTON_JITTER = 1e-10
_posv = lapack.get_lapack_funcs(
    "posv", dtype=np.float64
)  # solves SPD systems; info > 0 if not PD

_EPS = float(np.finfo(float).eps)

# Backtracking: the step length is halved at most this many times (2⁻⁴⁰ ≈ 1e-12).
MAX_HALVINGS = 40
# Armijo sufficient-decrease constant: accept step η if E(x − ηd) ≤ E(x) − c·η·∇Eᵀd.
ARMIJO = 1e-4


@dataclass
class OptimizeResult:
    """What a minimiser returns.

    Attributes
    ----------
    x : ndarray
        The final iterate.
    fun : float
        E(x).
    grad : ndarray
        ∇E(x).
    hess : ndarray or None
        ∇∇E(x) (Newton only): at a posterior mode this is the Laplace precision S_N⁻¹.
    n_iter : int
        Number of accepted updates (epochs for ``sgd``).
    converged : bool
        The tolerance was met.
    stopped : bool
        The ``stop`` callback ended the run (e.g. the data were found to be separable).
    history : list of float
        E at the start and after every update (every epoch for ``sgd``).
    """

    x: np.ndarray
    fun: float
    grad: np.ndarray
    hess: np.ndarray | None
    n_iter: int
    converged: bool
    stopped: bool = False
    history: list = field(default_factory=list)


def newton_direction(H, g) -> np.ndarray:
    """Solve H d = g by Cholesky, adding a ridge only if H is not numerically positive definite.

    Raises ``ValueError`` if H or g contains NaN or infinite values (no direction exists; a
    ridge could not help). The ridge τ grows 100-fold from NEWTON_JITTER·mean(diag H); every
    eigenvalue of H is at least −max_i Σ_j |H_ij| (Gershgorin), so H + τI is positive definite
    before τ passes 100 times that bound, and the loop ends there at the latest.
    """
    if not (np.isfinite(H).all() and np.isfinite(g).all()):
        raise ValueError(
            "The Hessian or the gradient contains NaN or infinite values; there is "
            "no Newton direction (is the objective finite at this point?)."
        )
    return _newton_direction(H, g)


def _newton_direction(H, g) -> np.ndarray:
    """:func:`newton_direction` for H and g already known to be finite."""
    _, d, info = _posv(H, g)  # LAPACK Cholesky solve, one call
    if info == 0 and all_finite(d):
        return d
    scale = float(np.mean(np.diag(H))) if H.size else 1.0
    tau = NEWTON_JITTER * (scale if np.isfinite(scale) and scale > 0 else 1.0)
    tau_max = 100.0 * (float(np.max(np.sum(np.abs(H), axis=1), initial=0.0)) + tau)
    while tau <= tau_max:
        _, d, info = _posv(H + tau * np.eye(len(H)), g)
        if info == 0 and np.isfinite(d).all():
            return d
        tau *= 100.0
    raise ValueError(
        "H + τI is not positive definite even beyond the Gershgorin bound on the "
        "eigenvalues of H (the entries of H or g are too large to solve with)."
    )


def _all_finite(E, g, H=None) -> bool:
    return math.isfinite(E) and all_finite(g) and (H is None or all_finite(H))


def _max_abs(v) -> float:
    """max_i |v_i| of a float vector (BLAS ``idamax``); 0 for an empty v."""
    return abs(float(v[blas.idamax(v)])) if v.size else 0.0


def newton_minimize(
    fun, x0, *, tol: float = NEWTON_TOL, max_iter: int = 100, stop=None
):
    """Minimise a convex, twice-differentiable E by Newton–Raphson with backtracking.

    x_new = x_old − η H⁻¹∇E(x_old) (lecture 003 §4-3-3 / Bishop (4.92)); for the logistic
    likelihood this is IRLS, a weighted least-squares solve (Bishop (4.99)). The full step η = 1
    is tried first and halved until E decreases sufficiently (Armijo), so E decreases at every
    iteration even far from the optimum; near the optimum η = 1 and convergence is quadratic.

    Parameters
    ----------
    fun : callable(x) -> (E, grad, hess)
    x0 : ndarray of shape (P,)
        Starting point (e.g. zeros, or a warm start).
    tol : float ≥ 0
        Converged when the Newton step satisfies max|Δx| ≤ tol·(1 + max|x|); that last step is
        taken too, so (convergence being quadratic) the returned x is accurate to about tol²
        relative.
    max_iter : int ≥ 0
        Maximum number of Newton steps.
    stop : callable(x) -> bool, optional
        Called after each step; returning True ends the run with ``stopped=True``.

    Returns
    -------
    OptimizeResult

    Raises
    ------
    ValueError
        `x0` not finite, or E, ∇E or ∇∇E not finite at `x0`, or a Hessian that cannot be
        solved with (:func:`newton_direction`). Trial points where they are not finite are
        treated as too long a step (the step is halved), so E may be +inf outside a domain.
    """
    check_scalar(tol, "tol", low=0)
    check_scalar(max_iter, "max_iter", low=0, integer=True)
    x = check_vector(x0, "x0", dtype=float).copy()
    E, g, H = fun(x)
    if not _all_finite(E, g, H):
        raise ValueError(
            "fun(x0) must return a finite E, gradient and Hessian; got "
            f"E = {E} at x0 = {x}."
        )
    history, converged, stopped, n_iter = [E], False, False, 0
    while n_iter < max_iter:
        d = _newton_direction(H, g)  # H, g finite: checked when accepted
        small = _max_abs(d) <= tol * (1.0 + _max_abs(x))
        slope, eta = float(g @ d), 1.0
        rounding = 8 * _EPS * abs(E)  # E can only be compared up to rounding
        for _ in range(MAX_HALVINGS):
            x_new = x - d if eta == 1.0 else x - eta * d
            E_new, g_new, H_new = fun(x_new)
            # a step to a non-finite value (e.g. outside a density's support) is too long
            if (
                _all_finite(E_new, g_new, H_new)
                and E_new <= E - ARMIJO * eta * slope + rounding
            ):
                break
            eta *= 0.5
        else:  # no decrease along the Newton direction: at the optimum up to rounding
            converged = small or slope <= rounding
            break
        x, E, g, H = x_new, E_new, g_new, H_new
        n_iter += 1
        history.append(E)
        if small:
            converged = True
            break
        if stop is not None and stop(x):
            stopped = True
            break
    return OptimizeResult(x, E, g, H, n_iter, converged, stopped, history)


def restrict(fun, free, x_fixed):
    """The objective as a function of the coordinates ``x[free]`` only, the rest held at x_fixed.

    Used to remove redundant parameters (e.g. the softmax's common shift of unpenalised
    intercepts), so that the Hessian of the reduced problem is positive definite.

    Returns
    -------
    callable(v) -> (E, grad[free], hess[free][:, free])
    """
    idx = np.flatnonzero(np.asarray(free, dtype=bool))
    block = np.ix_(idx, idx)
    x_fixed = np.asarray(x_fixed, dtype=float)

    def reduced(v):
        x = x_fixed.copy()
        x[idx] = v
        out = fun(x)
        return (out[0], out[1][idx]) + ((out[2][block],) if len(out) > 2 else ())

    return reduced


# --- first-order methods (lecture 004) ---------------------------------------------------------


def gradient_descent(
    fun, x0, *, learning_rate: float, tol: float, max_iter: int, stop=None
):
    """Batch gradient descent x ← x − η∇E(x) (lecture 004, "Logistic Regression: Gradient").

    Parameters
    ----------
    fun : callable(x) -> (E, grad)
    learning_rate : float
        η > 0; η ≤ 1/L, with L a Lipschitz constant of ∇E, makes E decrease at every step.
    tol : float ≥ 0
        Converged when max|∇E| ≤ tol.
    max_iter : int ≥ 0
        Maximum number of updates.
    stop : callable(x) -> bool, optional
        As for :func:`newton_minimize`.

    Raises
    ------
    ValueError
        A bad `learning_rate`, `tol`, `max_iter` or `x0`, or a non-finite E or ∇E at x0; or E or
        ∇E stops being finite: the learning rate is too large and the iterates diverge.
    """
    check_scalar(learning_rate, "learning_rate", low=0, low_inclusive=False)
    return _first_order(
        lambda x, g, it: x - learning_rate * g, fun, x0, tol, max_iter, stop
    )


def _first_order(update, fun, x0, tol, max_iter, stop):
    """The loop shared by GD and SGD: x ← update(x, ∇E(x), iteration) until max|∇E| ≤ tol.

    Raises ``ValueError`` (naming the learning rate) as soon as E or ∇E stops being finite."""
    check_scalar(tol, "tol", low=0)
    check_scalar(max_iter, "max_iter", low=0, integer=True)
    x = check_vector(x0, "x0", dtype=float).copy()
    E, g = fun(x)
    if not _all_finite(E, g):
        raise ValueError(f"fun(x0) must return a finite E and gradient; got E = {E}.")
    history, stopped, n_iter = [E], False, 0
    while n_iter < max_iter and np.max(np.abs(g)) > tol:
        with np.errstate(
            over="ignore", invalid="ignore"
        ):  # divergence is reported below
            x = update(x, g, n_iter)
            E, g = fun(x)
        n_iter += 1
        if not _all_finite(E, g):
            raise ValueError(
                f"The iterates diverged: E = {E} after {n_iter} updates. The "
                "learning_rate is too large; lower it (or leave it at None for a "
                "step size that decreases E)."
            )
        history.append(E)
        if stop is not None and stop(x):
            stopped = True
            break
    converged = bool(np.max(np.abs(g)) <= tol)
    return OptimizeResult(x, E, g, None, n_iter, converged, stopped, history)


def sgd(
    sample_step,
    fun,
    x0,
    n_samples: int,
    *,
    learning_rate: float,
    tol: float,
    max_iter: int,
    random_state=None,
    stop=None,
):
    """Stochastic gradient descent: x ← x − η_e ∇E_n(x), one sample at a time (lecture 004).

    E = Σ_n E_n. Each epoch visits the samples in a fresh random order; the step size decays as
    η_e = η₀/(1 + e) in epoch e = 0, 1, …, which satisfies the Robbins–Monro conditions
    Σ η = ∞, Σ η² < ∞, so the iterates converge to the minimiser rather than hovering around it.

    Parameters
    ----------
    sample_step : callable(x, n, eta) -> None
        Applies the update for sample n in place: x -= eta * ∇E_n(x).
    fun : callable(x) -> (E, grad)
        The full objective, evaluated once per epoch for the history and the stopping test.
    n_samples : int ≥ 1
    learning_rate : float
        η₀ > 0.
    tol : float ≥ 0
        Converged when max|∇E| ≤ tol at the end of an epoch.
    max_iter : int ≥ 0
        Maximum number of epochs.
    random_state : None, int or Generator
        Seeds the visiting order.
    stop : callable(x) -> bool, optional
        Checked at the end of each epoch.

    Raises
    ------
    ValueError
        As for :func:`gradient_descent` (bad arguments, including `n_samples`, or divergence).
    """
    check_scalar(learning_rate, "learning_rate", low=0, low_inclusive=False)
    check_scalar(n_samples, "n_samples", low=1, integer=True)
    rng = check_random_state(random_state)

    def epoch(x, g, e):
        eta = learning_rate / (1.0 + e)
        for n in rng.permutation(n_samples):
            sample_step(x, n, eta)
        return x

    return _first_order(epoch, fun, x0, tol, max_iter, stop)
