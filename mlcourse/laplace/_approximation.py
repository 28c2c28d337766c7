"""The Laplace approximation of :mod:`mlcourse.laplace` (which re-exports it): the Gaussian fitted
at a mode (:class:`LaplaceResult`), the mode search (:func:`fit_laplace`) and
:func:`laplace_approximation` for any log-density (its missing derivatives by central
differences, :mod:`mlcourse.utils.numdiff`).

The mode is found by :func:`mlcourse.utils.optimize.newton_minimize` applied to E(z) = −ln f(z),
the same damped Newton solver that fits logistic regression (lecture 003 §4-3-3); its Hessian at
the mode is the Laplace precision A.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import linalg

from ..exceptions import ConvergenceWarning
from ..special import LOG_2PI
from ..utils.numdiff import numerical_gradient, numerical_hessian, numerical_jacobian
from ..utils.optimize import NEWTON_TOL, newton_minimize
from ..utils.validation import check_array

__all__ = ["LaplaceResult", "fit_laplace", "laplace_approximation"]


@dataclass
class LaplaceResult:
    """The Laplace approximation q(z) = N(z | z₀, A⁻¹) to a density p(z) = f(z)/Z.

    Lecture 003 §4-4 / Bishop (4.125)–(4.135). For a scalar problem (``x0`` a scalar) `mode`,
    `precision` and `covariance` are floats; otherwise arrays of shape (M,) and (M, M).

    Attributes
    ----------
    mode : float or ndarray of shape (M,)
        z₀, a local maximum of f.
    precision : float or ndarray of shape (M, M)
        A = −∇∇ ln f(z) at z₀.
    covariance : float or ndarray of shape (M, M)
        A⁻¹ (from the Cholesky factor of A).
    log_normalizer : float
        ln Ẑ, the Laplace estimate of ln Z = ln ∫ f(z) dz:
        ln f(z₀) + (M/2) ln 2π − ½ ln|A| (Bishop (4.135)). For f = likelihood × prior this is
        the log evidence, Bishop (4.137).
    log_f_mode : float
        ln f(z₀).
    n_iter : int
        Newton steps taken.
    converged : bool
    cholesky : ndarray of shape (M, M)
        Lower-triangular L with A = LLᵀ (also for a scalar problem, then of shape (1, 1)).
    """

    mode: object
    precision: object
    covariance: object
    log_normalizer: float
    log_f_mode: float
    n_iter: int
    converged: bool
    cholesky: np.ndarray = field(repr=False, default=None)

    def logpdf(self, z):
        """ln q(z) = ln N(z | z₀, A⁻¹), for z of shape (..., M) (shape (...) if scalar)."""
        z0 = np.atleast_1d(self.mode)
        z = np.asarray(z, dtype=float)
        zz = z[..., None] if np.ndim(self.mode) == 0 else z
        if zz.shape[-1:] != z0.shape:
            raise ValueError(
                f"z must have last dimension {len(z0)}; got shape {z.shape}."
            )
        u = (zz - z0) @ self.cholesky  # ‖Lᵀ(z − z₀)‖² = (z − z₀)ᵀA(z − z₀)
        log_det_half = np.sum(np.log(np.diag(self.cholesky)))
        return -0.5 * np.sum(u * u, axis=-1) - 0.5 * len(z0) * LOG_2PI + log_det_half


def fit_laplace(
    fun,
    x0,
    log_f_offset: float = 0.0,
    scalar: bool = False,
    tol: float = NEWTON_TOL,
    max_iter: int = 200,
) -> LaplaceResult:
    """Laplace approximation from the objective ``fun(z) -> (E, ∇E, ∇∇E)``, E = −ln f + const.

    The mode is the minimiser of E (:func:`newton_minimize`); A is ∇∇E there, and
    ln f(z₀) = −E(z₀) + `log_f_offset`. Raises ``ValueError`` if A is not positive definite at
    the point reached (no strict local maximum of f), warns :class:`ConvergenceWarning` if
    Newton's method did not converge.
    """
    res = newton_minimize(fun, np.asarray(x0, dtype=float), tol=tol, max_iter=max_iter)
    A = np.asarray(res.hess, dtype=float)
    try:
        L = linalg.cholesky(A, lower=True)
    except linalg.LinAlgError:
        raise ValueError(
            "−∇∇ ln f is not positive definite at the point the Newton iteration "
            f"reached (z = {res.x}); f has no strict local maximum there, so there "
            "is no Laplace approximation."
        ) from None
    if not res.converged:
        warnings.warn(
            f"The mode search did not converge in {res.n_iter} Newton steps; the "
            "Laplace approximation may be inaccurate.",
            ConvergenceWarning,
            stacklevel=3,
        )
    M = len(res.x)
    cov = linalg.cho_solve((L, True), np.eye(M))
    log_f0 = -res.fun + log_f_offset
    log_Z = log_f0 + 0.5 * M * LOG_2PI - np.sum(np.log(np.diag(L)))
    if scalar:
        mode, prec, cov = float(res.x[0]), float(A[0, 0]), float(cov[0, 0])
    else:
        mode, prec = res.x, A
    return LaplaceResult(
        mode, prec, cov, float(log_Z), float(log_f0), res.n_iter, bool(res.converged), L
    )


def laplace_approximation(log_density, x0, grad=None, hess=None) -> LaplaceResult:
    """Gaussian approximation N(z | z₀, A⁻¹) at a mode z₀ of f (lecture 003 §4-4, Bishop §4.4).

    Step 1: find z₀ with ∇ ln f(z₀) = 0 (Newton's method on −ln f, from `x0`); step 2:
    A = −∇∇ ln f(z₀); then ln f(z) ≈ ln f(z₀) − ½(z − z₀)ᵀA(z − z₀), and normalising gives
    q(z) = |A|^½ (2π)^(−M/2) exp{−½(z − z₀)ᵀA(z − z₀)} (Bishop (4.133)–(4.134)).

    Parameters
    ----------
    log_density : callable
        z ↦ ln f(z), the log of an *unnormalised* density (any additive constant). Called with a
        float if `x0` is a scalar, else with an array of shape (M,).
    x0 : float or array_like of shape (M,)
        Starting point of the mode search; ln f(x0) must be finite.
    grad, hess : callable, optional
        z ↦ ∇ ln f(z), shape (M,), and z ↦ ∇∇ ln f(z), shape (M, M) (scalars in 1-D). Missing
        ones are computed by central differences: the Hessian from `grad` if given, else from
        second differences of `log_density` (relative accuracy about 1e-8 times the scale of
        the fourth derivative; 2M² + 1 calls per Newton step, so pass derivatives beyond a few
        dimensions).

    Returns
    -------
    LaplaceResult
        ``.mode`` z₀, ``.precision`` A, ``.covariance`` A⁻¹ and ``.log_normalizer``, the Laplace
        estimate of ln Z = ln ∫ f(z) dz: ln f(z₀) + (M/2) ln 2π − ½ ln|A| (Bishop (4.135)).
        Scalars if `x0` is a scalar.

    Raises
    ------
    ValueError
        `x0` not finite or not 0-/1-D; ln f(x0) not finite; derivatives of the wrong shape or not
        finite (given ones anywhere ln f is finite; finite-difference ones at `x0`, elsewhere
        such a point is treated as outside the support); A not positive definite at the point
        reached (no strict local maximum).

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.laplace import laplace_approximation
    >>> def log_density(z):  # a Gamma(3, 1) density, unnormalised: mode 2, A = 1/2
    ...     return 2 * np.log(z[0]) - z[0]
    ...
    >>> q = laplace_approximation(log_density, [1.0])
    >>> q.mode.round(6).tolist(), q.covariance.round(6).tolist()
    ([2.0], [[2.0]])
    """
    for name, fn in (("log_density", log_density), ("grad", grad), ("hess", hess)):
        if fn is not None and not callable(fn):
            raise ValueError(f"{name} must be callable; got {fn!r}.")
    scalar = np.ndim(x0) == 0
    z0 = check_array(np.atleast_1d(x0), "x0", ndim=1)
    M = len(z0)
    arg = (lambda z: float(z[0])) if scalar else (lambda z: z)

    def ln_f(z):
        return float(log_density(arg(z)))

    def shaped(fn, name, shape, finite=True):
        def call(z):
            out = np.asarray(fn(arg(z)), dtype=float).reshape(-1)
            if out.size != np.prod(shape):
                raise ValueError(
                    f"{name} must return shape {shape}; got {out.size} values."
                )
            if finite and not np.all(np.isfinite(out)):
                raise ValueError(f"{name} returned NaN or infinite values at z = {z}.")
            return out.reshape(shape)

        return call

    g = shaped(grad, "grad", (M,)) if grad is not None else None
    g_raw = (
        shaped(grad, "grad", (M,), finite=False) if grad is not None else None
    )  # for steps
    H = shaped(hess, "hess", (M, M)) if hess is not None else None
    lf0 = ln_f(z0)
    if not np.isfinite(lf0):
        raise ValueError(f"log_density(x0) must be finite; got {lf0} at x0 = {x0!r}.")

    outside = (
        np.inf,
        np.zeros(M),
        np.eye(M),
    )  # the line search backs off from such points

    def fun(z):
        lf = ln_f(z)
        if not np.isfinite(lf):  # outside the support
            return outside
        with np.errstate(all="ignore"):  # a difference step may leave the support
            gz = g(z) if g else numerical_gradient(ln_f, z)
            if H:
                Hz = H(z)
            else:
                Hz = numerical_jacobian(g_raw, z) if g else numerical_hessian(ln_f, z)
        if not (np.all(np.isfinite(gz)) and np.all(np.isfinite(Hz))):
            return outside  # finite differences crossed the support's edge
        return -lf, -gz, -Hz

    if fun(z0) is outside:
        raise ValueError(
            f"The finite-difference derivatives of log_density are not finite at "
            f"x0 = {x0!r}: a difference step leaves the support of f there. Start "
            "further inside the support, or pass grad and hess."
        )
    return fit_laplace(fun, z0, scalar=scalar)
