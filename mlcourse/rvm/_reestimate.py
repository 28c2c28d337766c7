"""The lecture's re-estimation of the hyperparameters (lecture 001; Bishop 7.87–7.89): the
derivatives of the evidence, αᵢ ← γᵢ/mᵢ², β⁻¹ ← ‖t − Φm‖²/(N − Σγᵢ) with its noise floor, on the
posterior of ``_sparse_bayes``."""

from __future__ import annotations

import numpy as np

from ._sparse_bayes import PRUNE_ALPHA, Posterior, _posterior, _residual, _split

# The estimated noise precision is capped, β ≤ 1/(NOISE_FLOOR · var t) (mean(t²) if t is constant),
# so the estimated noise variance β⁻¹ is at least NOISE_FLOOR · var(t): β stays finite even for a
# perfect fit. Tipping's SparseBayes applies the same cap, β ≤ BetaMaxFactor/var(t) with
# BetaMaxFactor = 1e6. The evidence's largest terms grow with β (tᵀC⁻¹t ≤ β‖t‖²), and with them
# its rounding error, about 1e-15·β‖t‖² (_fast.MAX_DROP): at the cap 1e-9·‖t‖²/var(t) nats.
NOISE_FLOOR = 1e-6

__all__ = ["NOISE_FLOOR", "evidence_gradient", "reestimate"]


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


def _spread(t):
    """var(t), or mean(t²) when t is constant: the scale of the noise floor."""
    return float(np.var(t)) or float(np.mean(t**2))


def _noise_floor(t):
    """NOISE_FLOOR · var(t) (mean(t²) if t is constant, 1 if t is all zero): the least β⁻¹."""
    spread = _spread(t)
    return NOISE_FLOOR * (max(spread, np.finfo(float).tiny) if spread > 0 else 1.0)


def _beta_update(rss, n, gamma, floor):
    """β⁻¹ ← ‖r‖²/(N − Σγ), lecture 001 / Bishop (7.88), with β⁻¹ ≥ `floor` (also when r = 0).

    `rss` = ‖t − Φm‖² of `n` targets; `gamma` the γᵢ of the basis functions (0 for those not in
    the model).
    """
    dof = max(n - gamma.sum(), np.finfo(float).eps * n)  # N − Σγ > 0
    return dof / rss if rss > dof * floor else 1.0 / floor


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
