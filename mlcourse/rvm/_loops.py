"""The two evidence-maximisation loops of RVM classification, over a design matrix Φ (N, M).

Each outer iteration finds the Laplace approximation at the current α (``_laplace_step``, warm
started from the previous mode) and then changes α with the regression RVM's own rules, applied
to the equivalent Gaussian problem at the mode (Tipping 2001 §3; Tipping & Faul 2003 §4):

* :func:`fit_em_classifier` re-estimates every αᵢ at once, by MacKay's αᵢ ← γᵢ/wᵢ*² (lecture 000)
  or by the EM form αᵢ ← 1/(wᵢ*² + Σᵢᵢ) (lecture 002: σ²_wᵢ = wᵢ*² + Σᵢᵢ);
* :func:`fit_sequential_classifier` is Tipping & Faul's sequential algorithm: sᵢ, qᵢ from
  :func:`sparsity_quality` at the mode, then the single addition, re-estimation or deletion that
  the regression chapter's ℓ(αᵢ) says gains most.

As in the regression loops, the basis functions are first scaled to unit norm (w̃ᵢ = wᵢ‖φᵢ‖,
α̃ᵢ = αᵢ/‖φᵢ‖²), so that ``PRUNE_ALPHA`` and the initial α mean the same for every kernel;
the targets are labels and need no scaling. Results are returned in the original scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..utils.validation import check_array, check_option, check_scalar
from ._fast import (
    _ACTION,
    MAX_DROP,
    MIN_GAIN,
    alpha_marginal,
    optimal_alpha,
    sparsity_quality,
)
from ._laplace_step import LaplacePosterior, _check_targets, _laplace, working_problem
from ._loop_state import EvidenceFit
from ._reestimate import _mackay
from ._sparse_bayes import PRUNE_ALPHA, _check_alpha

__all__ = ["ClassifierFit", "fit_em_classifier", "fit_sequential_classifier", "RULES"]

RULES = ("mackay", "em")


@dataclass
class ClassifierFit(EvidenceFit):
    """Result of an evidence maximisation for classification: :class:`EvidenceFit` with α of
    shape (M,), or (K, M) for the softmax, the Laplace mode w* as ``mean`` and the Laplace
    estimate of ln p(t | α) as ``log_evidence``."""

    @property
    def weights(self) -> np.ndarray:
        """All weights, of the shape of ``alpha``: w* in the model, 0 elsewhere."""
        w = np.zeros(self.alpha.size)
        w[self.active] = self.mean
        return w.reshape(self.alpha.shape)


def _setup(Phi, t, max_iter, tol):
    """Validated Φ on unit-norm columns, the targets, the column norms and K′ (1 or K)."""
    Phi = check_array(Phi, "Phi")
    T = _check_targets(Phi, t)
    check_scalar(max_iter, "max_iter", low=1, integer=True)
    check_scalar(tol, "tol", low=0)
    norms = np.sqrt(np.einsum("ij,ij->j", Phi, Phi))
    scale = np.where(norms > 0, norms, 1.0)
    return Phi / scale, T, scale, 1 if T.ndim == 1 else T.shape[1]


def _result(
    alpha, lp: LaplacePosterior, scale, squeeze, n_iter, converged, history, actions=()
):
    """Back to the original scale: αᵢ = α̃ᵢ‖φᵢ‖², wᵢ = w̃ᵢ/‖φᵢ‖, W (Σ = WᵀW) likewise."""
    full_scale = np.broadcast_to(scale, alpha.shape).ravel()
    active = np.flatnonzero(np.isfinite(alpha).ravel())
    s = full_scale[active]
    out = alpha * scale**2
    history.append(lp.log_evidence)
    return ClassifierFit(
        out[0] if squeeze else out,
        active,
        lp.mean / s,
        lp.W / s[None, :],
        lp.log_evidence,
        n_iter,
        converged,
        history,
        list(actions),
    )


def _weights(alpha, lp):
    """The mode as an array of the shape of α (0 for weights outside the model): a warm start."""
    W = np.zeros(alpha.shape)
    W[np.isfinite(alpha)] = lp.mean
    return W


def fit_em_classifier(
    Phi, t, *, rule: str = "mackay", alpha0=1.0, max_iter: int = 1000, tol: float = 1e-3
) -> ClassifierFit:
    """Re-estimate every α at the Laplace mode until it settles (lecture 000; Tipping 2001 §3).

    Each iteration finds w* and Σ at the current α (Newton, warm started), then
    ``rule="mackay"``: αᵢ ← γᵢ/wᵢ*², γᵢ = 1 − αᵢΣᵢᵢ (lecture 000; as :func:`fit_em`), or
    ``rule="em"``: αᵢ ← 1/(wᵢ*² + Σᵢᵢ) (lecture 002's σ²_wᵢ = wᵢ*² + Σᵢᵢ, the M-step of EM with
    w as hidden data). Both have the same fixed points. αᵢ above ``PRUNE_ALPHA`` (on unit-norm
    columns) are pruned. Converged when nothing was pruned and every |Δ ln αᵢ| < `tol`.

    Parameters
    ----------
    Phi : array_like of shape (N, M)
    t : array_like of shape (N,) or (N, K)
        0/1 labels (sigmoid), or one-hot rows (softmax: one α per weight per class).
    rule : {"mackay", "em"}
    alpha0 : float > 0 or array_like of the shape of α
        A float: every weight starts in the model with α̃ᵢ = `alpha0` on unit-norm columns. An
        array: the initial α in the units of `Phi` (``inf`` leaves a weight out; the loop can
        prune but never add).
    max_iter : int ≥ 1
    tol : float ≥ 0
    """
    B, T, scale, K = _setup(Phi, t, max_iter, tol)
    rule = check_option(rule, "rule", RULES)
    shape = (K, B.shape[1])
    if np.ndim(alpha0) == 0:
        check_scalar(alpha0, "alpha0", low=0, low_inclusive=False)
        alpha = np.full(shape, float(alpha0))
    else:
        a0 = np.asarray(alpha0, float)
        if a0.size != np.prod(shape):
            raise ValueError(
                f"alpha0 must be a scalar or have {np.prod(shape)} entries; "
                f"got shape {a0.shape}."
            )
        alpha = _check_alpha(a0.reshape(shape), "alpha0") / scale**2
    W, history, converged, it = np.zeros(shape), [], False, 0
    for it in range(1, max_iter + 1):
        lp = _laplace(B, T, alpha, W)
        history.append(lp.log_evidence)
        free = np.isfinite(alpha)
        a = alpha[free]
        if rule == "mackay":
            new, _ = _mackay(a, lp)
        else:
            new = 1.0 / (lp.mean**2 + lp.var)
            new[new > PRUNE_ALPHA] = np.inf
        kept = np.isfinite(new)
        change = np.abs(np.log(new[kept] / a[kept]))
        converged = kept.all() and change.max(initial=0.0) < tol
        W = _weights(alpha, lp)
        alpha[free] = new
        W[~np.isfinite(alpha)] = 0.0
        if converged:
            break
    lp = _laplace(B, T, alpha, W)
    return _result(alpha, lp, scale, K == 1 and T.ndim == 1, it, converged, history)


def fit_sequential_classifier(
    Phi, t, *, max_iter: int = 1000, tol: float = 1e-3
) -> ClassifierFit:
    """Tipping & Faul's (2003) sequential algorithm for classification, from the empty model.

    Each iteration takes the Laplace approximation at the current α, the sparsity and quality
    factors sᵢ, qᵢ of every candidate weight in the equivalent Gaussian problem
    (:func:`working_problem`, :func:`sparsity_quality`; at the mode Qᵢ = φᵢᵀ(t − y)), and makes
    the one change — add (θᵢ = qᵢ² − sᵢ > 0, αᵢ = ∞), re-estimate αᵢ = sᵢ²/θᵢ, or delete
    (θᵢ ≤ 0) — whose ℓ(αᵢ) gain is largest (Bishop (7.97)–(7.101)); then it re-finds the mode.
    The gain is exact only for the Gaussian approximation at the old mode: once the mode moves,
    the Laplace evidence can end slightly lower (on Ripley's data by up to 0.03 nats in a step).
    Such changes are kept, as in Tipping's SparseBayes: undoing them and skipping the candidate
    was tried, and ended at lower maxima, several times slower. Converged when no change gains
    more than rounding (``MIN_GAIN`` + ``MAX_DROP``·(|ln p| + N), as in the regression loop), or
    the best one re-estimates an αᵢ by |Δ ln αᵢ| < `tol`.

    Parameters
    ----------
    Phi : array_like of shape (N, M)
    t : array_like of shape (N,) or (N, K)
        0/1 labels, or one-hot rows (softmax: the candidates are the K·M weights).
    max_iter : int ≥ 1
        Changes considered (one per iteration).
    tol : float ≥ 0
    """
    B, T, scale, K = _setup(Phi, t, max_iter, tol)
    alpha = np.full((K, B.shape[1]), np.inf)
    n_rows = T.size

    def refit(W):
        return _laplace(B, T, alpha, W)

    def rounding(lp):  # how well the Laplace ln p is known (MAX_DROP)
        return MAX_DROP * (abs(lp.log_evidence) + n_rows)

    lp = refit(np.zeros(alpha.shape))
    history, actions, converged, it = [], [], False, 0
    for it in range(1, max_iter + 1):
        history.append(lp.log_evidence)
        R, tau = working_problem(B, T, lp.activations)
        a = alpha.ravel()
        s, q, _, _ = sparsity_quality(R, tau, a, 1.0)
        new = optimal_alpha(s, q)
        new[new > PRUNE_ALPHA] = np.inf
        lost = ~(new > 0)  # s = 0: a column that is zero on every sample
        new[lost] = a[lost]
        with np.errstate(invalid="ignore"):  # inf − inf for candidates that stay out
            gain = alpha_marginal(new, s, q) - alpha_marginal(a, s, q)
        gain[lost | np.isnan(gain)] = -np.inf
        j = int(np.argmax(gain))
        small = np.isfinite(a[j]) and abs(np.log(new[j] / a[j])) < tol
        if gain[j] <= MIN_GAIN + rounding(lp) or small:
            converged = True
            break
        actions.append(_ACTION[bool(np.isfinite(a[j])), bool(np.isfinite(new[j]))])
        W = _weights(alpha, lp)
        alpha.flat[j] = new[j]
        W.flat[j] = W.flat[j] if np.isfinite(new[j]) else 0.0
        lp = refit(W)
    return _result(alpha, lp, scale, T.ndim == 1, it, converged, history, actions)
