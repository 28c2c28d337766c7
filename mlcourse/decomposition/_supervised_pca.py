"""Supervised PCA, or Bayesian factor regression (lecture 002; Yu et al. 2006): one latent z
drives both the inputs x and the target t.

    z ~ N(0, I_r),   x = W_x z + μ_x + ε_x,  ε_x ~ N(0, σ_x² I_p),
                     t = w_tᵀz + μ_t + ε_t,  ε_t ~ N(0, σ_t²).

(x, t) is jointly Gaussian, so the prediction is a Gaussian conditional:

    E(t | x) = μ_t + w_tᵀW_xᵀ(W_xW_xᵀ + σ_x²I_p)⁻¹(x − μ_x)                  (p × p)
             = μ_t + w_tᵀ(I_r + W_xᵀW_x/σ_x²)⁻¹ W_xᵀ(x − μ_x)/σ_x²          (r × r),
    var(t | x) = σ_t² + w_tᵀ(I_r + W_xᵀW_x/σ_x²)⁻¹ w_t.

The model is PPCA of the stacked [x; t] with two noise levels, fitted by the same EM
(:func:`~._latent.fit_em` with two noise groups).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from ..base import RegressorMixin, TransformerMixin
from ..utils.validation import (
    Interval,
    check_not_constant,
    check_random_state,
    validate_data,
)
from ._latent import fit_em, posterior
from ._ppca import latent_dimension
from ._sklearn_base import _LatentBase

__all__ = ["SupervisedPCA"]


class SupervisedPCA(TransformerMixin, RegressorMixin, _LatentBase):
    """Supervised PCA (Bayesian factor regression): a PPCA of (x, t) with separate noise levels
    σ_x² and σ_t², fitted by EM, that predicts t from x by Gaussian conditioning (lecture 002).

    Parameters
    ----------
    n_components : int
        r, with 1 ≤ r < p.
    max_iter : int
        EM iterations at most; a ConvergenceWarning if reached.
    tol : float
        EM stops when the mean log-likelihood per sample of (x, t) rises by less than `tol` nats.
    random_state : None, int or numpy.random.Generator
        Draws EM's starting loadings.

    Attributes
    ----------
    x_components_ : ndarray of shape (p, r)
        W_x.
    y_components_ : ndarray of shape (r,)
        w_t. The stacked [W_x; w_tᵀ] has orthogonal columns of decreasing norm (the rotation of
        z is free; predictions do not depend on it).
    x_mean_ : ndarray of shape (p,)
    y_mean_ : float
        μ_x = x̄ and μ_t = t̄.
    x_noise_variance_, y_noise_variance_ : float
        σ_x² and σ_t².
    n_iter_ : int
    log_likelihood_history_ : list of float
        Mean log-likelihood per sample of (x, t) at the start of each EM iteration, then of the
        fitted model.
    n_components_, n_features_in_ : int

    See Also
    --------
    PPCA : the same model without the targets.
    PLSRegression : directions of largest covariance with t.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.decomposition import SupervisedPCA
    >>> rng = np.random.default_rng(0)
    >>> z = rng.standard_normal((200, 1))
    >>> X = z @ [[1.0, -1.0, 0.5]] + 0.2 * rng.standard_normal((200, 3))
    >>> t = 2.0 * z[:, 0] + 0.1 * rng.standard_normal(200)
    >>> model = SupervisedPCA(n_components=1, random_state=0).fit(X, t)
    >>> round(float(model.score(X, t)), 2)
    0.98
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self, n_components=2, max_iter: int = 1000, tol: float = 1e-6, random_state=None
    ):
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def fit(self, X, y):
        """Fit the joint model to X of shape (N, p) and targets y of shape (N,).

        A constant y (e.g. in a cross-validation fold) raises ``ValueError``: its noise
        variance σ_t² would be 0, the joint likelihood unbounded, and the model has nothing to
        learn about t; predict ȳ instead (``sklearn.dummy.DummyRegressor``).
        """
        self._reset()
        rng = check_random_state(self.random_state)
        X, y = validate_data(self, X, y, y_numeric=True, ensure_min_samples=2)
        n, p = X.shape
        r = latent_dimension(self.n_components, p)
        check_not_constant(
            y,
            "y",
            "supervised PCA models the variation of y (its noise variance would be 0 and "
            "the likelihood unbounded); predict the constant instead",
        )
        joint = np.column_stack([X, y])
        fit = fit_em(
            joint,
            r,
            np.r_[np.zeros(p, dtype=int), 1],
            max_iter=self.max_iter,
            tol=self.tol,
            rng=rng,
        )
        self.x_components_, self.y_components_ = fit.W[:p], fit.W[p]
        self.x_mean_, self.y_mean_ = fit.mean[:p], float(fit.mean[p])
        self.x_noise_variance_, self.y_noise_variance_ = (
            float(fit.psi[0]),
            float(fit.psi[p]),
        )
        self.n_iter_, self.log_likelihood_history_ = fit.n_iter, fit.history
        self.n_components_ = r
        return self

    def _posterior(self, X):
        X = validate_data(self, X, reset=False)
        psi = np.full(self.n_features_in_, self.x_noise_variance_)
        return posterior(X - self.x_mean_, self.x_components_, psi)

    def transform(self, X) -> np.ndarray:
        """E[z | x] = (I_r + W_xᵀW_x/σ_x²)⁻¹W_xᵀ(x − μ_x)/σ_x², shape (N, r): the latent
        coordinates given the inputs alone."""
        return self._posterior(X).mean

    def fit_transform(self, X, y) -> np.ndarray:
        """``fit(X, y)`` then ``transform(X)``."""
        return self.fit(X, y).transform(X)

    def predict(self, X, return_std: bool = False):
        """E(t | x) in the r × r form, and with ``return_std`` √var(t | x), each shape (N,).

        var(t | x) = σ_t² + w_tᵀ M⁻¹ w_t, M = I_r + W_xᵀW_x/σ_x², the same for every x.
        """
        post = self._posterior(X)
        w = self.y_components_
        mean = self.y_mean_ + post.mean @ w
        if not return_std:
            return mean
        std = np.sqrt(self.y_noise_variance_ + w @ post.cov @ w)
        return mean, np.full(len(mean), std)
