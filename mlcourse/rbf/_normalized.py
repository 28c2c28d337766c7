"""The normalised RBF classifier (lecture 002, "RBF Networks for Classification"; Bishop (1995)
§5.7): p(z = k | x) = Σ_j φ_j(x) w_kj with φ_j(x) = P(j | x), the posterior of component j of a
Gaussian mixture over x, and w_kj = P(z = k | j).

If the class-conditional densities share the mixture's components,
p(x | z = k) = Σ_j p(x | j) P(j | z = k), Bayes' rule gives exactly this form:

    p(z = k | x) = Σ_j [p(x | j) P_j / Σ_l p(x | l) P_l] · [P(j | z = k) P(z = k) / P_j].
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import ClassifierMixin

from ..cluster import component_log_density, gaussian_mixture
from ..special import logsumexp
from ..utils.validation import (
    Interval,
    check_distinct_rows,
    check_random_state,
    encode_labels,
    validate_data,
)
from ._base import _RBFEstimator

__all__ = ["NormalizedRBFClassifier"]


class NormalizedRBFClassifier(ClassifierMixin, _RBFEstimator):
    """A Gaussian mixture over x (EM, :func:`~mlcourse.cluster.gaussian_mixture`), with the classes
    attached through w_kj = P(z = k | j).

    w_kj is counted from the responsibilities: w_kj = Σ_n r_nj [z_n = k] / Σ_n r_nj, the fraction
    of component j's (soft) members that belong to class k.

    Parameters
    ----------
    n_components : int
        M, at most the number of distinct rows of X.
    random_state : None, int or numpy.random.Generator
        Seeds the k-means start of EM.
    max_iter : int
        EM iterations at most.
    tol : float ≥ 0
        EM stops when the mean log-likelihood per point rises by less than this.

    Attributes
    ----------
    means_ : ndarray of shape (M, D)
    covariances_ : ndarray of shape (M, D, D)
        Each with the covariance floor (:data:`~mlcourse.rbf.COVARIANCE_FLOOR`) on its diagonal.
    weights_ : ndarray of shape (M,)
        P_j, the mixing coefficients.
    class_given_component_ : ndarray of shape (M, K)
        w_kj = P(z = k | j), as row j; rows sum to 1.
    classes_ : ndarray of shape (K,)
    n_iter_ : int
    converged_ : bool
    log_likelihood_ : ndarray
        Mean ln p(x_n) after each EM iteration.
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.datasets import gaussian_classes
    >>> from mlcourse.rbf import NormalizedRBFClassifier
    >>> X, y = gaussian_classes(30, [[-1, 0], [1, 0.5]], np.eye(2), random_state=0)
    >>> clf = NormalizedRBFClassifier(n_components=4, random_state=0).fit(X, y)
    >>> round(float(clf.score(X, y)), 2)
    0.85
    """

    _multi_output_targets = False

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, n_components=10, random_state=None, max_iter=200, tol=1e-6):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X, y):
        """Fit the mixture to X by EM, then count w_kj from the responsibilities.

        Parameters
        ----------
        X : array_like of shape (N, D)
        y : array_like of shape (N,)
            Class labels; at least two classes.

        Returns
        -------
        self : NormalizedRBFClassifier
        """
        self._reset()
        M, max_iter, tol = self.n_components, self.max_iter, self.tol
        rng = check_random_state(self.random_state)
        X, y = validate_data(self, X, y)
        classes, idx = encode_labels(y)
        check_distinct_rows(X, M, "n_components")
        mix = gaussian_mixture(X, M, random_state=rng, max_iter=max_iter, tol=tol)
        R = mix.responsibilities
        counts = np.stack(
            [R[idx == k].sum(axis=0) for k in range(len(classes))], axis=1
        )
        # A pseudo-count of 10ε (the mixture's own floor on Σ_n r_nj, scikit-learn's), spread over
        # the classes by their frequencies, only matters for a component with no members: its
        # row is then the class frequencies, not 0/0.
        tiny = 10 * np.finfo(float).eps
        prior = np.bincount(idx, minlength=len(classes)) / len(idx)
        w = (counts + tiny * prior) / (counts.sum(axis=1, keepdims=True) + tiny)
        self.means_, self.covariances_, self.weights_ = (
            mix.means,
            mix.covariances,
            mix.weights,
        )
        self.class_given_component_ = w
        self.classes_ = classes
        self.n_iter_, self.converged_ = mix.n_iter, mix.converged
        self.log_likelihood_ = mix.log_likelihood
        return self

    def component_posterior(self, X) -> np.ndarray:
        """φ_j(x) = P(j | x) = P_j p(x | j) / Σ_l P_l p(x | l), shape (n, M) (via ``logsumexp``)."""
        X = validate_data(self, X, reset=False)
        log_joint = component_log_density(X, self.means_, self.covariances_) + np.log(
            self.weights_
        )
        return np.exp(log_joint - logsumexp(log_joint, axis=1, keepdims=True))

    def predict_proba(self, X) -> np.ndarray:
        """p(z = k | x) = Σ_j φ_j(x) w_kj, shape (n, K), columns in ``classes_`` order."""
        return self.component_posterior(X) @ self.class_given_component_

    def predict(self, X) -> np.ndarray:
        """The most probable class of each row of `X`, a label from ``classes_``."""
        proba = self.predict_proba(X)  # first: it raises NotFittedError before fit
        return self.classes_[np.argmax(proba, axis=1)]
