"""The Nadaraya–Watson estimator: the conditional mean E[z | x] of a Parzen estimate of p(x, z)
with Gaussian kernels (lecture 002, "Nadaraya–Watson Estimator"; Bishop (6.45)–(6.48)).

With p̂(x, z) = (1/N) Σ_n N(x | x_n, σ_x² I) N(z | z_n, σ_z² I),

    y(x) = ∫ z p̂(x, z) dz / ∫ p̂(x, z) dz = Σ_n k(x, x_n) z_n,
    k(x, x_n) = exp(−‖x − x_n‖²/2σ_x²) / Σ_i exp(−‖x − x_i‖²/2σ_x²),

a normalised RBF network with one unit per training point and the targets as its weights; σ_z
cancels.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import RegressorMixin

from ..kernels import sq_dist
from ..utils.validation import Interval, validate_data
from ._base import _RBFEstimator

__all__ = ["NadarayaWatson", "nadaraya_watson_weights"]


def nadaraya_watson_weights(X, X_fit, bandwidth: float) -> np.ndarray:
    """The normalised weights k(x, x_n), shape (n, N); each row sums to 1.

    Each row's exponents are shifted by the nearest training point's (the log-sum-exp trick):
    k(x, x_n) = exp(−(d_n² − d_min²)/2σ²) / Σ_i exp(−(d_i² − d_min²)/2σ²). The nearest point's
    term is exp(0) = 1, so the denominator is at least 1 and never underflows. Far from all data,
    where every unshifted weight underflows to 0 (and the plain formula gives 0/0 = NaN), the
    weights concentrate on the nearest training point(s): the estimate is then the nearest
    neighbour's target (the mean of the targets of points tied for nearest), which is the limit
    of the exact formula.
    """
    d2 = sq_dist(X, X_fit)
    d2 -= d2.min(axis=1, keepdims=True)
    d2 *= -0.5 / bandwidth**2
    K = np.exp(d2, out=d2)
    K /= K.sum(axis=1, keepdims=True)
    return K


class NadarayaWatson(RegressorMixin, _RBFEstimator):
    """Nadaraya–Watson kernel regression with a Gaussian kernel of width `bandwidth` (σ_x).

    Parameters
    ----------
    bandwidth : float > 0
        σ_x, the kernel's standard deviation in each input dimension.

    Attributes
    ----------
    X_fit_ : ndarray of shape (N, D)
    y_fit_ : ndarray of shape (N,) or (N, C)
    n_features_in_ : int

    Notes
    -----
    Far from all data the estimate is the nearest neighbour's target, never 0/0: see
    :func:`nadaraya_watson_weights`.

    See Also
    --------
    KernelRidge : a kernel model fitted by least squares.

    Examples
    --------
    >>> from mlcourse.datasets import sinc_data
    >>> from mlcourse.rbf import NadarayaWatson
    >>> X, y = sinc_data(60, 0.1, random_state=0)
    >>> model = NadarayaWatson(bandwidth=0.5).fit(X, y)
    >>> model.predict([[0.0], [5.0]]).round(2).tolist()
    [0.92, -0.11]
    """

    _parameter_constraints = {
        "bandwidth": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, bandwidth=1.0):
        self.bandwidth = bandwidth

    def fit(self, X, y):
        """Store the training data (the estimator is memory-based).

        Parameters
        ----------
        X : array_like of shape (N, D)
        y : array_like of shape (N,) or (N, C)

        Returns
        -------
        self : NadarayaWatson
        """
        self._reset()
        X, y = validate_data(self, X, y, multi_output=True, y_numeric=True)
        self.X_fit_, self.y_fit_ = X, y
        return self

    def predict(self, X) -> np.ndarray:
        """y(x) = Σ_n k(x, x_n) z_n: shape (n,) or (n, C)."""
        X = validate_data(self, X, reset=False)
        return nadaraya_watson_weights(X, self.X_fit_, self.bandwidth) @ self.y_fit_
