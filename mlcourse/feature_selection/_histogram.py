"""The plug-in classifier of discrete features: q(t | x_S) from the class counts of each cell of
the selected features (Brown et al. 2012 §3: the conditional likelihood's best model q of the
features x_θ is the empirical p̂(t | x_θ)).

It is the model behind the chapter's XOR example: unlike a linear model it represents any
interaction of the features it is given, so a wrapper search around it scores a subset by how
much the subset says about the class, as the mutual information does.
"""

from __future__ import annotations

from numbers import Real

import numpy as np

from ..base import BaseEstimator, ClassifierMixin
from ..utils.validation import Interval, encode_labels, validate_data

__all__ = ["HistogramClassifier"]


class HistogramClassifier(ClassifierMixin, BaseEstimator):
    """Classify by the class frequencies among the training rows equal to x.

    Each distinct row of the training inputs is a cell c with class counts n(c, k); then

        q(t = k | x in c) = (n(c, k) + λ·p̂(k)) / (n(c) + λ),

    p̂(k) the class frequencies. A row never seen in training gets p̂(k). With λ = 0, q is the
    empirical conditional p̂(t | x), whose mean training log-loss is the plug-in Ĥ(t | x).

    Parameters
    ----------
    smoothing : float ≥ 0
        λ, the weight (in samples) of the class prior mixed into each cell.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    cells_ : ndarray of shape (C, n_features_in_)
        The distinct training rows.
    counts_ : ndarray of shape (C, K)
        n(c, k).
    class_prior_ : ndarray of shape (K,)
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.feature_selection import HistogramClassifier
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 10)
    >>> y = X[:, 0] ^ X[:, 1]  # the XOR of two binary features
    >>> HistogramClassifier().fit(X, y).predict([[0, 1], [1, 1]]).tolist()
    [1, 0]
    """

    _parameter_constraints = {"smoothing": [Interval(Real, 0, None, closed="left")]}

    def __init__(self, smoothing=1.0):
        self.smoothing = smoothing

    def fit(self, X, y):
        """Count the classes in each cell; returns self."""
        self._reset()
        X, y = validate_data(self, X, y)
        classes, idx = encode_labels(y, "y")
        cells, cell = np.unique(X, axis=0, return_inverse=True)
        counts = np.zeros((len(cells), len(classes)))
        np.add.at(counts, (cell.ravel(), idx), 1.0)
        self.classes_, self.cells_, self.counts_ = classes, cells, counts
        self.class_prior_ = counts.sum(axis=0) / len(X)
        return self

    def predict_proba(self, X):
        """q(t | x), shape (n, K), columns in ``classes_`` order."""
        X = validate_data(self, X, reset=False)
        n_cells = len(self.cells_)
        _, key = np.unique(np.vstack([self.cells_, X]), axis=0, return_inverse=True)
        key = key.ravel()
        lookup = np.full(key.max() + 1, -1)
        lookup[key[:n_cells]] = np.arange(n_cells)
        cell = lookup[key[n_cells:]]
        counts = np.where((cell >= 0)[:, None], self.counts_[cell], 0.0)
        total = counts.sum(axis=1, keepdims=True)
        lam = float(self.smoothing)
        with np.errstate(invalid="ignore", divide="ignore"):
            q = (counts + lam * self.class_prior_) / (total + lam)
        return np.where(total + lam > 0, q, self.class_prior_)
