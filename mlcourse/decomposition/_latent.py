"""The linear-Gaussian latent-variable model behind probabilistic and supervised PCA (private; the
estimators are :class:`~mlcourse.decomposition.PPCA` and
:class:`~mlcourse.decomposition.SupervisedPCA`).

A latent z ~ N(0, I_r) generates the p observed coordinates,

    x = Wz + μ + ε,   ε ~ N(0, Ψ),   Ψ = diag(ψ_1, …, ψ_p),

with the noise variances ψ_j shared within *groups* of coordinates: PPCA has one group, Ψ = σ²I
(lecture 002, Tipping & Bishop 1999); supervised PCA stacks x and t with two groups, σ_x² and
σ_t² (lecture 002, "Bayesian factor regression"). Everything follows from the joint Gaussian

    [x; z] ~ N([μ; 0], [[WWᵀ + Ψ, W], [Wᵀ, I]]):

* :func:`posterior` — p(z | x) = N(M⁻¹WᵀΨ⁻¹(x − μ), M⁻¹) with M = I + WᵀΨ⁻¹W (for Ψ = σ²I
  lecture 002's M = I + WᵀW/σ²; Bishop's (12.41) M is σ² times it), and the log-density
  ln N(x | μ, WWᵀ + Ψ) from r × r quantities only (Woodbury and the matrix determinant lemma);
  missing entries of x are marginalised out: only the observed coordinates O enter, through W_O.
* :func:`fit_em` — maximum likelihood by EM (Bishop §12.2.2; Ilin & Raiko 2010 for missing
  values).
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from scipy import linalg

from ..exceptions import ConvergenceWarning
from ._pca_routes import RANK_RTOL, flip_signs

__all__ = [
    "posterior",
    "fit_em",
    "noise_floor",
    "canonical_rotation",
    "Posterior",
    "EMFit",
]

LOG_2PI = np.log(2 * np.pi)


def noise_floor(total_variance: float, n_samples: int, n_features: int) -> float:
    """The smallest noise variance allowed: RANK_RTOL · max(N, p) · tr(S).

    A noise variance is an average of discarded eigenvalues of S (1/N), which an eigensolver
    computes with an absolute error of order eps · max(N, p) · λ_1 ≤ eps · max(N, p) · tr(S) (the
    rule of :mod:`._pca_routes`): below this level it is rounding noise, and zero when the data
    have rank ≤ r. The floor keeps WWᵀ + σ²I positive definite with a condition number of at most
    about 1/(eps · max(N, p)). `total_variance` is tr(S) of the coordinates that share the
    variance (1/N).
    """
    return RANK_RTOL * max(n_samples, n_features) * float(total_variance)


class Posterior(NamedTuple):
    """p(z | x) for each row, and the log-density of the row.

    mean : (N, r) — E[z | x_O] = M⁻¹W_OᵀΨ_O⁻¹(x_O − μ_O)
    cov : (r, r), shared by all rows, or (N, r, r) with missing values — M⁻¹
    log_likelihood : (N,) — ln N(x_O | μ_O, W_OW_Oᵀ + Ψ_O)
    """

    mean: np.ndarray
    cov: np.ndarray
    log_likelihood: np.ndarray


def posterior(E, W, psi, observed=None) -> Posterior:
    """The posterior of z and the log-likelihood of each row of E = X − μ.

    With M = I + W_OᵀΨ_O⁻¹W_O and b = W_OᵀΨ_O⁻¹e_O,

        E[z | x] = M⁻¹b,  cov[z | x] = M⁻¹                  (lecture 002, Bishop 12.42)
        ln|W_OW_Oᵀ + Ψ_O| = ln|M| + Σ_{j∈O} ln ψ_j           (matrix determinant lemma)
        e_Oᵀ(W_OW_Oᵀ + Ψ_O)⁻¹e_O = e_OᵀΨ_O⁻¹e_O − bᵀM⁻¹b     (Woodbury),

    so no p × p matrix is formed. M ⪰ I is well conditioned (κ ≤ 1 + ‖W‖²/min ψ).

    Parameters
    ----------
    E : ndarray of shape (N, p)
        Centred data x_n − μ, with 0 at missing entries.
    W : ndarray of shape (p, r)
    psi : ndarray of shape (p,)
        Noise variances, positive.
    observed : None or bool ndarray of shape (N, p)
        Which entries are observed; None: all of them (one M for every row).
    """
    n, p = E.shape
    r = W.shape[1]
    A = W / psi[:, None]  # Ψ⁻¹W
    b = E @ A  # rows W_OᵀΨ_O⁻¹e_O (E is 0 where missing)
    quad = (E * E) @ (1.0 / psi)
    if observed is None:
        M = W.T @ A
        M[np.diag_indices(r)] += 1.0
        factor = linalg.cho_factor(M, lower=True, check_finite=False)
        cov = linalg.cho_solve(factor, np.eye(r), check_finite=False)
        mean = b @ cov  # cov is symmetric: rows M⁻¹b_n
        logdet = 2 * np.sum(np.log(np.diag(factor[0]))) + np.sum(np.log(psi))
        n_obs = p
    else:
        weights = observed / psi  # ψ_j⁻¹ where observed, else 0
        outer = (W[:, :, None] * W[:, None, :]).reshape(p, r * r)
        M = (weights @ outer).reshape(n, r, r)
        M[:, np.arange(r), np.arange(r)] += 1.0
        chol = np.linalg.cholesky(M)
        cov = np.linalg.solve(M, np.broadcast_to(np.eye(r), M.shape))
        mean = np.einsum("nab,nb->na", cov, b)
        logdet = 2 * np.sum(
            np.log(np.diagonal(chol, axis1=1, axis2=2)), axis=1
        ) + observed @ np.log(psi)
        n_obs = observed.sum(axis=1)
    quad -= np.einsum("na,na->n", b, mean)
    return Posterior(mean, cov, -0.5 * (n_obs * LOG_2PI + logdet + quad))


def _m_step(E, post, observed):
    """New W, a shift of μ, and each coordinate's summed squared residual and count.

    Each coordinate j is regressed on the posterior of z (Bishop 12.54–12.56): with complete
    data μ = x̄ is already the maximum (∇_μ J = 0 for every W, Ψ) and W = (Σ_n e_n E[z_n]ᵀ)
    (Σ_n E[z_n z_nᵀ])⁻¹; with missing values w_j and μ_j are fitted jointly, on the rows where x_j
    is observed, by regressing on z̃ = [z; 1]. The residual Σ_n E[(e_nj − w̃_jᵀz̃_n)²] at the
    new w̃_j is Σ_n e_nj² − w̃_jᵀ Σ_n e_nj E[z̃_n].
    """
    n, p = E.shape
    r = post.mean.shape[1]
    if observed is None:
        Szz = n * post.cov + post.mean.T @ post.mean
        Sxz = E.T @ post.mean
        W = linalg.solve(Szz, Sxz.T, assume_a="pos", check_finite=False).T
        resid = np.einsum("nj,nj->j", E, E) - np.einsum("ja,ja->j", W, Sxz)
        return W, np.zeros(p), resid, np.full(p, n)
    zt = np.column_stack([post.mean, np.ones(n)])  # E[z̃_n]
    Ezz = post.cov.copy()
    Ezz += post.mean[:, :, None] * post.mean[:, None, :]
    second = np.empty((n, r + 1, r + 1))  # E[z̃_n z̃_nᵀ]
    second[:, :r, :r], second[:, :r, r], second[:, r, :r], second[:, r, r] = (
        Ezz,
        post.mean,
        post.mean,
        1.0,
    )
    Szz = (observed.T @ second.reshape(n, -1)).reshape(p, r + 1, r + 1)
    Sxz = E.T @ zt  # E is 0 where missing
    Wt = np.linalg.solve(Szz, Sxz[:, :, None])[:, :, 0]
    resid = np.einsum("nj,nj->j", E, E) - np.einsum("ja,ja->j", Wt, Sxz)
    return Wt[:, :r], Wt[:, r], resid, observed.sum(axis=0)


class EMFit(NamedTuple):
    """The result of :func:`fit_em`: parameters, the mean log-likelihood per sample at the start
    of each iteration (the last entry is that of the returned parameters), iterations, and
    whether the tolerance was met."""

    W: np.ndarray
    mean: np.ndarray
    psi: np.ndarray
    history: list
    n_iter: int
    converged: bool


def fit_em(
    X, n_components: int, groups, *, max_iter: int, tol: float, rng, observed=None
) -> EMFit:
    """Maximum likelihood for x = Wz + μ + ε, ε ~ N(0, diag(ψ)), by EM.

    E-step: the posterior of each z_n (:func:`posterior`). M-step: regress every coordinate on
    it (:func:`_m_step`), then ψ_g = (summed residuals of group g)/(observed entries of g),
    floored at :func:`noise_floor`. EM never lowers the likelihood (Bishop §9.4), so the iteration
    stops when the mean log-likelihood per sample rises by less than `tol` nats; that increase is
    the same in any units of the data.

    Parameters
    ----------
    X : ndarray of shape (N, p)
        Data, with NaN at missing entries when `observed` is given (no row or column entirely
        missing: the caller checks).
    n_components : int
        r.
    groups : ndarray of int, shape (p,)
        The noise group of each coordinate, 0, 1, …
    max_iter : int
    tol : float
    rng : numpy.random.Generator
        Draws the starting W ~ N(0, v)ᵖˣʳ, v the mean variance of the coordinates.
    observed : None or bool ndarray of shape (N, p)

    Returns
    -------
    EMFit
        W with canonical orientation (:func:`canonical_rotation`).
    """
    n, p = X.shape
    groups = np.asarray(groups)
    n_groups = groups.max() + 1
    if observed is None:
        mu = X.mean(axis=0)
        E = X - mu
        counts = np.full(p, n)
    else:
        mu = np.nanmean(X, axis=0)
        E = np.where(observed, X - mu, 0.0)
        counts = observed.sum(axis=0)
    var = np.einsum("nj,nj->j", E, E) / counts  # per-coordinate variance
    total = np.bincount(groups, var, n_groups)  # tr(S) of each group
    floor = np.array(
        [noise_floor(total[g], n, np.sum(groups == g)) for g in range(n_groups)]
    )
    psi_g = np.maximum(total / np.bincount(groups, minlength=n_groups), floor)
    W = rng.standard_normal((p, n_components)) * np.sqrt(var.mean())
    history, converged = [], False
    for it in range(max_iter):
        psi = psi_g[groups]
        post = posterior(E, W, psi, observed)
        history.append(float(post.log_likelihood.sum() / n))
        if it and history[-1] - history[-2] < tol:
            converged = True
            break
        W, shift, resid, cnt = _m_step(E, post, observed)
        psi_g = np.maximum(
            np.bincount(groups, resid, n_groups) / np.bincount(groups, cnt, n_groups),
            floor,
        )
        if observed is not None:
            mu = mu + shift
            E = np.where(observed, X - mu, 0.0)
    else:
        psi = psi_g[groups]
        post = posterior(E, W, psi, observed)
        history.append(float(post.log_likelihood.sum() / n))
        warnings.warn(
            f"EM stopped at max_iter={max_iter} iterations before the log-likelihood "
            f"rose by less than tol={tol:g} per sample; raise max_iter or tol.",
            ConvergenceWarning,
            stacklevel=3,
        )
    return EMFit(canonical_rotation(W), mu, psi, history, len(history) - 1, converged)


def canonical_rotation(W) -> np.ndarray:
    """W R with orthogonal columns of decreasing norm, the largest-|·| entry of each positive.

    The likelihood depends on W only through WWᵀ (lecture 002: W = U_r(Λ_r − σ²I)^{1/2}R for any
    orthogonal R), so EM may converge to any rotation. The SVD W = A S Bᵀ gives R = B, WR = AS,
    which for the maximum-likelihood W is the closed form's U_r(Λ_r − σ²I)^{1/2}.
    """
    A, s, _ = linalg.svd(W, full_matrices=False, check_finite=False)
    return flip_signs((A * s).T).T.copy()
