"""The probabilistic generative classifier with shared-covariance Gaussians (lecture 004)."""

from __future__ import annotations

import warnings

import numpy as np
from scipy import linalg

from ..base import BaseEstimator, LinearClassifierMixin
from ..utils.validation import encode_labels, validate_data

__all__ = ["GaussianGenerativeClassifier", "COLLINEAR_TOL"]

# The pooled covariance counts as singular when some feature keeps less than COLLINEAR_TOL of its
# variance after regression on the features before it: min_i L_ii²/Σ_ii < COLLINEAR_TOL, with
# Σ = LLᵀ (L_ii² is that residual variance, the i-th pivot of the Cholesky factorisation). The
# ratio does not depend on the features' units (raw breast-cancer data: 7e-3); a duplicated
# column leaves only rounding, about 1e-16, where Cholesky may still succeed. Then Σ⁻¹μ, and
# so coef_, would be arbitrary along the collinear direction, and the fit uses the
# pseudo-inverse of the correlation matrix instead (see GaussianGenerativeClassifier): its
# eigenvalues below COLLINEAR_TOL times the largest are the null directions.
COLLINEAR_TOL = 1e-12


def _pseudo_inverse_solve(cov, B):
    """G B for the generalised inverse G = D⁻¹R⁺D⁻¹ of Σ = DRD, D = diag(Σ)^½ (1 where a
    feature has no variance), R⁺ the pseudo-inverse of the correlation matrix R with its
    eigenvalues below COLLINEAR_TOL·max dropped; and the rank of Σ. GΣG = G and ΣGΣ = Σ, and in
    the units-free R, so the cut does not depend on the features' scales."""
    d = np.sqrt(np.diag(cov))
    d = np.where(d > 0, d, 1.0)
    lam, V = linalg.eigh(cov / np.outer(d, d), check_finite=False)
    keep = lam > COLLINEAR_TOL * max(lam[-1], 0.0)
    V = V[:, keep]
    return (V @ ((V.T @ (B / d[:, None])) / lam[keep][:, None])) / d[:, None], int(
        keep.sum()
    )


class GaussianGenerativeClassifier(LinearClassifierMixin, BaseEstimator):
    """Gaussian class-conditional densities N(x | μ_k, Σ) with one shared Σ, and class priors.

    Fitted by maximum likelihood (lecture 004 / Bishop §4.2.2):
    p(C_k) = N_k/N, μ_k = class mean, Σ_ML = Σ_k (N_k/N) S_k with S_k the class's ML covariance.
    Bayes' theorem then gives a linear model (Bishop (4.68)–(4.70)):
    p(C_k | x) = softmax_k(w_kᵀx + w_k0), w_k = Σ⁻¹μ_k, w_k0 = −½μ_kᵀΣ⁻¹μ_k + ln p(C_k).

    **A singular Σ** — a constant or duplicated feature, collinear features, or N − K < d, as
    with the digits' blank pixels — has no inverse, and Σ⁻¹μ_k is then defined only up to its
    null directions. The fit then uses a generalised inverse G = D⁻¹R⁺D⁻¹ in place of Σ⁻¹
    (R = D⁻¹ΣD⁻¹ the correlation matrix, D = diag(Σ)^½, R⁺ its pseudo-inverse without the
    eigenvalues below ``COLLINEAR_TOL`` = 1e-12 times the largest) and warns: the model
    then ignores the directions along which no class varies (where the Gaussian densities are
    degenerate), as scikit-learn's ``LinearDiscriminantAnalysis`` does. For duplicated or
    constant features its predictions are those of the model without them. With N − K < d the
    class means can also differ along a direction without within-class variance, which this
    ignores too: regularise (e.g. shrink Σ towards its diagonal) for such data. A
    non-singular Σ is solved by Cholesky, as before.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    priors_ : ndarray of shape (K,)
    means_ : ndarray of shape (K, d)
    covariance_ : ndarray of shape (d, d)
        Σ_ML (divides by N, not N − K).
    covariance_rank_ : int
        The numerical rank of Σ_ML: d, unless it is singular (below).
    coef_, intercept_ : ndarray of shape (K, d) and (K,)
        w_k and w_k0 for K > 2. For two classes, scikit-learn's convention: shape (1, d) and
        (1,), w = Σ⁻¹(μ₁ − μ₀) and w₀ = −½μ₁ᵀΣ⁻¹μ₁ + ½μ₀ᵀΣ⁻¹μ₀ + ln(p(C₁)/p(C₀)), the log-odds
        of ``classes_[1]`` (lecture 004's two-class w, ω₀ with C₁ = ``classes_[1]``).

    See Also
    --------
    LogisticRegression : the discriminative model with the same linear activation.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.datasets import gaussian_classes
    >>> from mlcourse.linear import GaussianGenerativeClassifier
    >>> X, y = gaussian_classes(30, [[-1, 0], [1, 0.5]], np.eye(2), random_state=0)
    >>> model = GaussianGenerativeClassifier().fit(X, y)
    >>> model.coef_.round(2).tolist(), round(float(model.score(X, y)), 2)
    ([[2.56, -0.07]], 0.88)
    """

    _parameter_constraints = {}  # no hyperparameters

    def __init__(self):
        pass

    def fit(self, X, y):
        """Estimate priors, means and the shared covariance; returns self."""
        self._reset()  # first: a failed fit leaves the estimator unfitted
        X, y = validate_data(self, X, y)
        classes, idx = encode_labels(y)
        n, d = X.shape
        counts = np.bincount(idx, minlength=len(classes))
        means = np.zeros((len(classes), d))
        np.add.at(means, idx, X)
        means /= counts[:, None]
        resid = X - means[idx]
        cov = resid.T @ resid / n
        try:
            chol = linalg.cho_factor(cov, lower=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                if not np.min(np.diag(chol[0]) ** 2 / np.diag(cov)) >= COLLINEAR_TOL:
                    raise linalg.LinAlgError("numerically singular")
            W, rank = linalg.cho_solve(chol, means.T).T, d
        except linalg.LinAlgError:
            W, rank = _pseudo_inverse_solve(cov, means.T)
            W = W.T
            warnings.warn(
                f"The pooled covariance of X is singular (rank {rank} < d = {d} "
                f"features; N = {n} samples, {len(classes)} classes): a feature is "
                "constant within every class, features are collinear, or N - K < d. "
                "Using its pseudo-inverse: the directions without within-class "
                "variance are ignored.",
                UserWarning,
                stacklevel=3,  # the caller of fit (BaseEstimator wraps fit)
            )
        b = -0.5 * np.sum(means * W, axis=1) + np.log(counts / n)
        self.classes_, self.priors_, self.means_, self.covariance_ = (
            classes,
            counts / n,
            means,
            cov,
        )
        self.covariance_rank_ = rank
        if len(classes) == 2:
            self.coef_, self.intercept_ = (
                (W[1] - W[0])[None, :],
                np.array([b[1] - b[0]]),
            )
        else:
            self.coef_, self.intercept_ = W, b
        return self
