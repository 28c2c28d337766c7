"""The training data of the chapter's two estimators, checked with scikit-learn's validation
utilities (``sklearn.utils``), so that bad input gets the messages scikit-learn's estimator checks
expect: y missing, continuous or of an unknown type, a column y (with a DataConversionWarning),
no features, NaN, mismatched lengths."""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_consistent_length
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import column_or_1d

from ..utils.validation import check_scalar, validate_data

__all__ = ["training_data", "check_n_features"]


def training_data(estimator, X, y, *, classes_only=True):
    """(X as a finite float array, y as a 1-D array) for ``estimator.fit``.

    Parameters
    ----------
    classes_only : bool
        True: y must be class labels (``check_classification_targets``); False: any y whose type
        scikit-learn knows (continuous targets are binned by the caller).
    """
    name = type(estimator).__name__
    if y is None:
        raise ValueError(f"{name} requires y to be passed, but the target y is None.")
    X = validate_data(estimator, X, dtype=np.float64)  # X named in every message
    y = column_or_1d(y, warn=True)
    if classes_only:
        check_classification_targets(y)
    else:
        type_of_target(y, input_name="y", raise_unknown=True)
    check_consistent_length(X, y)
    return X, y


def check_n_features(n_features, p):
    """`n_features`, the size of a selection, must be an integer in 1..p (p columns of X); the
    message counts "feature(s)" as scikit-learn's estimator checks expect."""
    check_scalar(n_features, "n_features", low=1, integer=True)
    if n_features > p:
        raise ValueError(
            f"n_features={n_features} exceeds the number of columns of X: X has {p} "
            f"feature(s)."
        )
