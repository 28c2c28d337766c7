"""The probabilistic generative classifier with shared-covariance Gaussians (lecture 004)."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..base import BaseEstimator, LinearClassifierMixin

__all__ = ["GaussianGenerativeClassifier", "COLLINEAR_TOL"]

# The pooled covariance counts as singular when some feature keeps less than COLLINEAR_TOL of its
# variance after regression on the features before it: min_i L_ii²/Σ_ii < COLLINEAR_TOL, with
# Σ = LLᵀ (L_ii² is that residual variance, the i-th pivot of the Cholesky factorisation). The
# ratio does not depend on the features' units (raw breast-cancer data: 7e-3); a duplicated
# column leaves only rounding, about 1e-16, where Cholesky may still succeed. Then Σ⁻¹μ, and
# so coef_, would be arbitrary along the collinear direction.
COLLINEAR_TOL = 1e-12


class GaussianGenerativeClassifier(LinearClassifierMixin, BaseEstimator):
    """Gaussian class-conditional densities N(x | μ_k, Σ) with one shared Σ, and class priors.

    Fitted by maximum likelihood (lecture 004 / Bishop §4.2.2):
    p(C_k) = N_k/N, μ_k = class mean, Σ_ML = Σ_k (N_k/N) S_k with S_k the class's ML covariance.
    Bayes' theorem then gives a linear model (Bishop (4.68)–(4.70)):
    p(C_k | x) = softmax_k(w_kᵀx + w_k0), w_k = Σ⁻¹μ_k, w_k0 = −½μ_kᵀΣ⁻¹μ_k + ln p(C_k).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    priors_ : ndarray of shape (K,)
    means_ : ndarray of shape (K, d)
    covariance_ : ndarray of shape (d, d)
        Σ_ML (divides by N, not N − K). ``fit`` raises ``ValueError`` if it is numerically
        singular (see ``COLLINEAR_TOL``).
    coef_, intercept_ : ndarray of shape (K, d) and (K,)
        w_k and w_k0 for K > 2. For two classes, scikit-learn's convention: shape (1, d) and
        (1,), w = Σ⁻¹(μ₁ − μ₀) and w₀ = −½μ₁ᵀΣ⁻¹μ₁ + ½μ₀ᵀΣ⁻¹μ₀ + ln(p(C₁)/p(C₀)), the log-odds
        of ``classes_[1]`` (lecture 004's two-class w, ω₀ with C₁ = ``classes_[1]``).
    """

    def __init__(self):
        pass

    def fit(self, X, y):
        """Estimate priors, means and the shared covariance; returns self."""
        self._reset()  # first: a failed fit leaves the estimator unfitted
        X, classes, idx = self._validate_data(X, y)
        n, d = X.shape
        counts = np.bincount(idx, minlength=len(classes))
        means = np.zeros((len(classes), d))
        np.add.at(means, idx, X)
        means /= counts[:, None]
        resid = X - means[idx]
        cov = resid.T @ resid / n
        try:
            chol = linalg.cho_factor(cov, lower=True)
            if np.min(np.diag(chol[0]) ** 2 / np.diag(cov)) < COLLINEAR_TOL:
                raise linalg.LinAlgError("numerically singular")
        except linalg.LinAlgError:
            raise ValueError(
                f"The pooled covariance of X is singular (d = {d} features, "
                f"N = {n} samples, {len(classes)} classes): a feature is constant "
                "within every class, or features are collinear (a feature keeps "
                f"less than COLLINEAR_TOL = {COLLINEAR_TOL:g} of its within-class "
                "variance after regression on the preceding ones), or N - K < d."
            ) from None
        W = linalg.cho_solve(chol, means.T).T
        b = -0.5 * np.sum(means * W, axis=1) + np.log(counts / n)
        self.classes_, self.priors_, self.means_, self.covariance_ = (
            classes,
            counts / n,
            means,
            cov,
        )
        if len(classes) == 2:
            self.coef_, self.intercept_ = (
                (W[1] - W[0])[None, :],
                np.array([b[1] - b[0]]),
            )
        else:
            self.coef_, self.intercept_ = W, b
        return self
