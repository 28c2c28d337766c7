"""Prediction shared by the linear classifiers: activations a = Xwᵀ + w₀ and their link."""

from __future__ import annotations

import numpy as np

from ._validation import check_array, check_consistent_length, encode_labels
from .base import BaseEstimator, ClassifierMixin
from .special import sigmoid, softmax

__all__ = ["LinearClassifier"]


class LinearClassifier(ClassifierMixin, BaseEstimator):
    """Base class: ``coef_`` of shape (1, d) (binary: the log-odds of ``classes_[1]``, passed
    through ``_link``) or (K, d) (one activation per class, passed through the softmax)."""

    _link = staticmethod(sigmoid)

    def _validate_data(self, X, y, n_classes=None):
        X = check_array(X, "X")
        classes, idx = encode_labels(y, "y", n_classes=n_classes)
        check_consistent_length(X=X, y=idx)
        return X, classes, idx

    def _check_X(self, X):
        self._check_fitted()
        X = check_array(X, "X")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} was "
                             f"fitted with {self.n_features_in_}.")
        return X

    def decision_function(self, X):
        """Activations: shape (n,) for a binary model (the argument of the link), else (n, K)."""
        a = self._check_X(X) @ self.coef_.T + self.intercept_
        return a[:, 0] if self.coef_.shape[0] == 1 else a

    def predict_proba(self, X):
        """Class probabilities, shape (n, K), columns in ``classes_`` order."""
        a = self.decision_function(X)
        if a.ndim == 1:
            return np.column_stack([self._link(-a), self._link(a)])
        return softmax(a, axis=1)
