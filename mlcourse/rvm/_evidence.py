"""Sparse Bayesian learning for regression (lecture 001; Bishop §7.2): the posterior over the
weights, the evidence, and its maximisation one hyperparameter at a time.

The model: targets t = Φw + noise, with noise precision β and one prior precision αᵢ per weight,
p(w | α) = Πᵢ N(wᵢ | 0, αᵢ⁻¹). Everything works on a design matrix Φ of shape (N, M), so the RVM
regressor, both of its loops and the RVM classifier (whose Laplace step yields a Gaussian with
per-sample precisions) share it. ``beta`` is a scalar noise precision or an array of N
per-sample precisions (a diagonal B instead of βI). An αᵢ of ``np.inf`` means "basis function i
is not in the model" (its weight is fixed at 0).

Read top to bottom:

1. the posterior N(w | m, Σ) (:func:`posterior`), from a Cholesky factor of the precision or, when
   that is too ill-conditioned, from a QR factorisation of the design (the square-root form);
2. the evidence ln p(t | α, β) (:func:`log_evidence`, and :func:`log_evidence_direct` for checks);
3. its re-estimation (:func:`evidence_gradient`, :func:`reestimate`: αᵢ ← γᵢ/mᵢ²);
4. the evidence as a function of one αᵢ (:func:`sparsity_quality`, :func:`alpha_marginal`,
   :func:`optimal_alpha`: Tipping & Faul's fast algorithm);
5. :class:`_ScaledEvidence`, the loops' view: the problem on unit-norm columns and unit-RMS
   targets, its posterior and evidence at the current (α, β), and the result in the original
   scale (:class:`SBLFit`);
6. what the sequential loops change one αᵢ at a time: the model's span as a QR factorisation
   (:class:`_Span`), the best change (:func:`_changes`, :func:`_best`), and the state of the
   regression loop (:class:`_SequentialFit`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import blas, cholesky, lapack, qr, solve_triangular

from ..special import LOG_2PI
from ..utils.validation import check_array

# A weight whose prior precision exceeds PRUNE_ALPHA is pruned (α → ∞). The loops apply it to
# unit-norm basis functions and unit-RMS targets, where a pruned weight has prior standard
# deviation < 1e-6 and so moves no prediction by more than about 1e-6 of the targets' RMS: far
# below any noise level we can estimate. `reestimate` applies it as is.
PRUNE_ALPHA = 1e12
# The estimated noise precision is capped, β ≤ 1/(NOISE_FLOOR · var t), so that β stays finite
# even for a perfect fit; Tipping's SparseBayes caps it the same way (BetaMaxFactor = 1e6).
NOISE_FLOOR = 1e-6
# The posterior comes from the Cholesky factor of the scaled precision when LAPACK's estimate of
# its reciprocal condition number is at least this: Σ and m then keep about 10 of their 16 digits,
# far below every tolerance of the loops; otherwise from the square-root (QR) form.
_RCOND_MIN = 1e-6

__all__ = [
    "PRUNE_ALPHA",
    "NOISE_FLOOR",
    "Posterior",
    "EvidenceFit",
    "SBLFit",
    "posterior",
    "log_evidence",
    "log_evidence_direct",
    "evidence_gradient",
    "reestimate",
    "sparsity_quality",
    "alpha_marginal",
    "optimal_alpha",
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


@dataclass
class EvidenceFit:
    """What every evidence maximisation of the package returns (regression and classification).

    Attributes
    ----------
    alpha : ndarray
        Prior precisions, ``inf`` for pruned basis functions or weights.
    active : ndarray of int
        The weights in the model (finite α), increasing: column indices of Φ (regression), or
        indices into ``alpha.ravel()`` (classification, where the softmax has K rows of α).
    mean : ndarray of shape (len(active),)
        Their posterior mean m (regression) or mode w* (classification, Laplace).
    W : ndarray of shape (len(active), len(active))
        A factor of their (Laplace) posterior covariance, Σ = WᵀW.
    log_evidence : float
        ln p(t | α, β) at the returned hyperparameters (classification: its Laplace estimate).
    n_iter : int
    converged : bool
    history : list of float
        The log evidence at the start of each iteration, then at the end.
    actions : list of str
        The sequential loops only: the change made in each iteration, ``"add"``,
        ``"re-estimate"`` or ``"delete"`` (regression also ``"lower noise"``, where the held β
        was lowered: see :func:`fit_sequential`).
    """

    alpha: np.ndarray
    active: np.ndarray
    mean: np.ndarray
    W: np.ndarray
    log_evidence: float
    n_iter: int
    converged: bool
    history: list = field(default_factory=list)
    actions: list = field(default_factory=list)

    @property
    def cov(self) -> np.ndarray:
        """Σ = WᵀW, shape (len(active), len(active))."""
        return self.W.T @ self.W


@dataclass
class SBLFit(EvidenceFit):
    """Result of an evidence maximisation for regression over a design matrix with K columns:
    :class:`EvidenceFit` (α of shape (K,), ``active`` the columns in the model) and the noise.

    Attributes
    ----------
    beta : float
        Noise precision.
    """

    beta: float = field(kw_only=True)


# --- 1. the posterior -------------------------------------------------------------------------


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
    for Cholesky (reciprocal condition number below 1e-6), the same Σ = WᵀW and m come
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

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.rvm import posterior
    >>> Phi = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> t = np.array([0.1, 1.0, 2.1])
    >>> post = posterior(Phi, t, alpha=[1e-6, np.inf], beta=100.0)  # w₁ left out
    >>> post.mean.round(3).tolist(), post.cov.round(4).tolist()
    ([1.067], [[0.0033]])
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


def _posterior_from_gram(gram, proj, alpha):
    """Posterior from G = ΦᵀBΦ (M, M) and p = ΦᵀBt (M,) for finite precisions α (M,), or
    ``None`` if the precision is too ill-conditioned for it.

    Cholesky of the unit-diagonal-scaled precision D⁻¹(A + G)D⁻¹ = LLᵀ, W = L⁻¹D⁻¹ (Σ = WᵀW);
    ``None`` when that is not positive definite in floating point or its reciprocal condition
    number is below ``_RCOND_MIN`` (then use :func:`_root` and :func:`_posterior_from_root`).
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
    if info != 0 or lapack.dpocon(L, norm1, uplo=b"L")[0] < _RCOND_MIN:
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
    r, M = root.shape
    G = root / np.sqrt(alpha)
    if not r:
        return np.zeros((0, 0)), np.zeros(0), G
    X = np.zeros((r + M, r), order="F")  # [I; Gᵀ], in LAPACK's layout
    np.fill_diagonal(X, 1.0)
    X[r:] = G.T
    # (scipy's qr: 10x the cost); triu drops LAPACK's reflectors below the diagonal
    T = np.triu(lapack.dgeqrf(X, overwrite_a=1)[0][:r])
    return T, _tri_solve(T, z, trans=1), G


def _tri_solve(T, b, trans=0):
    """T⁻¹b, or T⁻ᵀb if `trans`, for T upper triangular (r, r), b of shape (r,) or (r, k).

    LAPACK ``trtrs`` directly: scipy's ``solve_triangular`` costs about a millisecond a call here,
    a thousand times the work on the loops' small matrices.
    """
    if not T.shape[0]:
        return np.zeros(b.shape)
    return lapack.dtrtrs(T, b, lower=0, trans=trans)[0]


# --- 2. the evidence ---------------------------------------------------------------------------


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


def log_evidence_direct(Phi, t, alpha, beta) -> float:
    """ln N(t | 0, C) with C = β⁻¹I + ΦA⁻¹Φᵀ built explicitly (O(N³); for checks)."""
    Phi, t, alpha, beta, active = _split(Phi, t, alpha, beta)
    P = Phi[:, active]
    C = np.diag(np.broadcast_to(1.0 / beta, t.shape)) + (P / alpha[active]) @ P.T
    L = cholesky(C, lower=True)
    z = solve_triangular(L, t, lower=True)
    return -0.5 * (len(t) * LOG_2PI + 2 * np.log(np.diag(L)).sum() + z @ z)


# --- 3. re-estimation ------------------------------------------------------------------------


def evidence_gradient(Phi, t, alpha, beta):
    """Derivatives of ln p(t | α, β) (lecture 001), for the αᵢ in the model and scalar β.

    ∂/∂αᵢ = 1/(2αᵢ) − Σᵢᵢ/2 − mᵢ²/2 and ∂/∂β = ½{N/β − ‖t − Φm‖² − Σᵢ γᵢ/β}.

    Returns
    -------
    d_alpha : ndarray of shape (M,)
        0 where αᵢ = inf.
    d_beta : float
    """
    Phi, t, alpha, beta, active = _split(Phi, t, alpha, beta)
    if beta.ndim:
        raise ValueError("evidence_gradient needs a scalar beta.")
    post = _posterior(Phi, t, alpha, beta, active)
    r = _residual(Phi, t, post, active)
    a, var = alpha[active], post.var
    d_alpha = np.zeros(len(alpha))
    d_alpha[active] = 0.5 * (1 / a - var - post.mean**2)
    gamma = 1 - a * var
    return d_alpha, 0.5 * (len(t) / beta - r @ r - gamma.sum() / beta)


def reestimate(Phi, t, alpha, beta, post: Posterior | None = None):
    """One pass of the lecture's re-estimation: αᵢ ← γᵢ/mᵢ², β⁻¹ ← ‖t − Φm‖²/(N − Σᵢ γᵢ).

    Lecture 001 / Bishop (7.87)–(7.88), with γᵢ = 1 − αᵢΣᵢᵢ (7.89). αᵢ that exceed
    ``PRUNE_ALPHA`` or whose γᵢ or mᵢ vanish become ``inf`` (pruned); β is capped at
    1/(``NOISE_FLOOR`` · var t) (1/``NOISE_FLOOR`` if t = 0).

    Returns
    -------
    alpha_new : ndarray of shape (M,)
    beta_new : float
    gamma : ndarray of shape (M,)
        γᵢ = 1 − αᵢΣᵢᵢ as computed, not clipped (in [0, 1) up to rounding); 0 for basis
        functions not in the model.
    """
    Phi, t, alpha, beta, active = _split(Phi, t, alpha, beta)
    post = _posterior(Phi, t, alpha, beta, active) if post is None else post
    alpha_new, gamma = np.full(len(alpha), np.inf), np.zeros(len(alpha))
    alpha_new[active], gamma[active] = _mackay(alpha[active], post)
    r = _residual(Phi, t, post, active)
    return alpha_new, _beta_update(float(r @ r), len(t), gamma, _noise_floor(t)), gamma


def _mackay(alpha_act, post):
    """α ← γ/m² with γ = 1 − αΣᵢᵢ; γ ≤ 0 or m = 0 gives α = inf (pruned, no division by 0).

    Returns the new α and γ as computed (not clipped: 0 ≤ γ < 1 holds up to rounding).
    """
    gamma = 1.0 - alpha_act * post.var
    m2 = post.mean**2
    new = np.full(len(alpha_act), np.inf)
    ok = (gamma > 0) & (m2 > 0)
    new[ok] = gamma[ok] / m2[ok]
    new[new > PRUNE_ALPHA] = np.inf
    return new, gamma


def _beta_update(rss, n, gamma, floor):
    """β⁻¹ ← ‖r‖²/(N − Σγ), lecture 001 / Bishop (7.88), with β⁻¹ ≥ `floor` (also when r = 0).

    `rss` = ‖t − Φm‖² of `n` targets; `gamma` the γᵢ of the basis functions (0 for those not in
    the model).
    """
    dof = max(n - gamma.sum(), np.finfo(float).eps * n)  # N − Σγ > 0
    return dof / rss if rss > dof * floor else 1.0 / floor


def _noise_floor(t):
    """NOISE_FLOOR · var(t) (mean(t²) if t is constant, 1 if t is all zero): the least β⁻¹."""
    spread = _spread(t)
    return NOISE_FLOOR * (max(spread, np.finfo(float).tiny) if spread > 0 else 1.0)


def _spread(t):
    """var(t), or mean(t²) when t is constant: the scale of the noise floor."""
    return float(np.var(t)) or float(np.mean(t**2))


# --- 4. the evidence as a function of one αᵢ ---------------------------------------------------


def sparsity_quality(Phi, t, alpha, beta):
    """Sparsity and quality factors of every basis function.

    Tipping & Faul (2003); Bishop (7.98)–(7.103).

    Sᵢ = φᵢᵀC⁻¹φᵢ and Qᵢ = φᵢᵀC⁻¹t with C the covariance of the current model; sᵢ and qᵢ are
    the same with φᵢ left out of C: sᵢ = αᵢSᵢ/(αᵢ − Sᵢ), qᵢ = αᵢQᵢ/(αᵢ − Sᵢ) (sᵢ = Sᵢ, qᵢ = Qᵢ
    when αᵢ = inf). C is never formed: see :func:`_factors`.

    Returns
    -------
    s, q, S, Q : ndarrays of shape (M,)
    """
    Phi, t, alpha, beta, active = _split(Phi, t, alpha, beta)
    post = _posterior(Phi, t, alpha, beta, active)
    rb = np.sqrt(beta)
    Pb = np.column_stack([Phi, t]) * (rb[:, None] if beta.ndim else rb)  # B^½[Φ, t]
    act = np.flatnonzero(active)
    Q, R = qr(Pb[:, act], mode="economic", check_finite=False)
    C = Q.T @ Pb
    P = Pb - Q @ C
    T, y, _ = _covariance_root(R, C[:, -1], alpha[act])
    return _factors(
        np.einsum("ij,ij->j", P[:, :-1], P[:, :-1]),
        P[:, :-1].T @ P[:, -1],
        C[:, :-1],
        T,
        y,
        alpha,
        act,
        post,
    )


def _factors(pn, pt, C, T, y, alpha, act, post):
    """s, q, S, Q of every basis function, in the square-root form of :func:`_covariance_root`.

    Sᵢ = ‖pᵢ‖² + ‖T⁻ᵀcᵢ‖² and Qᵢ = pᵢᵀt + (T⁻ᵀcᵢ)ᵀy (B = βI absorbed: pᵢ, cᵢ are the parts of
    √βφᵢ outside and inside the span of the model). Both parts of Sᵢ are non-negative, so it
    keeps its digits when φᵢ is nearly in the span of well-determined basis functions (the
    linear-spline kernel far from 0), where φᵢᵀBφᵢ − ‖WΦᵀBφᵢ‖² loses all of them.

    Parameters
    ----------
    pn, pt : ndarrays of shape (K,)
        ‖pᵢ‖² and pᵢᵀt.
    C : ndarray of shape (r, K)
        cᵢ, the coordinates of each √βφᵢ in an orthonormal basis of the span.
    T, y : ndarrays of shape (r, r) and (r,)
        From :func:`_covariance_root`.
    """
    S, Q = pn.copy(), pt.copy()
    if len(y):
        Y = _tri_solve(T, C, trans=1)
        S += np.einsum("ij,ij->j", Y, Y)
        Q += Y.T @ y
    s, q = S.copy(), Q.copy()
    s[act], q[act] = _leave_one_out(alpha[act], S[act], Q[act], post)
    return s, q, S, Q


def _leave_one_out(a, S, Q, post):
    """sᵢ, qᵢ of basis functions in the model, by whichever formula is well conditioned.

    sᵢ = αᵢSᵢ/(αᵢ − Sᵢ) loses every digit when αᵢ ≪ sᵢ (a well-determined weight: Sᵢ ≈ αᵢ);
    there sᵢ = 1/Σᵢᵢ − αᵢ and qᵢ = mᵢ/Σᵢᵢ (from Σᵢᵢ⁻¹ = αᵢ + sᵢ, Tipping & Faul 2003) are exact.
    Switch at γᵢ = 1 − αᵢΣᵢᵢ = sᵢ/(αᵢ + sᵢ) = ½.
    """
    var = post.var
    well = a * var < 0.5
    denom = a - S
    with np.errstate(divide="ignore", invalid="ignore"):  # in the formula not taken
        s = np.where(well, 1.0 / var - a, a * S / denom)
        q = np.where(well, post.mean / var, a * Q / denom)
    return np.maximum(s, 0.0), q  # s = φᵀC₋ᵢ⁻¹φ ≥ 0 (clip rounding)


def alpha_marginal(alpha, s, q):
    """ℓ(αᵢ) = ½[ln αᵢ − ln(αᵢ + sᵢ) + qᵢ²/(αᵢ + sᵢ)], the part of ln p(t) that depends on αᵢ.

    Bishop (7.97); ℓ(∞) = 0 (basis function left out). Broadcasts.
    """
    s, q = _check_sq(s, q)
    return _alpha_marginal(_check_alpha(np.asarray(alpha, float)), s, q)


def _alpha_marginal(alpha, s, q):
    with np.errstate(invalid="ignore", over="ignore"):  # q² = ∞ at αᵢ = ∞: not taken
        out = np.where(
            alpha < np.inf, 0.5 * (-np.log1p(s / alpha) + q**2 / (alpha + s)), 0.0
        )
    return out[()] if out.ndim == 0 else out


def optimal_alpha(s, q):
    """The maximiser of ℓ(αᵢ): sᵢ²/(qᵢ² − sᵢ) if qᵢ² > sᵢ, else ∞ (Bishop 7.101)."""
    return _optimal_alpha(*_check_sq(s, q))


def _optimal_alpha(s, q):
    theta = q**2 - s
    with np.errstate(divide="ignore", invalid="ignore"):  # where θ ≤ 0, not taken
        out = np.where(theta > 0, s**2 / theta, np.inf)
    return out[()] if out.ndim == 0 else out


def _check_sq(s, q):
    s, q = np.asarray(s, float), np.asarray(q, float)
    if not np.all(np.isfinite(s) & (s >= 0)):
        raise ValueError(
            "s must be finite and >= 0 (s = φᵀC₋ᵢ⁻¹φ); got NaN, inf or a negative value."
        )
    if not np.all(np.isfinite(q)):
        raise ValueError("q must be finite; got NaN or inf.")
    return s, q


# --- 5. the loops' view: the scaled problem -----------------------------------------------------

# The RMS c of the targets must have c² and 1/c² in floating point: the loops rescale β, α and
# the weights by c² and back.
_RMS_MAX = float(np.sqrt(np.finfo(float).max))


class _ScaledEvidence:
    """The evidence of a regression problem on unit-norm columns and unit-RMS targets.

    Both loops work on φ̃ᵢ = φᵢ/‖φᵢ‖ and t̃ = t/c (c the RMS of t), hence w̃ᵢ = wᵢ‖φᵢ‖/c,
    α̃ᵢ = αᵢc²/‖φᵢ‖², β̃ = βc². The fit and the predictions are unchanged
    (ln p(t) = ln p(t̃) − N ln c), and ``PRUNE_ALPHA``, the noise floor and the initial α mean the
    same whatever the scale of the kernel and of the targets. :meth:`update` gives the posterior,
    residual and log evidence at the current (α, β); :meth:`result` the fit in the original
    scale.

    Raises ValueError if the RMS of `t` is outside (1/_RMS_MAX, _RMS_MAX), about (1e-154, 1e154).
    """

    def __init__(self, Phi, t):
        norms = np.sqrt(np.einsum("ij,ij->j", Phi, Phi))
        self.scale = np.where(norms > 0, norms, 1.0)
        top = float(np.max(np.abs(t), initial=0.0))
        c = (
            top * float(np.sqrt(np.mean((t / top) ** 2))) if top > 0 else 1.0
        )  # no underflow
        if not 1.0 / _RMS_MAX < c < _RMS_MAX:
            raise ValueError(
                f"t is too large or too small for its square to be held in floating point "
                f"(RMS of t = {c:.3g}); rescale t."
            )
        self.c = c
        self.B, self.t = Phi / self.scale, t / c
        self.Bt = self.B.T @ self.t
        self.n = len(t)
        self.floor = _noise_floor(self.t)
        self._post = None

    def initial_alpha(self, alpha0):
        """α on the unit-norm columns from an array `alpha0` in the units of Φ and t."""
        a = np.asarray(alpha0, float)
        if a.shape != self.scale.shape:
            raise ValueError(
                f"alpha0 must be a scalar or have shape {self.scale.shape}; got {a.shape}."
            )
        return _check_alpha(a, "alpha0") * self.c**2 / self.scale**2  # α̃ = αc²/‖φ‖²

    def update(self, act, alpha, beta, gram=None, root=None):
        """The posterior of the basis functions `act` (in that order) at α, β.

        From their Gram matrix `gram` = B_actᵀB_act by Cholesky (the weight-space form of
        lecture 001) when that keeps enough digits (:func:`_posterior_from_gram`), else from a
        square root `root` = (R, z, ‖t⊥‖²) with B_act = QR, z = Qᵀt (the fast loop's span, or
        :func:`_root`): then ln p, ‖t − Φm‖² and γᵢ come from the covariance in the span
        (:func:`_covariance_root`), as sums of non-negative terms.
        """
        a = alpha[act]
        if root is None:
            self.post = _posterior_from_gram(beta * gram, beta * self.Bt[act], a)
            if self._post is not None:
                r = self.t - self.B[:, act] @ self.post.mean
                self.rss = float(r @ r)
                self.gamma = 1.0 - a * self.post.var
                self.log_ev = _log_evidence(
                    self.n, self.n * np.log(beta), a, self.post, beta * self.rss
                )
                return self
            root = _root(self.B[:, act], self.t)
        R, z, t_out = root
        sb = np.sqrt(beta)
        R, z = sb * R, sb * z
        self._root, self._post = (R, z, a), None  # the posterior only when asked for
        self.T, self.y, G = _covariance_root(R, z, a)
        TG = _tri_solve(self.T, G, trans=1)
        self.gamma = np.einsum("ij,ij->j", TG, TG)  # γ = diag(GᵀT⁻¹T⁻ᵀG)
        fit_in = _tri_solve(self.T, self.y)  # √β(Qᵀt − Rm)
        self.rss = t_out + float(fit_in @ fit_in) / beta
        self.log_ev = -0.5 * (
            self.n * LOG_2PI
            - self.n * np.log(beta)
            + 2.0 * np.log(np.abs(np.diag(self.T))).sum()
            + beta * t_out
            + float(self.y @ self.y)
        )
        return self

    @property
    def post(self) -> Posterior:
        """N(w | m, Σ) at the last :meth:`update`; from the square root only when first asked
        for (the loops' evidence, residual and γ do not need it)."""
        if self._post is None:
            self._post = _posterior_from_root(*self._root)
        return self._post

    @post.setter
    def post(self, value):
        self._post = value

    def beta_update(self):
        """β⁻¹ ← ‖t − Φm‖²/(N − Σγ), at most β = 1/(NOISE_FLOOR · var t)."""
        return _beta_update(self.rss, self.n, self.gamma, self.floor)

    def result(self, alpha, beta, act, n_iter, converged, history, actions=()):
        """The fit in the original scale of Φ and t, basis functions in increasing order."""
        post: Posterior = self.post
        history.append(self.log_ev)
        shift = self.n * np.log(self.c)
        o = np.argsort(act)
        act = np.asarray(act)[o]
        scale, c = self.scale[act], self.c
        return SBLFit(
            alpha * self.scale**2 / c**2,
            act,
            post.mean[o] * c / scale,
            post.W[:, o] * c / scale[None, :],
            float(self.log_ev - shift),
            n_iter,
            bool(converged),
            [h - shift for h in history],
            list(actions),
            beta=float(beta / c**2),
        )


# --- 6. the sequential loops: the model's span, and one change at a time ------------------------

# A candidate whose part outside the span of the model has norm at most _SPAN_TOL (columns have
# unit norm) is, to rounding, a combination of the basis functions already in: it enters without
# a direction of its own. The parts outside the span are kept to about ε per update; 1e-10 is well
# above that, and below the 3e-8 of adjacent linear-spline columns on [100, 120], the most nearly
# collinear basis functions the book fits.
_SPAN_TOL = 1e-10
# ‖pᵢ‖² and pᵢᵀt are downdated when a direction joins the span (‖pᵢ‖² − rowᵢ², O(K) instead of
# O(NK)), as LAPACK's column-pivoted QR (xGEQP3) downdates its column norms; a column that has
# lost three digits that way (_NORM_RECOMPUTE = 1e-3 of its last exact value) is recomputed.
_NORM_RECOMPUTE = 1e-3
# ln p(t) is a sum of terms as large as βN (N ln β, and tᵀC⁻¹t ≤ β‖t‖²), each accurate to a few ε,
# so it is known to about _MAX_DROP·(|ln p| + βN), _MAX_DROP = 1e-15 ≈ 5ε; _MIN_GAIN = 1e-9 nats
# is a floor for ln p near 0. A change that gains less than their sum is not worth making.
_MAX_DROP = 1e-15
_MIN_GAIN = 1e-9
# The alignment test of fit_sequential (its Notes): a candidate near-duplicate of a basis
# function j in the model is held back while moving j's weight onto it would change the fit by
# less than _ALIGNMENT_Z = 3 noise standard deviations and adding it would gain less than
# _ALIGNMENT_GAIN = 1 nat (a factor e in the evidence is worth a pair).
_ALIGNMENT_Z = 3.0
_ALIGNMENT_GAIN = 1.0
# While β is held and no change is worth making, the held noise variance is lowered tenfold.
_HOLD_STEP = 10.0
# (in the model before, in the model after) -> the kind of change, as recorded in ``actions``
_ACTION = {
    (False, True): "add",
    (True, True): "re-estimate",
    (True, False): "delete",
    (False, False): "none",
}


def _worth(log_ev, beta_n):
    """The least gain worth a change: _MIN_GAIN + the rounding of ln p, _MAX_DROP·(|ln p| + βN)."""
    return _MIN_GAIN + _MAX_DROP * (abs(log_ev) + beta_n)


def _changes(alpha, s, q):
    """For every candidate the best αᵢ given the others, sᵢ²/(qᵢ² − sᵢ) or ∞ (Bishop 7.101),
    pruned above ``PRUNE_ALPHA``, and the gain in ln p of moving there, ℓ(α_new) − ℓ(αᵢ)
    (Bishop 7.97); −∞ for an all-zero column (s = 0), which cannot change."""
    new = _optimal_alpha(s, q)
    new[new > PRUNE_ALPHA] = np.inf
    lost = ~(new > 0)  # s = 0: a column that is zero on every sample
    new[lost] = alpha[lost]
    with np.errstate(invalid="ignore"):  # inf − inf for candidates that stay out
        gain = _alpha_marginal(new, s, q) - _alpha_marginal(alpha, s, q)
    gain[lost | np.isnan(gain)] = -np.inf
    return new, gain


def _best(alpha, new, gain, worth, tol):
    """The candidate j of largest gain; whether the loop is idle there (it gains at most `worth`,
    or only re-estimates αⱼ by |Δ ln αⱼ| < `tol`); and the kind of that change."""
    j = int(np.argmax(gain))
    before, after = bool(np.isfinite(alpha[j])), bool(np.isfinite(new[j]))
    small = before and abs(np.log(new[j] / alpha[j])) < tol
    return j, bool(gain[j] <= worth or small), _ACTION[before, after]


class _Span:
    """The span of the model's basis functions, and every column's part inside and outside it.

    B_act = QR for the basis functions ``act`` (an index array, in the order they came in),
    Q (N, r) orthonormal and R (r, M) upper trapezoidal (r < M only if one came in already in
    the span). For the columns of [B, t]: their coordinates in the span, ``C = Qᵀ[B, t]``
    (r, K + 1), and their parts outside it, ``P = [B, t] − QC`` (N, K + 1), kept explicitly,
    so that ‖pᵢ‖ is accurate even when φᵢ is nearly in the span (no 1 − ‖cᵢ‖² cancellation).
    An addition appends the normalised pⱼ to Q (Gram–Schmidt, reorthogonalised once: "twice is
    enough"); a deletion rotates Q so that the direction that leaves is its last column, and
    moves that direction's part of C back into P. Each costs O(N K); the re-estimations in
    between, nothing. ‖pᵢ‖² and pᵢᵀt are downdated in O(K), and recomputed from P when that lost
    digits (_NORM_RECOMPUTE).
    """

    def __init__(self, B, t):
        self.P = np.column_stack([B, t])
        N, K1 = self.P.shape
        self.Q, self.R, self.C = np.zeros((N, 0)), np.zeros((0, 0)), np.zeros((0, K1))
        self.act, self._nearest = np.zeros(0, int), None
        self._exact(np.arange(K1 - 1))
        self.tn = self.tn_ref = float(self.P[:, -1] @ self.P[:, -1])  # ‖t⊥‖²

    def _exact(self, cols):
        """‖pᵢ‖² and pᵢᵀt computed from P, for the columns `cols` (all of them at the start)."""
        P = self.P[:, cols]
        pn, pt = np.einsum("ij,ij->j", P, P), P.T @ self.P[:, -1]
        if len(cols) == self.P.shape[1] - 1:
            self.pn, self.pt, self.pn_ref = pn, pt, pn.copy()
        else:
            self.pn[cols], self.pt[cols], self.pn_ref[cols] = pn, pt, pn

    def _downdate(self, row):
        """‖pᵢ‖² and pᵢᵀt after P ← P − q rowᵀ (q a unit vector along which pᵢ has the part
        rowᵢ): pn − row², pt − rowᵢ·row_t, in O(K) instead of O(NK) (see _NORM_RECOMPUTE)."""
        self.pn -= row[:-1] ** 2
        self.pt -= row[:-1] * row[-1]
        self.tn -= row[-1] ** 2
        if self.tn < _NORM_RECOMPUTE * self.tn_ref:
            self.tn = self.tn_ref = float(self.P[:, -1] @ self.P[:, -1])
            self.pt = self.P[:, :-1].T @ self.P[:, -1]
        self._exact(np.flatnonzero(self.pn < _NORM_RECOMPUTE * self.pn_ref))

    def nearest(self):
        """For every column i, the basis function j in the model most correlated with it (its
        position in ``act``) and that correlation |φ̂ⱼᵀφ̂ᵢ| = |(RᵀC)ⱼᵢ|; recomputed only after
        the span has changed (re-estimations leave it as it is)."""
        if self._nearest is None:
            K = self.P.shape[1] - 1
            corr = np.abs(self.R.T @ self.C[:, :K])  # model j × candidate i
            near = np.argmax(corr, axis=0)
            self._nearest = near, corr[near, np.arange(K)]
        return self._nearest

    def add(self, j):
        self._nearest = None
        p = self.P[:, j]
        M = len(self.act)
        if np.sqrt(self.pn[j]) > _SPAN_TOL:  # a new direction
            p = p - self.Q @ (self.Q.T @ p)
            q = p / np.linalg.norm(p)
            row = q @ self.P  # qᵀ[B, t] (q ⟂ Q)
            r = self.R.shape[0]
            R = np.zeros((r + 1, M + 1))  # [[R, cⱼ], [0, ‖pⱼ‖]]
            R[:r, :M], R[:r, M], R[r, M] = self.R, self.C[:, j], row[j]
            self.R = R
            self.Q, self.C = np.column_stack([self.Q, q]), np.vstack([self.C, row])
            blas.dger(
                -1.0, row, q, a=self.P.T, overwrite_a=1
            )  # P ← P − q rowᵀ, in place
            self._downdate(row)
        else:  # in the span already: no new row
            self.R = np.column_stack([self.R, self.C[:, j]])
        self.act = np.append(self.act, j)

    def delete(self, j):
        self._nearest = None
        k = int(np.flatnonzero(self.act == j)[0])
        Rm = np.delete(self.R, k, axis=1)
        r, M = Rm.shape
        V, T = (
            qr(Rm, check_finite=False) if M else (np.eye(r), Rm)
        )  # VT = Rm, T trapezoidal
        self.Q, self.C = self.Q @ V, V.T @ self.C
        if M < r:  # the last direction leaves the span
            c = self.C[-1]
            blas.dger(1.0, c, self.Q[:, -1], a=self.P.T, overwrite_a=1)
            self.pn += c[:-1] ** 2  # sums of squares: no cancellation
            self.pt += c[:-1] * c[-1]
            self.tn += c[-1] ** 2
            self.Q, self.C, T = self.Q[:, :-1], self.C[:-1], T[:-1]
        self.R = T
        self.act = np.delete(self.act, k)


def _check_columns(cols, K, name):
    """Column indices in [0, K), as an int array; a ValueError naming `name` otherwise."""
    idx = np.asarray(cols).ravel()
    if idx.size and (idx.dtype.kind not in "iu" or idx.min() < 0 or idx.max() >= K):
        raise ValueError(f"{name} must hold column indices in [0, {K}); got {cols!r}.")
    return idx.astype(int)


def _rows(B, t):
    """[B, t] on at most K + 1 rows with the same Gram matrix: R of its QR factorisation when
    N > K + 1 (a tall design), else [B, t] itself.

    Everything the sequential loop takes from the data, the span's Q, R, C and the parts outside
    it, depends on [B, t] only through its Gram matrix, so an orthogonal change of rows leaves
    each unchanged up to rounding (QR is backward stable: the R of [B, t] + E, ‖E‖ ≤ cε‖[B, t]‖)
    while every later addition costs O(K²) instead of O(NK). N itself enters the evidence and
    the noise update separately (``_ScaledEvidence.n``).

    Returns
    -------
    B, t : ndarrays of shape (min(N, K + 1), K) and (min(N, K + 1),)
    """
    N, K = B.shape
    if N <= K + 1:
        return B, t
    X = np.empty((N, K + 1), order="F")
    X[:, :K], X[:, K] = B, t
    R = np.triu(lapack.dgeqrf(X, overwrite_a=1)[0][: K + 1])
    return R[:, :K], R[:, K]


class _SequentialFit:
    """The state of :func:`fit_sequential` on the scaled problem: α, β, the model's span and the
    evidence at them, kept in step.

    ``undo`` is the last change (to revert if ln p fell), ``blocked`` the candidates reverted
    since a change was last kept, ``late`` the columns that may not come first, and ``growing``
    whether additions still come first.
    """

    def __init__(self, Phi, t, beta0, alpha0, not_first, alignment_max):
        self.ev = _ScaledEvidence(Phi, t)
        self.K = K = Phi.shape[1]
        self.span = _Span(*_rows(self.ev.B, self.ev.t))
        self.alpha = np.full(K, np.inf)
        start = np.full(K, np.inf) if alpha0 is None else self.ev.initial_alpha(alpha0)
        for j in np.flatnonzero(np.isfinite(start)):
            self._move(j, start[j])
        self.beta = float(beta0) * self.ev.c**2
        self.cap = max(
            1.0 / self.ev.floor, self.beta
        )  # the most the held β is raised to
        self.alignment_max = alignment_max
        self.late = np.zeros(K, bool)
        self.late[_check_columns(not_first, K, "not_first")] = True
        self.blocked = np.zeros(K, bool)
        self.growing, self.undo = True, None
        self.history, self.actions = [], []

    def _move(self, j, value):
        """αⱼ ← value, the span kept in step."""
        if np.isinf(self.alpha[j]) and np.isfinite(value):
            self.span.add(j)
        elif np.isfinite(self.alpha[j]) and np.isinf(value):
            self.span.delete(j)
        self.alpha[j] = value

    def refresh(self):
        """The posterior and the evidence at the current α, β."""
        span, K = self.span, self.K
        t_out = span.P[:, K]
        root = (span.R, span.C[:, K], float(t_out @ t_out))
        self.ev.update(span.act, self.alpha, self.beta, root=root)

    def undo_if_lower(self):
        """Revert the last change if ln p fell by more than rounding (same β as it was chosen
        at), and skip its candidate until a change is kept."""
        if self.undo is None:
            return
        j, a_old, log_ev_old = self.undo
        if self.ev.log_ev < log_ev_old - _MAX_DROP * (
            abs(log_ev_old) + self.beta * self.ev.n
        ):
            self._move(j, a_old)
            self.blocked[j] = True
            self.actions.pop()
            self.refresh()
        else:
            self.blocked[:] = False

    def update_beta(self):
        """β⁻¹ ← ‖t − Φm‖²/(N − Σγ) (capped); returns |Δ ln β|."""
        beta_new = self.ev.beta_update()
        d_log_beta = abs(np.log(beta_new / self.beta))
        self.beta = beta_new
        self.refresh()
        return d_log_beta

    def gains(self, worth):
        """Every candidate's best α and its gain in ln p, −∞ for the changes not to make now:
        held back by the alignment test, reverted, a late column first, or (while the model
        grows) anything but an addition worth `worth`."""
        ev, span, K, alpha = self.ev, self.span, self.K, self.alpha
        act, sb = span.act, np.sqrt(self.beta)
        s, q, _, _ = _factors(
            self.beta * span.pn,
            self.beta * span.pt,
            sb * span.C[:, :K],
            ev.T,
            ev.y,
            alpha,
            act,
            ev.post,
        )
        new, gain = _changes(alpha, s, q)
        if len(act):  # the alignment test
            near, rho = span.nearest()
            shift = (
                sb * np.abs(ev.post.mean[near]) * np.sqrt(2.0 * np.maximum(1 - rho, 0))
            )
            gain[
                np.isinf(alpha)
                & (rho > self.alignment_max)
                & (shift < _ALIGNMENT_Z)
                & (gain < _ALIGNMENT_GAIN)
            ] = -np.inf
        gain[self.blocked] = -np.inf
        if not len(act) and np.any(gain[~self.late] > 0):  # the first basis function
            gain[self.late] = -np.inf
        adds = np.isinf(alpha) & (gain > worth)
        if adds.any() and self.growing:  # additions first
            gain[~adds] = -np.inf
        elif len(act):
            self.growing = False
        return new, gain

    def change(self, j, value, action):
        """Make the change αⱼ ← value and record it (`action`), to undo if ln p falls."""
        self.actions.append(action)
        self.undo = (j, self.alpha[j], self.ev.log_ev)
        self._move(j, value)

    def lower_noise(self):
        """Lower the held noise variance _HOLD_STEP-fold (β at most ``cap``)."""
        self.beta = min(_HOLD_STEP * self.beta, self.cap)
        self.actions.append("lower noise")
        self.undo = None

    def result(self, n_iter, converged) -> SBLFit:
        self.refresh()
        act = self.span.act.copy()
        return self.ev.result(
            self.alpha, self.beta, act, n_iter, converged, self.history, self.actions
        )
