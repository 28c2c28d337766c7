"""A Gaussian mixture over the inputs, fitted by EM from scratch (Bishop §9.2.2), for the
normalised RBF classifier (lecture 002, "RBF Networks for Classification").

p(x) = Σ_j π_j N(x | μ_j, Σ_j); the posterior of component j, P(j | x), is the normalised RBF unit
φ_j(x). Densities are evaluated through Cholesky factors of Σ_j and combined with ``logsumexp``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import linalg

from ..exceptions import ConvergenceWarning
from ..special import LOG_2PI, logsumexp
from ..utils.validation import check_array, check_random_state, check_scalar
from ._kmeans import kmeans

__all__ = [
    "MixtureResult",
    "gaussian_mixture",
    "component_log_density",
    "COVARIANCE_FLOOR",
]

# Covariance floor: every Σ_j gets COVARIANCE_FLOOR · s² added to its diagonal, s² the mean
# per-feature variance of the training inputs (1 if they have none). A component that collapses
# onto one point, or onto a line, would otherwise have a singular Σ_j and an unbounded likelihood
# (Bishop §9.2.1); with the floor its Cholesky factor exists and its density is finite. 1e-6 is
# scikit-learn's reg_covar for standardised data, far below any spread the data could support.
COVARIANCE_FLOOR = 1e-6
# Added to each N_j = Σ_n r_nj before dividing by it (scikit-learn's 10ε): a component whose
# responsibilities all underflow keeps a finite mean and covariance instead of 0/0.
_TINY = 10 * np.finfo(float).eps


@dataclass
class MixtureResult:
    """What :func:`gaussian_mixture` returns.

    Attributes
    ----------
    weights : ndarray of shape (M,)
        Mixing coefficients π_j.
    means : ndarray of shape (M, D)
    covariances : ndarray of shape (M, D, D)
    log_likelihood : ndarray of shape (n_iter + 1,)
        (1/N) ln p(X) after the initial M-step and after each EM iteration: non-decreasing, up to
        the covariance floor's effect (see :data:`COVARIANCE_FLOOR`).
    n_iter : int
    converged : bool
    floor : float
        The value added to each covariance's diagonal.
    responsibilities : ndarray of shape (N, M)
        r_nj = P(j | x_n) at the returned parameters.
    """

    weights: np.ndarray
    means: np.ndarray
    covariances: np.ndarray
    log_likelihood: np.ndarray
    n_iter: int
    converged: bool
    floor: float
    responsibilities: np.ndarray


def component_log_density(X, means, covariances) -> np.ndarray:
    """ln N(x_n | μ_j, Σ_j) for every point and component, shape (N, M).

    With Σ_j = L_j L_jᵀ (Cholesky): −½‖L_j⁻¹(x − μ_j)‖² − Σ_d ln L_j,dd − (D/2) ln 2π.
    """
    X = np.asarray(X, dtype=float)
    N, D = X.shape
    out = np.empty((N, len(means)))
    for j, (mu, S) in enumerate(zip(means, covariances)):
        L = linalg.cholesky(S, lower=True, check_finite=False)
        # (X − μ)ᵀ is a Fortran-ordered temporary: LAPACK solves in it, no copy
        z = linalg.solve_triangular(
            L, (X - mu).T, lower=True, overwrite_b=True, check_finite=False
        )
        out[:, j] = (
            -0.5 * np.einsum("ij,ij->j", z, z)
            - np.log(np.diag(L)).sum()
            - 0.5 * D * LOG_2PI
        )
    return out


def _m_step(X, resp, floor):
    """π, μ, Σ from responsibilities (Bishop (9.24)–(9.26)), with the floor on each Σ_j."""
    Nk = resp.sum(axis=0) + _TINY
    means = resp.T @ X / Nk[:, None]
    D = X.shape[1]
    covs = np.empty((len(Nk), D, D))
    for j in range(len(Nk)):
        diff = X - means[j]
        covs[j] = (resp[:, j] * diff.T) @ diff / Nk[j]
        covs[j].flat[:: D + 1] += floor
    return Nk / Nk.sum(), means, covs


def _e_step(X, weights, means, covs):
    """Log responsibilities ln r_nj = ln π_j N(x_n | j) − ln p(x_n), and the mean ln p(x_n)."""
    log_joint = component_log_density(X, means, covs) + np.log(weights)
    log_px = logsumexp(log_joint, axis=1)
    return log_joint - log_px[:, None], float(log_px.mean())


def gaussian_mixture(
    X, n_components: int, *, random_state=None, max_iter: int = 200, tol: float = 1e-6
) -> MixtureResult:
    """Fit a Gaussian mixture with full covariances by EM.

    Initialisation: k-means (:func:`~mlcourse.cluster.kmeans`, seeded by `random_state`); its hard
    assignments give the first M-step. Then E-step (responsibilities r_nj = P(j | x_n), Bishop
    (9.23)) and M-step (Bishop (9.24)–(9.26)) alternate until the mean log-likelihood per point
    rises by less than `tol` (scikit-learn's rule).

    Parameters
    ----------
    X : array_like of shape (N, D)
    n_components : int
        M, at most the number of distinct rows of `X`.
    random_state : None, int or numpy.random.Generator
    max_iter : int
        EM iterations at most; a ``ConvergenceWarning`` if they run out.
    tol : float ≥ 0

    Returns
    -------
    MixtureResult
    """
    X = check_array(X, "X")
    M = check_scalar(n_components, "n_components", low=1, integer=True)
    max_iter = check_scalar(max_iter, "max_iter", low=1, integer=True)
    check_scalar(tol, "tol", low=0)
    scale = float(np.mean(np.var(X, axis=0)))
    floor = COVARIANCE_FLOOR * (scale if scale > 0 else 1.0)
    rng = check_random_state(random_state)
    labels = kmeans(X, M, random_state=rng).labels
    resp = np.zeros((len(X), M))
    resp[np.arange(len(X)), labels] = 1.0
    weights, means, covs = _m_step(X, resp, floor)
    log_resp, ll = _e_step(X, weights, means, covs)
    history = [ll]
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        weights, means, covs = _m_step(X, np.exp(log_resp), floor)
        log_resp, ll = _e_step(X, weights, means, covs)
        history.append(ll)
        if abs(history[-1] - history[-2]) < tol:
            converged = True
            break
    if not converged:
        warnings.warn(
            f"EM stopped after max_iter={max_iter} iterations; the mean log-likelihood "
            f"changed by {history[-1] - history[-2]:.2e} > tol={tol:g} in the last "
            f"one.",
            ConvergenceWarning,
            stacklevel=2,
        )
    return MixtureResult(
        weights,
        means,
        covs,
        np.array(history),
        n_iter,
        converged,
        floor,
        np.exp(log_resp),
    )
