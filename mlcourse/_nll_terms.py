"""Per-sample Bernoulli negative log-likelihoods and their first two derivatives in the
activation, for the logistic and the probit link: the terms from which
:mod:`mlcourse._logistic` builds its objectives, E = Σ_n ℓ(a_n, t_n) + prior.
"""

from __future__ import annotations

import numpy as np
from scipy.special import erfcx as _erfcx

from .special import log_probit, log_sigmoid, sigmoid

__all__ = ["logit_nll_terms", "probit_nll_terms", "PROBIT_TAIL"]


def logit_nll_terms(a, t):
    """Per-sample −ln p(t_n | a_n) for y_n = σ(a_n), and its first two derivatives in a_n.

    ℓ = −{t ln σ(a) + (1 − t) ln σ(−a)} (cross-entropy, lecture 003 §4-3-2 / Bishop (4.90)),
    for t ∈ {0, 1};
    ℓ′ = σ(a) − t = y − t, ℓ″ = σ(a)(1 − σ(a)) = R_nn (Bishop (4.98)); computed with the
    stable ln σ, so that no term overflows for large |a|.

    Returns
    -------
    nll, d1, d2 : ndarray of shape (N,)
    """
    y = sigmoid(a)
    nll = -log_sigmoid((2.0 * t - 1.0) * a)            # −ln σ(a) if t = 1, −ln σ(−a) if t = 0
    return nll, y - t, y * sigmoid(-a)


def probit_nll_terms(a, t):
    """Per-sample −ln p(t_n | a_n) for y_n = Φ(a_n) (probit), and its derivatives in a_n.

    With s = 2t − 1 and u = s·a, ℓ = −ln Φ(u); ℓ′ = −s λ(u) and ℓ″ = λ(u)(u + λ(u)) ∈ (0, 1),
    where λ(u) = N(u | 0, 1)/Φ(u) (the inverse Mills ratio; Bishop §4.3.5). λ is computed as
    √(2/π)/erfcx(−u/√2), accurate to rounding for every u. For u < PROBIT_TAIL, where
    u + λ ≈ −1/u would lose all its digits to cancellation, ℓ″ comes from its asymptotic series
    (see :func:`_probit_curvature_tail`), so it stays accurate and ≤ 1 however far into the
    tail u is.
    """
    s = 2.0 * t - 1.0
    u = s * a
    log_cdf = log_probit(u)
    lam = _SQRT_2_OVER_PI / _erfcx(-u * _SQRT_HALF)
    with np.errstate(over="ignore", invalid="ignore"):   # only where the tail series replaces it
        d2 = lam * (u + lam)
    tail = u < PROBIT_TAIL
    if np.any(tail):
        d2 = np.asarray(d2)                          # (a 0-d array for a scalar u, as before)
        d2[tail] = _probit_curvature_tail(np.asarray(u)[tail])  # the series only where needed
    return -log_cdf, -s * lam, d2


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
_S_COEFS = _SIGNS * _DOUBLE_FACTORIALS[:_TAIL_TERMS]         # (−1)^m (2m − 1)!!, (−1)!! = 1
_P_COEFS = _SIGNS * _DOUBLE_FACTORIALS[1:_TAIL_TERMS + 1]    # (−1)^m (2m + 1)!!


def _probit_curvature_tail(u):
    """ℓ″(u) = λ(u)(u + λ(u)) for u ≤ PROBIT_TAIL by its asymptotic series, in (0, 1]."""
    v = (1.0 / np.asarray(u, dtype=float)) ** 2
    powers = v[..., None] ** np.arange(_TAIL_TERMS)               # v^m, m = 0 … 9
    S = powers @ _S_COEFS
    P = powers @ _P_COEFS
    return P / (S * S)
