"""The Laplace step of RVM classification (lecture 000; Tipping 2001 §3; Bishop §7.2.3).

For fixed prior precisions α the posterior over the weights is not Gaussian: the likelihood is
Bernoulli through a sigmoid (two classes) or categorical through a softmax (K > 2). Its mode w*
is found by Newton's method (IRLS) with the Laplace chapter's solver on the linear chapter's
likelihoods (:func:`mlcourse.utils.optimize.newton_minimize` on
:func:`mlcourse.utils.objectives.make_objective`), and the posterior is approximated by the
Gaussian at w* with precision Σ⁻¹ = ΦᵀBΦ + A, B = diag(y(1 − y)) (lecture 000).

At the mode that Gaussian *is* the posterior of a linear-Gaussian regression: with a square root
R of the data part of the Hessian (RᵀR = ΦᵀBΦ; R = B^½Φ for two classes) and the working
response τ (Rᵀτ = ΦᵀBΦw* + Φᵀ(t − y)), N(w | m, Σ) with Σ = (A + RᵀR)⁻¹ and m = ΣRᵀτ = w*
(Tipping 2001, eq. 26: t̂ = Φw* + B⁻¹(t − y)). So the regression RVM's posterior, re-estimation
and sparsity factors serve unchanged, with unit noise precision: :func:`laplace_posterior` gives
that Gaussian and the Laplace evidence, and :func:`working_problem` the pair (R, τ) for any
columns. The sequential loop needs the sparsity and quality factors of every column but forms R
only for the model's (``_candidate_factors``).

The softmax's B is a block matrix: for sample n, Λₙ = diag(yₙ) − yₙyₙᵀ (K × K). With
uₙ = √yₙ (a unit vector) Λₙ = (PₙDₙ)ᵀ(PₙDₙ), Dₙ = diag(uₙ), Pₙ = I − uₙuₙᵀ, so the square root
has K rows per sample, one column per weight (k, i): R[(n, l), (k, i)] = (PₙDₙ)_lk φᵢ(xₙ), and
τₙ = PₙDₙaₙ + Dₙ⁻¹(tₙ − yₙ).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import qr

from ..special import log_sigmoid, log_softmax
from ..utils.objectives import make_objective
from ..utils.optimize import NEWTON_TOL, newton_minimize, restrict
from ..utils.validation import check_array, check_binary_labels, check_consistent_length
from ._evidence import (
    Posterior,
    _check_alpha,
    _covariance_root,
    _factors,
    posterior,
)

__all__ = [
    "LaplacePosterior",
    "laplace_posterior",
    "working_problem",
]


@dataclass
class LaplacePosterior(Posterior):
    """The Laplace approximation N(w | w*, Σ) at fixed α, with the Laplace evidence.

    Attributes
    ----------
    mean : ndarray of shape (P,)
        w*, the posterior mode, over the P weights with finite α (row-major over (class, basis
        function) for the softmax).
    W : ndarray of shape (P, P)
        Σ = WᵀW, Σ⁻¹ = ΦᵀBΦ + A at w* (lecture 000; the square-root form of ``posterior``).
    logdet_precision : float
        ln|Σ⁻¹|.
    log_evidence : float
        ln p(t | w*) + ln p(w* | α) + (P/2) ln 2π + ½ ln|Σ| (lecture 000; Bishop (7.114)).
    log_likelihood : float
        ln p(t | w*).
    activations : ndarray of shape (N,) or (N, K)
        a = Φw* (one column per class for the softmax).
    n_iter : int
        Newton steps taken to the mode.
    converged : bool
        The Newton loop met :data:`mlcourse.utils.optimize.NEWTON_TOL`.
    """

    log_evidence: float
    log_likelihood: float
    activations: np.ndarray
    n_iter: int
    converged: bool


def _binary_root(a, t):
    """√b (N,) and τ (N,) for y = σ(a): b = y(1 − y), τ = √b·a + (t − y)/√b.

    In logs: √b = exp{½[ln σ(a) + ln σ(−a)]}, and (t − y)/√b = s·exp(−s·a/2) with s = 2t − 1
    (= √(σ(−a)/σ(a)) for t = 1): no difference of nearly equal numbers, no division by a b that
    underflows.
    """
    s = 2.0 * t - 1.0
    root_b = np.exp(0.5 * (log_sigmoid(a) + log_sigmoid(-a)))
    return root_b, root_b * a + s * np.exp(-0.5 * s * a)


def _softmax_root(A, T):
    """PₙDₙ (N, K, K) and τ (N·K,) for Y = softmax(A) (see the module docstring)."""
    log_y = log_softmax(A, axis=1)
    u = np.exp(0.5 * log_y)  # uₙ = √yₙ
    PD = (
        np.einsum("lk,nk->nlk", np.eye(A.shape[1]), u)
        - u[:, :, None] * (u * u)[:, None, :]
    )
    tau = (
        np.einsum("nlk,nk->nl", PD, A) + T * np.exp(-0.5 * log_y) - u
    )  # D⁻¹(t − y) = T/u − u
    return PD, tau.ravel()


def working_problem(Phi, T, activations):
    """The Gaussian regression problem equivalent to the Laplace approximation at activations a.

    Parameters
    ----------
    Phi : ndarray of shape (N, C)
        Basis functions (columns) to express: e.g. all candidates, or those in the model.
    T : ndarray of shape (N,) or (N, K)
        0/1 targets (two classes), or one-hot rows (softmax).
    activations : ndarray of shape (N,) or (N, K)
        a = Φw at the mode (all of the model's basis functions).

    Returns
    -------
    R : ndarray of shape (N, C) or (N·K, K·C)
        RᵀR = ΦᵀBΦ (the Hessian of −ln p(t | w) at a), one column per weight: for the softmax
        column k·C + i is the weight of class k on basis function i.
    tau : ndarray of shape (N,) or (N·K,)
        Rᵀτ = ΦᵀBΦw + Φᵀ(t − y): the working response, for unit noise precision.
    """
    roots, tau = _roots(activations, T)
    return _columns(Phi, roots, np.arange(roots.shape[2] * Phi.shape[1])), tau


def _roots(activations, T):
    """The per-sample square roots of the Hessian, (N, L, K′), and τ (N·L,): √bₙ as (N, 1, 1)
    for two classes, PₙDₙ (N, K, K) for the softmax (see the module docstring)."""
    if T.ndim == 1:
        root_b, tau = _binary_root(activations, T)
        return root_b[:, None, None], tau
    return _softmax_root(activations, T)


def _columns(Phi, roots, idx):
    """The columns of :func:`working_problem`'s R for the weights `idx` (flat (class, basis
    function) indices), without the others: each entry is the same single product."""
    N, L, _ = roots.shape
    k, i = np.divmod(idx, Phi.shape[1])
    if L == 1:
        return Phi[:, i] * roots[:, 0, 0][:, None]
    return (roots[:, :, k] * Phi[:, None, i]).reshape(N * L, len(idx))


def _log_likelihood(A, T):
    """ln p(t | w) = Σₙ [tₙ ln yₙ + (1 − tₙ) ln(1 − yₙ)], or Σₙₖ tₙₖ ln yₙₖ for the softmax."""
    if T.ndim == 1:
        return float(np.sum(log_sigmoid(np.where(T > 0, A, -A))))
    return float(np.sum(T * log_softmax(A, axis=1)))


def _mode(Phi, T, alpha, w0):
    """w* by damped Newton on the active weights, α fixed; returns (W (K′, C), result or None).

    `alpha` and `w0` have shape (K′, C), K′ = 1 for two classes; ``inf`` in `alpha` fixes a
    weight at 0 (:func:`mlcourse.utils.optimize.restrict`). The objective E(w) = −ln p(t | w) +
    ½wᵀAw is convex, and ``newton_minimize`` backtracks, so the mode is found even on separable
    data, where only the prior keeps w* finite.
    """
    free = np.isfinite(alpha)
    W = np.zeros(alpha.shape)
    if not free.any():
        return W, None
    binary = T.ndim == 1
    # the softmax: only the basis functions some class uses (the block Hessian costs
    # O(N K² C²)), and the weights fixed at 0 restricted away (their precision is unused)
    cols = free[0] if binary else free.any(axis=0)
    sub = free[:, cols]
    prec = alpha[0, cols] if binary else np.where(sub, alpha[:, cols], 0.0)
    fun = make_objective(Phi[:, cols], T, prec, link="logit" if binary else "softmax")
    if not binary:
        fun = restrict(fun, sub.ravel(), np.zeros(sub.size))
    # newton_minimize's stopping rule (NEWTON_TOL): warm-started from the previous mode it takes
    # two to four steps; its max_iter = 100 only bounds a pathological start
    res = newton_minimize(fun, w0[free], tol=NEWTON_TOL)
    W[free] = res.x
    return W, res


@dataclass
class _Working:
    """The working problem at the mode, as the sequential loop needs it.

    Attributes
    ----------
    roots : ndarray of shape (N, L, K′)
        The per-sample square roots of the Hessian (:func:`_roots`).
    tau : ndarray of shape (N·L,)
        The working response τ.
    R : ndarray of shape (N·L, P)
        The columns of R of the P weights in the model.
    post : Posterior
        N(w | m, Σ) of that Gaussian problem (m is one Newton step from w*).
    """

    roots: np.ndarray
    tau: np.ndarray
    R: np.ndarray
    post: Posterior


def _laplace(Phi, T, alpha, w0, working=False):
    """:func:`laplace_posterior` on validated arguments, alpha and w0 of shape (K′, C); with
    `working`, also the working problem at the mode (:class:`_Working`)."""
    W, res = _mode(Phi, T, alpha, w0)
    free = np.isfinite(alpha)
    A = Phi @ W.T  # (N, K′)
    A = A[:, 0] if T.ndim == 1 else A
    log_lik = _log_likelihood(A, T)
    roots, tau = _roots(A, T)
    R = _columns(Phi, roots, np.flatnonzero(free))  # the model's columns only
    a = alpha[free]
    post = posterior(R, tau, a, 1.0)
    # the mode itself (post.mean is one more Newton step from it, equal up to NEWTON_TOL²)
    w = W[free]
    log_ev = (
        log_lik
        - 0.5 * float(a @ w**2)
        + 0.5 * float(np.log(a).sum())
        - 0.5 * post.logdet_precision
    )
    n_iter, conv = (res.n_iter, bool(res.converged)) if res is not None else (0, True)
    lp = LaplacePosterior(
        w, post.W, post.logdet_precision, float(log_ev), log_lik, A, n_iter, conv
    )
    return (lp, _Working(roots, tau, R, post)) if working else lp


# A candidate's part outside the span of the model, ‖pᵢ‖² = ‖rᵢ‖² − ‖cᵢ‖², is formed by that
# subtraction only while ‖pᵢ‖² ≥ _SPAN_SHARE·‖rᵢ‖²: its rounding, about ε‖rᵢ‖², is then within
# ε/_SPAN_SHARE = 100ε of ‖pᵢ‖²; below, pᵢ = rᵢ − Qcᵢ is formed, as in sparsity_quality.
_SPAN_SHARE = 1e-2


def _candidate_factors(Phi, Phi2, alpha, work: _Working):
    """s, q of every weight in the working problem at the mode, without forming its R.

    The same sᵢ, qᵢ as ``sparsity_quality(*working_problem(Phi, T, a), alpha, 1.0)`` (Tipping &
    Faul 2003; Bishop (7.98)–(7.103)), in the same square-root form (:func:`_factors`): with
    R_act = QU the model's columns, cᵢ = Qᵀrᵢ and pᵢ = rᵢ − Qcᵢ, Sᵢ = ‖pᵢ‖² + ‖T⁻ᵀcᵢ‖² and
    Qᵢ = pᵢᵀτ + (T⁻ᵀcᵢ)ᵀy. The column of weight (k, i) has entries (PₙDₙ)ₗₖφᵢ(xₙ): φᵢ
    scaled sample by sample, so every cᵢ and rᵢᵀτ come from one product ΦᵀG, G of shape
    (N, (M + 1)K′) from Q and τ (O(NK′CM) flops and no (N·L, K′C) array, where
    sparsity_quality forms R and P); ‖rᵢ‖² = Σₙ φᵢ(xₙ)²‖PₙDₙeₖ‖² from Φ∘Φ; then
    ‖pᵢ‖² = ‖rᵢ‖² − ‖cᵢ‖² and pᵢᵀτ = rᵢᵀτ − cᵢᵀQᵀτ, except for the columns nearly in the span
    (``_SPAN_SHARE``; always the model's own), whose pᵢ is formed.

    Parameters
    ----------
    Phi, Phi2 : ndarrays of shape (N, C)
        Φ and Φ∘Φ.
    alpha : ndarray of shape (K′·C,)
        Prior precisions of all weights, ``inf`` outside the model.
    work : _Working
        The working problem at the mode of `alpha` (:func:`_laplace` with ``working=True``).

    Returns
    -------
    s, q : ndarrays of shape (K′·C,)
    """
    roots, tau = work.roots, work.tau
    N, L, Kp = roots.shape
    act = np.flatnonzero(np.isfinite(alpha))
    M = len(act)
    if M:
        Q, U = qr(work.R, mode="economic", check_finite=False)
    else:
        Q, U = np.zeros((N * L, 0)), np.zeros((0, 0))
    ct = Q.T @ tau
    Z = np.column_stack([Q, tau]).reshape(N, L, M + 1)
    if L == 1:  # two classes: PₙDₙ = √bₙ
        G = Z[:, 0, :] * roots[:, 0]
        d = roots[:, 0] ** 2
    else:
        G = np.einsum("nlm,nlk->nmk", Z, roots).reshape(N, (M + 1) * Kp)
        d = np.einsum("nlk,nlk->nk", roots, roots)
    # [C; rᵀτ], columns (k, i); Φᵀ G rather than Gᵀ Φ: OpenBLAS's faster layout here
    F = (Phi.T @ G).T.reshape(M + 1, Kp * Phi.shape[1])
    C, rt = F[:M], F[M]
    norm2 = (Phi2.T @ d).T.ravel()  # ‖rᵢ‖²
    inside = np.einsum("ij,ij->j", C, C)
    pn, pt = norm2 - inside, rt - C.T @ ct
    near = np.flatnonzero(inside > (1.0 - _SPAN_SHARE) * norm2)
    if len(near):
        P = _columns(Phi, roots, near) - Q @ C[:, near]
        pn[near] = np.einsum("ij,ij->j", P, P)
        pt[near] = P.T @ (tau - Q @ ct)
    T, y, _ = _covariance_root(U, ct, alpha[act])
    s, q, _, _ = _factors(pn, pt, C, T, y, alpha, act, work.post)
    return s, q


def _check_targets(Phi, T):
    """0/1 targets (N,) or one-hot rows (N, K ≥ 2), as floats."""
    T = np.asarray(T)
    if T.ndim == 1:
        T = check_binary_labels(T, "t").astype(float)
    else:
        T = check_array(T, "t")
        if (
            T.shape[1] < 2
            or not np.all((T == 0) | (T == 1))
            or np.any(T.sum(axis=1) != 1)
        ):
            raise ValueError(
                "t must be 0/1 labels of shape (N,) or one-hot rows of shape (N, K), "
                "K >= 2."
            )
    check_consistent_length(Phi=Phi, t=T)
    return T


def laplace_posterior(Phi, t, alpha, w0=None) -> LaplacePosterior:
    """The Laplace approximation of the RVM classifier's posterior at fixed α (lecture 000).

    w* maximises ln p(w | t, α) = Σₙ[tₙ ln yₙ + (1 − tₙ) ln(1 − yₙ)] − ½wᵀAw + const
    (yₙ = σ(wᵀφₙ)); its gradient Φᵀ(t − y) − Aw vanishes there, so w* = A⁻¹Φᵀ(t − y); the
    Hessian is −(ΦᵀBΦ + A), B = diag(yₙ(1 − yₙ)), an M × M matrix. Then
    p(w | t, α) ≈ N(w | w*, Σ) with Σ = (ΦᵀBΦ + A)⁻¹, and
    p(t | α) ≈ p(t | w*) p(w* | α) (2π)^{M/2} |Σ|^{1/2}.
    For the softmax, yₙₖ = exp(aₙₖ)/Σⱼ exp(aₙⱼ) with one weight vector per class, and ΦᵀBΦ is
    the (KM × KM) block Hessian Σₙ Λₙ ⊗ φₙφₙᵀ, Λₙ = diag(yₙ) − yₙyₙᵀ (Bishop (4.110)).

    Parameters
    ----------
    Phi : array_like of shape (N, M)
    t : array_like of shape (N,) or (N, K)
        0/1 labels (sigmoid), or one-hot rows (softmax, K ≥ 2 weight vectors).
    alpha : array_like of shape (M,) or (K, M)
        Prior precisions, one per weight; ``inf`` leaves a weight out (fixed at 0).
    w0 : array_like of the shape of `alpha`, optional
        Starting point of the Newton iteration (default 0).

    Returns
    -------
    LaplacePosterior
        Over the weights with finite α, row-major (class, basis function) for the softmax.
    """
    Phi = check_array(Phi, "Phi")
    T = _check_targets(Phi, t)
    K = 1 if T.ndim == 1 else T.shape[1]
    alpha = _check_alpha(np.asarray(alpha, float)).reshape(-1)
    if alpha.size != K * Phi.shape[1]:
        raise ValueError(
            f"alpha must have shape {(Phi.shape[1],) if K == 1 else (K, Phi.shape[1])}"
            f"; got {np.shape(alpha)}."
        )
    alpha = alpha.reshape(K, -1)
    w0 = (
        np.zeros(alpha.shape)
        if w0 is None
        else check_array(np.reshape(w0, (-1,)), "w0", ndim=1).reshape(alpha.shape)
    )
    return _laplace(Phi, T, alpha, w0)
