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


def logsumexp(a, axis=None, b=None, keepdims: bool = False, return_sign: bool = False):
    """ln Σ exp(a) along `axis`, as ``scipy.special.logsumexp`` (which it calls for `b`,
    `return_sign`, complex, 0-d or empty input).

    For real `a` it is SciPy's arithmetic without SciPy's array-API machinery, which costs
    several times the arithmetic on a mixture's (N, M) log-densities. The largest term (m copies
    of it) is set apart and the rest summed below it,

        ln Σᵢ exp(aᵢ) = max a + ln m + log1p(Σ_{aᵢ < max a} exp(aᵢ − max a) / m),

    so the result is SciPy's to the bit and never overflows.

    Parameters
    ----------
    a : array_like
    axis : None or int or tuple of ints, default=None
        The axes summed over; None: all of them.
    b : array_like, optional
        Weights: ln Σ bᵢ exp(aᵢ) (SciPy's route).
    keepdims : bool, default=False
        Keep the summed axes, with length 1.
    return_sign : bool, default=False
        Also return the sign of Σ bᵢ exp(aᵢ) (SciPy's route).

    Returns
    -------
    ndarray or float
        `a`'s shape without `axis` (with it, of length 1, if `keepdims`); a scalar if no axis
        is left.
    """
    a = np.asarray(a)
    if (
        b is not None
        or return_sign
        or a.ndim == 0
        or a.size == 0
        or a.dtype.kind not in "biuf"
    ):
        return _sp.logsumexp(
            a, axis=axis, b=b, keepdims=keepdims, return_sign=return_sign
        )
    if a.dtype.kind != "f":
        a = a.astype(float)
    a_max = np.max(a, axis=axis, keepdims=True)
    top = a == a_max
    m = np.sum(top, axis=axis, keepdims=True, dtype=a.dtype)
    # inf − inf at an infinite maximum gives NaN: those terms are set to 0 below
    with np.errstate(invalid="ignore"):
        terms = np.exp(a - a_max)
    terms[top] = 0.0
    s = np.sum(terms, axis=axis, keepdims=True, dtype=a.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = np.where(s == 0, s, s / m)
        out = np.log1p(s) + np.log(m) + a_max
    if not keepdims:
        out = np.squeeze(out, axis=axis)
    return out[()] if out.ndim == 0 else out


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
