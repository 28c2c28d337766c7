"""Sparse Bayesian learning: the posterior and the evidence (lecture 001); their re-estimation
is in ``_reestimate``.

The model of lecture 001 / Bishop §7.2: targets t = Φw + noise, with noise precision β and one
prior precision αᵢ per weight, p(w | α) = Πᵢ N(wᵢ | 0, αᵢ⁻¹). Everything here works on a design
matrix Φ of shape (N, M), so the RVM regressor, the fast sequential algorithm and the RVM
classifier (whose Laplace step yields a Gaussian with per-sample precisions) share it. ``beta`` is
a scalar noise precision or an array of N per-sample precisions (a diagonal B instead of βI).

An αᵢ of ``np.inf`` means "basis function i is not in the model" (its weight is fixed at 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import cholesky, lapack, qr, solve_triangular

from ..special import LOG_2PI
from ..utils.validation import check_array

# A weight whose prior precision exceeds PRUNE_ALPHA is pruned (α → ∞). The loops (fit_em,
# fit_sequential) apply it to unit-norm basis functions and unit-RMS targets, where a pruned
# weight has prior standard deviation < 1e-6 and so moves no prediction by more than about 1e-6
# of the targets' RMS: far below any noise level we can estimate. `reestimate` applies it as is.
PRUNE_ALPHA = 1e12
# The posterior comes from the Cholesky factor of the unit-diagonal-scaled precision A + ΦᵀBΦ when
# LAPACK's estimate of its reciprocal condition number is at least RCOND_MIN: Σ and m then keep
# about 10 of their 16 digits (relative error ≈ ε/rcond ≈ 2e-10, far below every tolerance of the
# loops, down to 1e-8 on ln α). Otherwise (nearly collinear basis functions with large weights,
# such as the linear-spline kernel far from 0) forming ΦᵀBΦ would square the condition number of
# the design, and the square-root form is used: a QR factorisation, which loses only its root.
RCOND_MIN = 1e-6

__all__ = [
    "PRUNE_ALPHA",
    "RCOND_MIN",
    "Posterior",
    "posterior",
    "log_evidence",
    "log_evidence_direct",
]


@dataclass
class Posterior:
    """N(w | m, Σ) over the weights of the basis functions in the model.

    Attributes
    ----------
    mean : ndarray of shape (M,)
        m = Σ Φᵀ B t (= βΣΦᵀt for scalar β), lecture 001 / Bishop (7.82).
    W : ndarray of shape (M, M)
        A factor of the covariance, Σ = WᵀW (W = L⁻¹D⁻¹ from the scaled Cholesky factor).
    logdet_precision : float
        ln|Σ⁻¹| = ln|A + ΦᵀBΦ|.
    """

    mean: np.ndarray
    W: np.ndarray
    logdet_precision: float

    @property
    def cov(self) -> np.ndarray:
        """Σ = (A + βΦᵀΦ)⁻¹, lecture 001 / Bishop (7.83), shape (M, M)."""
        return self.W.T @ self.W

    @property
    def var(self) -> np.ndarray:
        """diag(Σ), shape (M,)."""
        return np.einsum("ij,ij->j", self.W, self.W)


def _posterior_from_gram(gram, proj, alpha):
    """Posterior from G = ΦᵀBΦ (M, M) and p = ΦᵀBt (M,) for finite precisions α (M,), or
    ``None`` if the precision is too ill-conditioned for it.

    Cholesky of the unit-diagonal-scaled precision D⁻¹(A + G)D⁻¹ = LLᵀ, W = L⁻¹D⁻¹ (Σ = WᵀW);
    ``None`` when that is not positive definite in floating point or its reciprocal condition
    number is below ``RCOND_MIN`` (then use :func:`_root` and :func:`_posterior_from_root`).
    """
    M = len(alpha)
    if M == 0:
        return Posterior(np.zeros(0), np.zeros((0, 0)), 0.0)
    H = np.array(gram, dtype=float)  # A + G, formed in one scratch copy
    H.flat[:: M + 1] += alpha
    d = np.sqrt(np.diag(H))
    H /= d[:, None]
    H /= d[None, :]
    norm1 = np.abs(H).sum(axis=0).max()
    L, info = lapack.dpotrf(H, lower=1, clean=1, overwrite_a=1)
    if info != 0 or lapack.dpocon(L, norm1, uplo=b"L")[0] < RCOND_MIN:
        return None
    logdet = 2.0 * (np.log(np.diag(L)).sum() + np.log(d).sum())
    Linv, _ = lapack.dtrtri(L, lower=1, overwrite_c=1)  # L⁻¹ (unblocked for small M)
    Linv /= d[None, :]  # W = L⁻¹D⁻¹
    return Posterior(Linv.T @ (Linv @ proj), Linv, logdet)


def _root(cols, t):
    """A square root of the data term without forming colsᵀcols: QR of [cols, t] (N, M + 1).

    Returns R (r, M), upper trapezoidal, and z (r,) with RᵀR = colsᵀcols and Rᵀz = colsᵀt,
    r = min(N, M), and ‖t⊥‖², the squared norm of the part of t outside the span of `cols`.
    """
    N, M = cols.shape
    R = qr(np.column_stack([cols, t]), mode="r", check_finite=False)[0]
    r = min(N, M)
    return R[:r, :M], R[:r, M], float(R[r, M] ** 2) if r < N else 0.0


def _posterior_from_root(root, z, alpha):
    """Posterior from a square root of the data term: rootᵀroot = ΦᵀBΦ, rootᵀz = ΦᵀBt.

    `root` (r, M), r ≤ M, must be upper trapezoidal (as the R of :func:`_root`). With
    G = root·A^{-½}, the QR factorisation [I; G] = VU (LAPACK ``tpqrt``, which uses the
    triangular structure) gives UᵀU = I + GᵀG = A^{-½}(A + ΦᵀBΦ)A^{-½}. So Σ = WᵀW with
    W = U⁻ᵀA^{-½}, m = Σ rootᵀz and ln|Σ⁻¹| = ln|A| + 2 Σₖ ln|U_kk|. The condition number of U
    is the square root of that of the precision, which is never formed.
    """
    M = len(alpha)
    if M == 0:
        return Posterior(np.zeros(0), np.zeros((0, 0)), 0.0)
    scale = 1.0 / np.sqrt(alpha)
    G = np.asfortranarray(root * scale)
    U = lapack.dtpqrt(
        G.shape[0], min(M, 32), np.eye(M), G, overwrite_a=1, overwrite_b=1
    )[0]
    logdet = np.log(alpha).sum() + 2.0 * np.log(np.abs(np.diag(U))).sum()
    Uinv, _ = lapack.dtrtri(U, lower=0, overwrite_c=1)
    W = Uinv.T * scale[None, :]  # W = U⁻ᵀA^{-½}
    return Posterior(W.T @ (W @ (root.T @ z)), W, logdet)


def _covariance_root(root, z, alpha):
    """The covariance C in the span of the model, from the same square root as above.

    With B^½Φ = QR (Q orthonormal) and G = R·A^{-½} (`root` = R, r × M), B^{-½}CB^{-½} =
    I + QGGᵀQᵀ, and a QR factorisation [I; Gᵀ] = VT gives TᵀT = I + GGᵀ (r, r). So
    ln|C| = −Σₙ ln βₙ + 2 Σₖ ln|T_kk| and tᵀC⁻¹t = ‖t⊥‖² + ‖y‖² with y = T⁻ᵀz (`z` = QᵀB^½t),
    and for any φ with QᵀB^½φ = c and part p outside the span, φᵀC⁻¹φ = ‖p‖² + ‖T⁻ᵀc‖²: sums
    of non-negative terms, with none of the cancellation of φᵀBφ − ‖WΦᵀBφ‖².

    Returns
    -------
    T : ndarray of shape (r, r), upper triangular
    y : ndarray of shape (r,)
    G : ndarray of shape (r, M)
    """
    r = root.shape[0]
    G = root / np.sqrt(alpha)
    if not r:
        return np.zeros((0, 0)), np.zeros(0), G
    T = np.triu(
        lapack.dgeqrf(np.vstack([np.eye(r), G.T]))[0][:r]
    )  # (scipy's qr: 10x the cost)
    return T, _tri_solve(T, z, trans=1), G


def _tri_solve(T, b, trans=0):
    """T⁻¹b, or T⁻ᵀb if `trans`, for T upper triangular (r, r), b of shape (r,) or (r, k).

    LAPACK ``trtrs`` directly: scipy's ``solve_triangular`` costs about a millisecond a call here,
    a thousand times the work on the loops' small matrices.
    """
    if not T.shape[0]:
        return np.zeros(b.shape)
    return lapack.dtrtrs(T, b, lower=0, trans=trans)[0]


def _check_alpha(alpha, name="alpha"):
    """Prior precisions: positive, ``inf`` allowed (basis function out), NaN not."""
    if np.isnan(alpha).any() or np.any(alpha <= 0):
        raise ValueError(
            f"{name} must be positive (inf leaves a basis function out); "
            f"got NaN or a value <= 0."
        )
    return alpha


def _split(Phi, t, alpha, beta):
    """Validate the arguments of the public functions (not called inside the loops)."""
    Phi = check_array(Phi, "Phi", min_features=0)
    t = check_array(t, "t", ndim=1)
    alpha = np.asarray(alpha, float)
    beta = np.asarray(beta, float)
    if t.shape != (Phi.shape[0],) or alpha.shape != (Phi.shape[1],):
        raise ValueError(
            f"Phi must be (N, M), t (N,) and alpha (M,); got {Phi.shape}, "
            f"{t.shape} and {alpha.shape}."
        )
    if beta.ndim not in (0, 1) or (beta.ndim == 1 and beta.shape != t.shape):
        raise ValueError(
            f"beta must be a scalar or have shape {t.shape}; got {beta.shape}."
        )
    _check_alpha(alpha)
    if not np.all((beta > 0) & (beta < np.inf)):  # also catches NaN
        raise ValueError(
            "beta must be positive and finite; got NaN, inf or a value <= 0."
        )
    active = np.isfinite(alpha)
    return Phi, t, alpha, beta, active


def posterior(Phi, t, alpha, beta) -> Posterior:
    """Posterior over the weights of the basis functions with finite αᵢ.

    Σ = (A + βΦᵀΦ)⁻¹ and m = βΣΦᵀt (lecture 001 / Bishop 7.82–7.83), from the Cholesky factor L
    of the diagonally scaled precision D⁻¹(A + βΦᵀΦ)D⁻¹ = LLᵀ: the triangular factor is inverted
    (W = L⁻¹D⁻¹, so Σ = WᵀW and m = Wᵀ(WΦᵀBt)), since every loop needs diag Σ; the precision
    matrix itself never goes through a general inverse. When that precision is too ill-conditioned
    for Cholesky (reciprocal condition number below ``RCOND_MIN``), the same Σ = WᵀW and m come
    from a QR factorisation of B^½Φ instead, which never forms ΦᵀBΦ (:func:`_posterior_from_root`).

    Parameters
    ----------
    Phi : array_like of shape (N, M)
        Design matrix, Φ_ni = φᵢ(xₙ).
    t : array_like of shape (N,)
    alpha : array_like of shape (M,)
        Prior precisions; ``np.inf`` excludes a basis function.
    beta : float or array_like of shape (N,)
        Noise precision β, or per-sample precisions (the diagonal of B).

    Returns
    -------
    Posterior
        Over the M' ≤ M weights with finite αᵢ, in their original order.
    """
    return _posterior(*_split(Phi, t, alpha, beta))


def _posterior(Phi, t, alpha, beta, active):
    """:func:`posterior` on arguments already checked by :func:`_split`."""
    root_b = np.sqrt(beta)
    P = Phi[:, active] * (root_b[:, None] if beta.ndim else root_b)  # B^½Φ
    tb = root_b * t
    a = alpha[active]
    post = _posterior_from_gram(P.T @ P, P.T @ tb, a)
    return _posterior_from_root(*_root(P, tb)[:2], a) if post is None else post


def _residual(Phi, t, post, active):
    """r = t − Φm."""
    return t - Phi[:, active] @ post.mean


def _log_evidence(n, sum_log_beta, alpha_act, post, data_fit):
    """ln p(t | α, β) = −½{N ln 2π + ln|C| + tᵀC⁻¹t} from its decomposed pieces (Bishop 7.85).

    ln|C| = −Σₙ ln βₙ − ln|A| + ln|Σ⁻¹| and tᵀC⁻¹t = `data_fit` + mᵀAm, where `data_fit` is
    (t − Φm)ᵀB(t − Φm) and `alpha_act` holds the finite αᵢ of the basis functions in `post`.
    """
    logdet_C = -sum_log_beta - np.log(alpha_act).sum() + post.logdet_precision
    fit = data_fit + alpha_act @ post.mean**2
    return -0.5 * (n * LOG_2PI + logdet_C + fit)


def log_evidence(Phi, t, alpha, beta, post: Posterior | None = None) -> float:
    """ln p(t | α, β) in the lecture's decomposed form.

    ln|C| = −N ln β − ln|A| + ln|Σ⁻¹| and tᵀC⁻¹t = β‖t − Φm‖² + mᵀAm (lecture 001; Bishop 7.85),
    so ln p = −½{N ln 2π + ln|C| + tᵀC⁻¹t} costs O(NM² + M³) instead of O(N³).
    """
    Phi, t, alpha, beta, active = _split(Phi, t, alpha, beta)
    post = _posterior(Phi, t, alpha, beta, active) if post is None else post
    r = _residual(Phi, t, post, active)
    return _log_evidence(
        len(t),
        np.sum(np.broadcast_to(np.log(beta), t.shape)),
        alpha[active],
        post,
        float(np.sum(beta * r**2)),
    )


def log_evidence_direct(Phi, t, alpha, beta) -> float:
    """ln N(t | 0, C) with C = β⁻¹I + ΦA⁻¹Φᵀ built explicitly (O(N³); for checks)."""
    Phi, t, alpha, beta, active = _split(Phi, t, alpha, beta)
    P = Phi[:, active]
    C = np.diag(np.broadcast_to(1.0 / beta, t.shape)) + (P / alpha[active]) @ P.T
    L = cholesky(C, lower=True)
    z = solve_triangular(L, t, lower=True)
    return -0.5 * (len(t) * LOG_2PI + 2 * np.log(np.diag(L)).sum() + z @ z)
