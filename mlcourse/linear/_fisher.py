"""Fisher's linear discriminant for two classes, Bishop §4.1.4: a linear classifier's direction,
beside the generative and discriminative ones of this subpackage.

Lecture 002 (the PCA chapter) contrasts it with PCA: PCA keeps the direction of largest
variance whatever the labels, Fisher's direction maximises the separation of the projected
class means relative to the within-class spread.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..utils.validation import check_array, check_consistent_length, encode_labels

__all__ = ["fisher_direction", "fisher_criterion"]


# S_W counts as singular when (smallest / largest Cholesky pivot)² ≤ this · D: its condition
# number is then beyond 1/(D·eps), and S_W⁻¹(m₂ − m₁) would be rounding noise.
SINGULAR_RTOL = np.finfo(float).eps


def _two_class_scatter(X, y):
    X = check_array(X, "X", min_samples=2)
    classes, index = encode_labels(y, "y", n_classes=2)
    check_consistent_length(X=X, y=index)
    means = np.stack([X[index == c].mean(axis=0) for c in (0, 1)])
    within = X - means[index]
    return means, within.T @ within  # class means, S_W (Bishop (4.28))


def fisher_direction(X, y) -> np.ndarray:
    """Fisher's discriminant direction w ∝ S_W⁻¹(m₂ − m₁) for two classes, Bishop (4.30).

    Parameters
    ----------
    X : array_like of shape (N, D)
    y : array_like of shape (N,)
        Two class labels; m₁ is the mean of the first (sorted) label, m₂ of the second.

    Returns
    -------
    w : ndarray of shape (D,)
        Unit vector maximising J(w) = (wᵀ(m₂ − m₁))² / wᵀS_Ww; oriented so wᵀ(m₂ − m₁) > 0.

    Raises
    ------
    ValueError
        Bad X or y, or a singular within-class scatter S_W (e.g. a feature that is constant
        within both classes; project on a few principal components first).
    """
    means, s_w = _two_class_scatter(X, y)
    try:
        chol = linalg.cho_factor(s_w, check_finite=False)
    except linalg.LinAlgError:
        chol = None
    pivots = None if chol is None else np.abs(np.diag(chol[0]))
    if (
        pivots is None
        or (pivots.min() / pivots.max()) ** 2 <= SINGULAR_RTOL * s_w.shape[0]
    ):
        raise ValueError(
            "The within-class scatter S_W of X is singular (a direction has no "
            "within-class variance); reduce X, e.g. with PCA, first."
        )
    w = linalg.cho_solve(chol, means[1] - means[0], check_finite=False)
    return w / np.linalg.norm(w)


def fisher_criterion(X, y, w) -> np.ndarray:
    """Fisher's criterion J(w) = (m₂ − m₁)² / (s₁² + s₂²) of projections on w, Bishop (4.25).

    Here m_k = wᵀm_k are the projected class means and s_k² = Σ_{n∈C_k}(wᵀx_n − m_k)² the
    projected within-class scatters.

    Parameters
    ----------
    X : array_like of shape (N, D)
    y : array_like of shape (N,), two classes
    w : array_like of shape (D,) or (K, D)
        One direction, or K directions as rows (need not be unit length: J is scale-free).

    Returns
    -------
    float or ndarray of shape (K,)
    """
    means, s_w = _two_class_scatter(X, y)
    W = np.asarray(w, dtype=float)
    single = W.ndim == 1
    W = check_array(W[None, :] if single else W, "w")
    if W.shape[1] != means.shape[1]:
        raise ValueError(
            f"w has {W.shape[1]} entries per direction; X has {means.shape[1]} "
            "features."
        )
    between = (W @ (means[1] - means[0])) ** 2
    within = np.einsum("kd,de,ke->k", W, s_w, W)
    if np.any(within <= 0):
        raise ValueError(
            "A direction w has zero within-class variance (or w = 0); J(w) is "
            "undefined."
        )
    J = between / within
    return float(J[0]) if single else J
