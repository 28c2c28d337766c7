"""The finite-basis Gaussian process as a Kalman filter over the weights (lecture 002).

With a finite basis φ(x) of M functions, the GP with kernel σ_w² φ(x)ᵀφ(x′) is Bayesian linear
regression, and its weight posterior can be updated one measurement at a time. The state is the
weight vector, constant in "time" (identity transition, no process noise):

    w^{n+1} = w^n,  w^0 ~ N(0, σ_w² I);    z_n = φ(x_n)ᵀ w^n + v_n,  v_n ~ N(0, σ_v²).

Each measurement costs O(M²), whatever the number of points seen before, but the kernel trick is
lost: the filter needs φ(x) explicitly.
"""

from __future__ import annotations

from numbers import Real

import numpy as np

from ..base import BaseEstimator, RegressorMixin
from ..kernels import design_matrix
from ..special import LOG_2PI
from ..utils.validation import Interval, validate_data

__all__ = ["KalmanGPRegressor", "affine_basis"]


def affine_basis(X) -> np.ndarray:
    """φ(x) = [1, x_1, …, x_p]: the lecture's p + 1 features (a bias and the inputs).

    X : array_like of shape (n, p), finite → Φ of shape (n, p + 1)
    (:func:`mlcourse.kernels.design_matrix` with a bias column).
    """
    return design_matrix(X)


class KalmanGPRegressor(RegressorMixin, BaseEstimator):
    """Recursive (Kalman-filter) Bayesian linear regression = a GP with a degenerate kernel.

    Measurement update for a new point (x, z), from (ŵ, Σ) = (ŵ^{N−1|N−1}, Σ^{N−1|N−1}):

    ====================  ============================================  ========================
    innovation            e = z − φᵀŵ                                   lecture 002
    innovation variance   s = σ_v² + φᵀΣφ                               denominator of K_N
    Kalman gain           K_N = Σφ / s  (= Σ^{N|N}φ / σ_v²)             lecture 002
    mean                  ŵ ← ŵ + K_N e
    covariance            Σ ← Σ − (Σφ)(Σφ)ᵀ / s  (= (I − K_N φᵀ)Σ)       Bishop (3.51) recursively
    ====================  ============================================  ========================

    After all N points, (ŵ, Σ) is the batch posterior (Bishop (3.53)–(3.54) with
    α = σ_w⁻², β = σ_v⁻²), and the predictions equal those of a GP with the kernel
    :class:`~mlcourse.kernels.BasisKernel` (σ_w² φᵀφ).

    **The covariance is kept as a square root** (Potter's filter): Σ = CCᵀ, C₀ = σ_w I, and

        f = Cᵀφ,   s = σ_v² + fᵀf,   Σφ = Cf,   C ← C − β (Cf) fᵀ,   β = 1/(s + √(s σ_v²)),

    which is the update above, (I − f fᵀ/s) = (I − β f fᵀ)², applied to the factor. Σ = CCᵀ
    then stays symmetric and positive semi-definite in floating point, and s ≥ σ_v² > 0 is
    never negative; the plain update Σ − (Σφ)(Σφ)ᵀ/s subtracts two nearly equal matrices and
    loses about κ(Σ⁻¹)·ε relative (with σ_v² = 1e-6 and inputs of size 1e3 the difference from
    the batch posterior reaches 1e-4; the square root keeps it near 1e-11). Inputs so large that
    ‖Cᵀφ‖² overflows raise ``ValueError`` (rescale X).

    Parameters
    ----------
    basis : callable, optional
        Maps inputs (n, p) to the design matrix Φ (n, M); default :func:`affine_basis`.
    weight_variance : float > 0
        Prior variance σ_w² of each weight.
    noise_variance : float > 0
        Measurement-noise variance σ_v².

    Attributes
    ----------
    mean_ : ndarray (M,), ŵ^{N|N}
    cov_ : ndarray (M, M), Σ^{N|N} = C Cᵀ
    cov_factor_ : ndarray (M, M), the square root C (not triangular)
    n_seen_ : int, N
    n_features_in_ : int, number of input columns p (before the basis)
    innovations_, innovation_variances_ : ndarray (N,), e_n and s_n of every update
    log_marginal_likelihood_value_ : float, Σ_n ln N(e_n | 0, s_n) = ln p(z_1, …, z_N)
        (the prediction-error decomposition of the marginal likelihood)

    See Also
    --------
    GaussianProcessRegressor : the same prediction from the Gram matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.gp import KalmanGPRegressor
    >>> X = np.linspace(0, 1, 20)[:, None]
    >>> y = 2.0 * X[:, 0] - 1.0
    >>> model = KalmanGPRegressor(noise_variance=1e-4).fit(X, y)  # the basis [1, x]
    >>> model.predict([[0.25], [2.0]]).round(3).tolist()
    [-0.5, 3.0]
    """

    _parameter_constraints = {
        "basis": [None, callable],
        "weight_variance": [Interval(Real, 0, None, closed="neither")],
        "noise_variance": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, basis=None, weight_variance=1.0, noise_variance=1e-2):
        self.basis = basis
        self.weight_variance = weight_variance
        self.noise_variance = noise_variance

    def _features(self, X):
        """Φ = basis(X), or [1, X] for the default :func:`affine_basis`."""
        return design_matrix(X, self.basis, bias=self.basis is None)

    def _start(self, n_features):
        self.mean_ = np.zeros(n_features)
        self.cov_factor_ = np.sqrt(float(self.weight_variance)) * np.eye(n_features)
        self.cov_ = self.weight_variance * np.eye(n_features)
        self.n_seen_ = 0
        self.innovations_ = np.empty(0)
        self.innovation_variances_ = np.empty(0)
        self.log_marginal_likelihood_value_ = 0.0

    def fit(self, X, y):
        """Start from the prior N(0, σ_w² I) and apply one measurement update per row, in order.

        Parameters
        ----------
        X : array_like of shape (n, p)
            Inputs; the basis maps them to Φ of shape (n, M).
        y : array_like of shape (n,)
            Targets z.

        Returns
        -------
        self : KalmanGPRegressor
            With ``mean_`` (M,), ``cov_`` (M, M), ``innovations_`` and
            ``innovation_variances_`` (n,) and ``log_marginal_likelihood_value_`` set.
        """
        self._reset()
        return self.partial_fit(X, y)

    def partial_fit(self, X, y):
        """Continue from the current posterior (the prior if unfitted) with more measurements.

        Parameters
        ----------
        X : array_like of shape (n, p)
            Inputs, with the same p as before.
        y : array_like of shape (n,)
            Targets z, applied in row order.

        Returns
        -------
        self : KalmanGPRegressor
            ``mean_``, ``cov_`` updated; ``n_seen_`` increased by n; n innovations and their
            variances appended; their log densities added to ``log_marginal_likelihood_value_``.
        """
        first = not hasattr(self, "mean_")
        # more data for a fitted filter must have the same columns (reset=False checks them)
        X, z = validate_data(self, X, y, reset=first, y_numeric=True)
        Phi = self._features(X)
        if first:
            self._start(Phi.shape[1])
        w, C, var_v = (
            self.mean_.copy(),
            self.cov_factor_.copy(),
            float(self.noise_variance),
        )
        e, s = np.empty(len(z)), np.empty(len(z))
        for n, (phi, zn) in enumerate(zip(Phi, z)):
            with np.errstate(
                over="ignore", invalid="ignore"
            ):  # checked on the next line
                f = C.T @ phi
                s[n] = var_v + f @ f  # innovation variance, ≥ σ_v²
            if not np.isfinite(s[n]):
                raise ValueError(
                    f"X is too large for the filter: row {n} gives the innovation "
                    f"variance σ_v² + φᵀΣφ = {s[n]} (φ = basis(x) of size up to "
                    f"{np.max(np.abs(phi)):.3g}); rescale X."
                )
            u = C @ f  # Σφ
            e[n] = zn - phi @ w  # innovation
            w += u * (e[n] / s[n])  # ŵ + K_N e, K_N = Σφ/s
            C -= np.outer(u, f / (s[n] + np.sqrt(s[n] * var_v)))  # Potter's square root
        S = C @ C.T
        self.mean_, self.cov_factor_, self.cov_ = (
            w,
            C,
            0.5 * (S + S.T),
        )  # exactly symmetric
        self.n_seen_ += len(z)
        self.innovations_ = np.r_[self.innovations_, e]
        self.innovation_variances_ = np.r_[self.innovation_variances_, s]
        self.log_marginal_likelihood_value_ += float(
            -0.5 * np.sum(e**2 / s + np.log(s) + LOG_2PI)
        )
        return self

    def predict(self, X, return_std=False):
        """Posterior of the latent f = φᵀw at `X`: mean φᵀŵ, variance φᵀΣφ.

        The lecture's Var{z^{N+1}} = φᵀΣ^{N|N}φ + σ_v² adds the noise variance: it is the
        innovation variance of the next measurement.

        Parameters
        ----------
        X : array_like of shape (m, p)
        return_std : bool
            Also return the standard deviation of f.

        Returns
        -------
        mean : ndarray of shape (m,)
        std : ndarray of shape (m,), only with ``return_std=True``
        """
        X = validate_data(self, X, reset=False)
        Phi = self._features(X)
        mean = Phi @ self.mean_
        if not return_std:
            return mean
        var = np.einsum("ij,jk,ik->i", Phi, self.cov_, Phi)
        return mean, np.sqrt(np.maximum(var, 0.0))
