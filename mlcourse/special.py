"""Numerically stable link functions, shared by every model.

Naive formulas overflow: ``1 / (1 + exp(-a))`` warns for ``a = -1000`` and ``log(sigmoid(a))``
returns ``-inf`` there. These wrappers use SciPy's stable kernels, so callers never see NaN
from large activations.

=====================  ===========================================  ===========================
function               definition                                   stable route
=====================  ===========================================  ===========================
``sigmoid(a)``         σ(a) = 1 / (1 + e^{-a}), Bishop (4.59)       ``scipy.special.expit``
``log_sigmoid(a)``     ln σ(a) = -ln(1 + e^{-a})                    ``scipy.special.log_expit``
``softmax(A)``         e^{a_k} / Σ_j e^{a_j}, Bishop (4.62)         shift by the max
``log_softmax(A)``     a_k - ln Σ_j e^{a_j}                         ``logsumexp``
``probit(a)``          Φ(a) = ∫_{-∞}^a N(θ|0,1) dθ, Bishop (4.114)  ``scipy.special.ndtr``
``log_probit(a)``      ln Φ(a)                                      ``scipy.special.log_ndtr``
=====================  ===========================================  ===========================
"""

from __future__ import annotations

import numpy as np
from scipy import special as _sp

LOG_2PI = float(np.log(2.0 * np.pi))  # ln 2π, in every Gaussian log density

__all__ = [
    "sigmoid",
    "log_sigmoid",
    "softmax",
    "log_softmax",
    "logsumexp",
    "probit",
    "log_probit",
]

logsumexp = _sp.logsumexp


def sigmoid(a):
    """Logistic sigmoid σ(a) = 1/(1 + e^{-a}), elementwise; never overflows."""
    return _sp.expit(a)


def log_sigmoid(a):
    """ln σ(a), elementwise; exact for large negative `a` (ln σ(a) ≈ a) and never -inf."""
    return _sp.log_expit(a)


def softmax(A, axis: int = -1):
    """Softmax along `axis`: exp(a_k) / Σ_j exp(a_j) (Bishop 4.62), shifted for stability."""
    return _sp.softmax(A, axis=axis)


def log_softmax(A, axis: int = -1):
    """Log-softmax along `axis`: a_k − logsumexp(a)."""
    return _sp.log_softmax(A, axis=axis)


def probit(a):
    """Standard normal CDF Φ(a) = ½(1 + erf(a/√2)), elementwise.

    The activation of probit regression (lecture 003 calls it the probit function); the probit
    link is its inverse Φ⁻¹.
    """
    return _sp.ndtr(a)


def log_probit(a):
    """ln Φ(a), accurate far into the lower tail."""
    return _sp.log_ndtr(np.asarray(a, dtype=float))
