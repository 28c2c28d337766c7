"""Likelihoods of the linear classifiers, with gradients and Hessians (lecture 003 §4-3, 004).

These small functions are the shared core of every model that puts a Bernoulli or categorical
likelihood on a linear activation: logistic, probit and softmax regression here, and the
Laplace approximation, Bayesian logistic regression, RVM classification and GP classification
in later chapters. Each returns the *penalised* negative log-likelihood

    E(w) = −ln p(t | w) + ½ (w − m₀)ᵀ A (w − m₀),

i.e. minus the log posterior under a Gaussian prior N(w | m₀, A⁻¹), up to a constant, with its
gradient and Hessian, ready for :func:`mlcourse.utils.optimize.newton_minimize`. The per-sample
terms ℓ(a_n, t_n) of the Bernoulli likelihood (logit and probit link), E = Σ_n ℓ(a_n, t_n) +
prior, and their derivatives in the activation come first.

Conventions
-----------
Phi : ndarray of shape (N, M)
    Design matrix, row n is φ(x_n)ᵀ (an intercept is a column of ones, Bishop's φ₀ = 1).
t : ndarray of shape (N,)
    Binary targets t_n ∈ {0, 1} (one-hot ``T`` of shape (N, K) for the softmax).
precision : float, ndarray of shape (M,) or (M, M)
    Prior precision A: a scalar α (A = αI), one precision per weight (A = diag(α_i); 0 leaves a
    weight, e.g. the intercept, unpenalised), or a full symmetric positive semi-definite matrix
    (A = S₀⁻¹). ``0`` (the default) is maximum likelihood.
mean : None or ndarray of shape (M,)
    Prior mean m₀ (default 0).
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.linalg import blas as _blas
from scipy.special import erfcx as _erfcx

from ..special import log_probit
from .validation import (
    check_array,
    check_binary_labels,
    check_bool,
    check_consistent_length,
    check_option,
    check_vector,
)

__all__ = [
    "logit_nll_terms",
    "probit_nll_terms",
    "PROBIT_TAIL",
    "make_objective",
    "logistic_objective",
    "probit_objective",
    "softmax_objective",
    "check_precision",
    "weighted_gram",
]


# --- per-sample Bernoulli terms ----------------------------------------------------------------


def logit_nll_terms(a, t):
    """Per-sample −ln p(t_n | a_n) for y_n = σ(a_n), and its first two derivatives in a_n.

    ℓ = −{t ln σ(a) + (1 − t) ln σ(−a)} (cross-entropy, lecture 003 §4-3-2 / Bishop (4.90)),
    for t ∈ {0, 1};
    ℓ′ = σ(a) − t = y − t, ℓ″ = σ(a)(1 − σ(a)) = R_nn (Bishop (4.98)). All three come from
    one exponential e = exp(−|a|) ∈ (0, 1], which cannot overflow: σ(|a|) = 1/(1 + e),
    σ(−|a|) = e/(1 + e), ℓ″ = σ(|a|)σ(−|a|), and ln σ(u) = −log1p(e) − max(−u, 0) for u = ±a
    (the stable ln σ: exact in the tails, never −inf).

    Returns
    -------
    nll, d1, d2 : ndarray of shape (N,)
    """
    log_lik, d1, d2 = _logit_terms(a, t, 2.0 * t - 1.0)
    return -log_lik, d1, d2


def _logit_terms(a, t, s):
    """ln p(t_n | a_n) (minus :func:`logit_nll_terms`'s first term) and ℓ′, ℓ″, with the signs
    s = 2t − 1 given (a fit computes them once)."""
    a = np.asarray(a, dtype=float)
    if a.ndim == 0:  # the in-place steps below need arrays; a scalar gives scalars back
        return tuple(v[0] for v in _logit_terms(a.reshape(1), t, s))
    e = np.negative(np.abs(a))
    np.exp(e, out=e)  # e^{−|a|}: NumPy's vectorised exp, no overflow
    q = e + 1.0
    np.reciprocal(q, out=q)  # σ(|a|)
    eq = e * q  # σ(−|a|)
    y = np.where(a >= 0, q, eq)  # σ(a)
    # u = s·a (a if t = 1, −a if t = 0); ln σ(u) = min(u, 0) − log1p(e^{−|u|})
    log_lik = s * a
    np.minimum(log_lik, 0.0, out=log_lik)
    log_lik -= np.log1p(e)
    y -= t
    eq *= q
    return log_lik, y, eq


def probit_nll_terms(a, t):
    """Per-sample −ln p(t_n | a_n) for y_n = Φ(a_n) (probit), and its derivatives in a_n.

    With s = 2t − 1 and u = s·a, ℓ = −ln Φ(u); ℓ′ = −s λ(u) and ℓ″ = λ(u)(u + λ(u)) ∈ (0, 1),
    where λ(u) = N(u | 0, 1)/Φ(u) (the inverse Mills ratio; Bishop §4.3.5). λ is computed as
    √(2/π)/erfcx(−u/√2), accurate to rounding for every u. For u < PROBIT_TAIL, where
    u + λ ≈ −1/u would lose all its digits to cancellation, ℓ″ comes from its asymptotic series
    (see :func:`_probit_curvature_tail`), so it stays accurate and ≤ 1 however far into the
    tail u is.
    """
    log_lik, d1, d2 = _probit_terms(a, t, 2.0 * t - 1.0)
    return -log_lik, d1, d2


def _probit_terms(a, t, s):
    """ln p(t_n | a_n) (minus :func:`probit_nll_terms`'s first term) and ℓ′, ℓ″, with the
    signs s = 2t − 1 given (a fit computes them once)."""
    u = s * a
    log_cdf = log_probit(u)
    lam = _SQRT_2_OVER_PI / _erfcx(-u * _SQRT_HALF)
    with np.errstate(
        over="ignore", invalid="ignore"
    ):  # only where the tail series replaces it
        d2 = lam * (u + lam)
    tail = u < PROBIT_TAIL
    if np.any(tail):
        d2 = np.asarray(d2)  # (a 0-d array for a scalar u, as before)
        d2[tail] = _probit_curvature_tail(
            np.asarray(u)[tail]
        )  # the series only where needed
    return log_cdf, -s * lam, d2


# Below u = PROBIT_TAIL the probit curvature ℓ″(u) = λ(u)(u + λ(u)) is summed from the
# asymptotic series of erfc (Abramowitz & Stegun 7.1.23): with v = 1/u²,
#   S = √π x erfcx(x) = Σ_m (−1)^m (2m − 1)!! v^m  (x = −u/√2),  λ = −u/S,
#   ℓ″ = u²(1 − S)/S² = P/S²,  P = Σ_m (−1)^m (2m + 1)!! v^m = 1 − 3v + 15v² − …
# Ten terms leave a truncation error below 21!!·v¹⁰ ≈ 4e-20 for |u| ≥ 30, while the direct
# formula's cancellation error, about ε·u², is still only 2e-13 at u = −30.
PROBIT_TAIL = -30.0
_TAIL_TERMS = 10
_SQRT_2_OVER_PI = np.sqrt(2.0 / np.pi)
_SQRT_HALF = np.sqrt(0.5)
_DOUBLE_FACTORIALS = np.cumprod(np.r_[1.0, np.arange(1.0, 2.0 * _TAIL_TERMS + 1, 2.0)])
_SIGNS = (-1.0) ** np.arange(_TAIL_TERMS)
_S_COEFS = _SIGNS * _DOUBLE_FACTORIALS[:_TAIL_TERMS]  # (−1)^m (2m − 1)!!, (−1)!! = 1
_P_COEFS = _SIGNS * _DOUBLE_FACTORIALS[1 : _TAIL_TERMS + 1]  # (−1)^m (2m + 1)!!


def _probit_curvature_tail(u):
    """ℓ″(u) = λ(u)(u + λ(u)) for u ≤ PROBIT_TAIL by its asymptotic series, in (0, 1]."""
    v = (1.0 / np.asarray(u, dtype=float)) ** 2
    powers = v[..., None] ** np.arange(_TAIL_TERMS)  # v^m, m = 0 … 9
    S = powers @ _S_COEFS
    P = powers @ _P_COEFS
    return P / (S * S)


# --- penalised objectives ---------------------------------------------------------------------

# A precision matrix counts as positive semi-definite if its smallest eigenvalue is at least
# −PSD_TOL·max|eigenvalue|: B Bᵀ of a rank-deficient B has eigenvalues of about −ε·‖B‖² from
# rounding, which must pass, while a real negative direction (−I, a saddle) must not.
PSD_TOL = 1e-10


def check_precision(precision, n_weights: int) -> np.ndarray:
    """Validate a prior precision (scalar, per-weight vector or matrix) for `n_weights` weights.

    Returns a float array of 0, 1 or 2 dimensions. Raises ``ValueError`` for a wrong shape,
    NaN/inf, or negative entries (a precision is ≥ 0; a matrix must be symmetric and positive
    semi-definite: its smallest eigenvalue ≥ −PSD_TOL times its largest absolute one).
    """
    A = np.asarray(precision, dtype=float)
    if A.ndim > 2 or (A.ndim >= 1 and A.shape != (n_weights,) * A.ndim):
        raise ValueError(
            f"precision must be a scalar, shape ({n_weights},) or "
            f"({n_weights}, {n_weights}); got shape {A.shape}."
        )
    if not np.all(np.isfinite(A)):
        raise ValueError("precision contains NaN or infinite values.")
    if A.ndim < 2 and np.any(A < 0):
        raise ValueError("precision must be non-negative (it is an inverse variance).")
    if A.ndim == 2 and not np.allclose(A, A.T, rtol=1e-10, atol=0):
        raise ValueError("precision must be a symmetric matrix.")
    if A.ndim == 2 and A.size:
        eig = np.linalg.eigvalsh(A)
        if eig[0] < -PSD_TOL * max(abs(eig[0]), abs(eig[-1])):
            raise ValueError(
                f"precision must be positive semi-definite (an inverse covariance); "
                f"its smallest eigenvalue is {eig[0]:.3g}."
            )
    return A


def weighted_gram(Phi, r) -> np.ndarray:
    """ΦᵀRΦ for R = diag(r), r ≥ 0 (the data part of every Hessian here), shape (M, M).

    Computed as BᵀB with B = R^½Φ by the BLAS symmetric rank-k update (``syrk``), which does
    half the work of a general product and is exactly symmetric. B has Φ's memory order: a
    Fortran-ordered Φ (columns contiguous, as :func:`make_objective` keeps it) makes both the
    scaling and the update about twice as fast for few columns, with the same result.
    """
    return _gram(Phi * np.sqrt(np.maximum(r, 0.0))[:, None])


def _gram(B):
    """BᵀB by BLAS syrk (symmetric rank-k update), from B in either memory order."""
    if B.flags.f_contiguous:
        H = _blas.dsyrk(1.0, B, trans=1)  # upper triangle of BᵀB, zeros below
    else:
        H = _blas.dsyrk(1.0, B.T)  # the same for a C-ordered B (B.T is F-ordered)
    np.copyto(H, H.T, where=_strict_lower(len(H)))  # the lower triangle from the upper
    return H


@functools.lru_cache(maxsize=8)
def _strict_lower(n):
    """The mask of the entries below the diagonal of an n × n matrix (read-only, cached)."""
    mask = np.tril(np.ones((n, n), dtype=bool), -1)
    mask.flags.writeable = False
    return mask


def _diagonal(H):
    """A writeable view of the diagonal of the square H, whatever its memory order."""
    return np.einsum("ii->i", H)


def _prior(w, A, mean):
    """(½ dᵀAd, A d) with d = w − m₀, for a 0-, 1- or 2-D precision A."""
    d = w if mean is None else w - mean
    Ad = A @ d if A.ndim == 2 else A * d
    return 0.5 * float(d @ Ad), Ad


def _add_prior_hessian(H, A):
    if A.ndim == 2:
        H += A
    else:
        _diagonal(H)[...] += A
    return H


def _check_weights(w, name, size, what):
    w = check_vector(w, name)
    if w.size != size:
        raise ValueError(f"{name} must have {size} entries ({what}); got {w.size}.")
    return w


def _check_flag(hessian):
    check_bool(hessian, "hessian")
    return hessian


def _check_binary_problem(Phi, t, precision, mean):
    """Validate Φ, t, the precision and the mean of a binary objective (once per objective)."""
    Phi = check_array(Phi, "Phi")
    M = Phi.shape[1]
    t = check_binary_labels(t, "t").astype(float)
    check_consistent_length(Phi=Phi, t=t)
    if mean is not None:
        mean = _check_weights(mean, "mean", M, "one per column of Phi")
    return Phi, t, check_precision(precision, M), mean


def _check_softmax_problem(Phi, T, precision, mean):
    """Validate Φ, T, the precision and the mean of the softmax objective; A and m₀ as (K·M,)."""
    Phi, T = check_array(Phi, "Phi"), check_array(T, "T")
    check_consistent_length(Phi=Phi, T=T)
    if np.any(T < 0) or not np.allclose(T.sum(axis=1), 1.0, rtol=0, atol=1e-10):
        raise ValueError(
            "T must hold one-hot rows (or probability vectors: non-negative, "
            "summing to 1)."
        )
    K, M = T.shape[1], Phi.shape[1]
    try:
        A = np.broadcast_to(np.asarray(precision, dtype=float), (K, M)).ravel()
        m0 = (
            None
            if mean is None
            else np.broadcast_to(np.asarray(mean, float), (K, M)).ravel()
        )
    except ValueError:
        raise ValueError(
            f"precision and mean must broadcast to (K, M) = ({K}, {M})."
        ) from None
    if m0 is not None:
        check_vector(m0, "mean")  # finite
    return Phi, T, check_precision(A, K * M), m0


_LINKS = {"logit": _logit_terms, "probit": _probit_terms, "softmax": None}


def make_objective(Phi, t, precision=0.0, mean=None, *, link: str = "logit"):
    """The penalised negative log-likelihood E(w) as a function of the weights alone.

    Φ, the targets and the prior are validated once, here; the returned function is what a
    solver calls at every iterate (:func:`mlcourse.utils.optimize.newton_minimize`, the Laplace
    approximation, gradient descent). :func:`logistic_objective`, :func:`probit_objective` and
    :func:`softmax_objective` are this function evaluated once, with `w` checked too.

    Parameters
    ----------
    Phi : array_like of shape (N, M)
    t : array_like of shape (N,), or (N, K) for ``link="softmax"``
        0/1 targets, or one-hot rows T for the softmax.
    precision, mean : prior precision A and mean m₀ (see the module docstring); for the softmax,
        arrays that broadcast to (K, M).
    link : {"logit", "probit", "softmax"}
        y = σ(a), y = Φ(a), or the softmax over K activations.

    Returns
    -------
    fun : callable ``fun(w, hessian=True) -> (E, grad[, hess])``
        `w` of shape (M,) (K·M for the softmax), a finite float array: it is not checked again
        at each call.

    Raises
    ------
    ValueError
        As :func:`logistic_objective` and :func:`softmax_objective`, and an unknown `link`.
    """
    terms = _LINKS[check_option(link, "link", tuple(_LINKS))]
    if terms is None:
        Phi, T, A, m0 = _check_softmax_problem(Phi, t, precision, mean)
        # samples along the rows' contiguous axis (see _softmax_objective)
        PhiT, TT = np.ascontiguousarray(Phi.T), np.ascontiguousarray(T.T)

        def softmax_fun(w, hessian=True):
            return _softmax_objective(w, PhiT, TT, A, m0, hessian)

        return softmax_fun
    Phi, t, A, mean = _check_binary_problem(Phi, t, precision, mean)
    signs = 2.0 * t - 1.0
    Phi_f = np.asfortranarray(Phi)  # for the Hessian (see weighted_gram)

    def binary_fun(w, hessian=True):
        return _binary_objective(terms, w, Phi, Phi_f, t, signs, A, mean, hessian)

    return binary_fun


def _evaluate(w, Phi, t, precision, mean, hessian, link):
    """A public objective at one w: validate, then evaluate through :func:`make_objective`."""
    fun = make_objective(Phi, t, precision, mean, link=link)
    M = np.shape(Phi)[1]  # Φ and t are now known to be 2-D
    if link == "softmax":
        K = np.shape(t)[1]
        w = _check_weights(
            w, "w", K * M, f"K·M = {K}·{M}, K = T.shape[1] vectors stacked"
        )
    else:
        w = _check_weights(w, "w", M, "one per column of Phi")
    return fun(w, _check_flag(hessian))


def _binary_objective(terms, w, Phi, Phi_f, t, signs, A, mean, hessian=True):
    """E, ∇E (and ∇∇E) for per-sample terms ``terms(a, t, 2t − 1)`` and a validated
    precision A; ``Phi_f`` is Φ in Fortran order, for the Hessian."""
    log_lik, d1, d2 = terms(Phi @ w, t, signs)
    penalty, Ad = _prior(w, A, mean)
    E = -float(log_lik.sum()) + penalty
    g = Phi.T @ d1 + Ad
    if not hessian:
        return E, g
    # ℓ″ ≥ 0 for both links (logit σ(a)σ(−a); probit λ(u + λ) and its tail series, also in
    # floating point), so weighted_gram's clip at 0 is not needed
    return E, g, _add_prior_hessian(_gram(Phi_f * np.sqrt(d2)[:, None]), A)


def logistic_objective(w, Phi, t, precision=0.0, mean=None, hessian: bool = True):
    """Penalised logistic negative log-likelihood with its gradient and Hessian.

    E(w) = −Σ_n {t_n ln y_n + (1 − t_n) ln(1 − y_n)} + ½(w − m₀)ᵀA(w − m₀), y_n = σ(wᵀφ_n),
    ∇E = Φᵀ(y − t) + A(w − m₀), ∇∇E = ΦᵀRΦ + A with R = diag(y_n(1 − y_n))
    (lecture 003 §4-3-3 and §4-5-1 / Bishop (4.96), (4.97), (4.142)–(4.143)).

    Parameters
    ----------
    w : ndarray of shape (M,)
    Phi : ndarray of shape (N, M)
    t : ndarray of shape (N,), values in {0, 1}
    precision, mean : prior precision A and mean m₀ (see the module docstring)
    hessian : bool
        Also return the Hessian.

    Returns
    -------
    E : float
    grad : ndarray of shape (M,)
    hess : ndarray of shape (M, M), only if `hessian`

    Raises
    ------
    ValueError
        `Phi` not 2-D, `w` or `mean` not of length M, `t` not 0/1 or of the wrong length, NaN or
        inf anywhere, or a precision that is not a valid one (:func:`check_precision`).
    """
    return _evaluate(w, Phi, t, precision, mean, hessian, "logit")


def probit_objective(w, Phi, t, precision=0.0, mean=None, hessian: bool = True):
    """Penalised probit negative log-likelihood, y_n = Φ(wᵀφ_n), with gradient and Hessian.

    Same interface as :func:`logistic_objective`; the weights R_nn = ℓ″(a_n) come from
    :func:`probit_nll_terms` (lecture 003 §4-3-5 / Bishop §4.3.5).
    """
    return _evaluate(w, Phi, t, precision, mean, hessian, "probit")


def softmax_objective(w, Phi, T, precision=0.0, mean=None, hessian: bool = True):
    """Penalised multiclass cross-entropy, one weight vector per class, with gradient and Hessian.

    y_nk = exp(a_nk)/Σ_j exp(a_nj), a_nk = w_kᵀφ_n (lecture 003 §4-3-4, 004),
    E = −Σ_n Σ_k t_nk ln y_nk + ½ Σ_k (w_k − m_k)ᵀ A_k (w_k − m_k),
    ∇_{w_j} E = Σ_n (y_nj − t_nj) φ_n + A_j(w_j − m_j),
    ∇_{w_k}∇_{w_j} E = Σ_n y_nk (I_kj − y_nj) φ_n φ_nᵀ + δ_kj A_j (Bishop (4.109)–(4.110)).

    Parameters
    ----------
    w : ndarray of shape (K·M,)
        The K weight vectors stacked: ``w.reshape(K, M)[k]`` is w_k.
    Phi : ndarray of shape (N, M)
    T : ndarray of shape (N, K)
        One-hot targets (rows may also be any probability vectors).
    precision : float or array broadcastable to (K, M)
        Diagonal prior precision: a scalar, one value per feature (shape (M,), shared by the
        classes; 0 for an unpenalised intercept), or one per weight.
    mean : None or array broadcastable to (K, M)

    Returns
    -------
    E : float
    grad : ndarray of shape (K·M,)
    hess : ndarray of shape (K·M, K·M), only if `hessian`; block (j, k) is ∇_{w_j}∇_{w_k} E.

    Raises
    ------
    ValueError
        As :func:`logistic_objective`; `T` must be (N, K) with rows that are probability vectors.
    """
    return _evaluate(w, Phi, T, precision, mean, hessian, "softmax")


def _softmax_objective(w, PhiT, TT, A, m0, hessian=True):
    """:func:`softmax_objective` for a validated diagonal precision A of shape (K·M,), from
    Φᵀ (M, N) and Tᵀ (K, N). Every (K, N) array has the samples along its rows, so each
    operation is K (or M) long vector operations rather than N short ones (K is often 3)."""
    (M, N), K = PhiT.shape, TT.shape[0]
    a = w.reshape(K, M) @ PhiT  # a_kn = w_kᵀφ_n
    a -= a.max(axis=0)  # log-softmax in plain NumPy (no dispatch),
    Y = np.exp(a)  # reusing the exponentials for Y
    s = Y.sum(axis=0)
    Y /= s
    penalty, Ad = _prior(w, A, m0)
    E = -float(np.sum(TT * (a - np.log(s)))) + penalty
    g = ((Y - TT) @ PhiT.T).ravel() + Ad
    if not hessian:
        return E, g
    # Σ_n (diag(y_n) − y_n y_nᵀ) ⊗ φ_nφ_nᵀ = blockdiag_j(Φᵀ diag(y_j) Φ) − CᵀC,
    # with C[n, (j, m)] = y_nj φ_nm, built as Cᵀ: two products
    Ct = (Y[:, None, :] * PhiT).reshape(K * M, N)
    H = np.negative(Ct @ Ct.T)
    D = PhiT @ Ct.T  # block j: Σ_n y_nj φ_n φ_nᵀ
    # add D's block j to H's diagonal block (j, j), through a (K, M, M) view of those blocks
    np.einsum("jmjn->jmn", H.reshape(K, M, K, M))[...] += D.reshape(M, K, M).transpose(
        1, 0, 2
    )
    return E, g, _add_prior_hessian(H, A)
