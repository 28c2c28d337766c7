"""The confusion matrix in the lecture's layout and the rates and costs computed from it
(lecture 004, first part); see :mod:`mlcourse.metrics` for the conventions."""

from __future__ import annotations

import warnings

import numpy as np

from ..exceptions import UndefinedMetricWarning
from ..utils.validation import (
    Options,
    check_array,
    check_binary_labels,
    check_consistent_length,
    validate_params,
)

__all__ = [
    "confusion_matrix",
    "accuracy",
    "precision",
    "recall",
    "f_measure",
    "classification_cost",
    "min_cost_threshold",
]


def _labels(y_true, y_pred):
    t = check_binary_labels(y_true, "y_true")
    p = check_binary_labels(y_pred, "y_pred")
    check_consistent_length(y_true=t, y_pred=p)
    return t, p


def confusion_matrix(y_true, y_pred) -> np.ndarray:
    """Confusion matrix in the lecture's layout ``[[TP, FP], [FN, TN]]``.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n_samples,)
        Actual and predicted labels, 0/1 or booleans (positive class 1).

    Returns
    -------
    ndarray of shape (2, 2), int
        Rows predicted (+, −), columns actual (+, −).

    Examples
    --------
    >>> from mlcourse.metrics import confusion_matrix
    >>> confusion_matrix([1, 1, 0, 0, 1], [1, 0, 0, 1, 1]).tolist()
    [[2, 1], [1, 1]]
    """
    t, p = _labels(y_true, y_pred)
    tp = int(np.count_nonzero(t & p))
    n_pred_pos = int(np.count_nonzero(p))
    n_pos = int(np.count_nonzero(t))
    fp = n_pred_pos - tp
    fn = n_pos - tp
    tn = t.size - tp - fp - fn
    return np.array([[tp, fp], [fn, tn]], dtype=np.int64)


# zero_division, checked before computing: a bad value is an error even when no 0/0 occurs
_ZERO_DIVISION = {"zero_division": [Options(object, ("warn", 0, 1))]}


def _ratio(num: int, den: int, name: str, zero_division) -> float:
    if den:
        return num / den
    if zero_division == "warn":
        warnings.warn(
            f"{name} is undefined (0/0); returning 0.0. Pass zero_division=0 or 1 "
            "to choose the value silently.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return 0.0
    return float(zero_division)


def accuracy(y_true, y_pred) -> float:
    """Fraction of correct predictions, (TP + TN) / (TP + TN + FP + FN) (lecture 004).

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n_samples,)
        Actual and predicted labels, 0/1 or booleans (positive class 1).

    Returns
    -------
    float
        In [0, 1]; equals ``sklearn.metrics.accuracy_score``.
    """
    t, p = _labels(y_true, y_pred)
    return float(np.count_nonzero(t == p)) / t.size


def precision(y_true, y_pred, *, zero_division="warn") -> float:
    """Precision = TP / (TP + FP), the fraction of predicted positives that are positive
    (lecture 004).

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n_samples,)
        Actual and predicted labels, 0/1 or booleans (positive class 1).
    zero_division : {"warn", 0, 1}, default "warn"
        Value when no instance is predicted positive (0/0): ``"warn"`` returns 0.0 with an
        :class:`UndefinedMetricWarning`, 0 or 1 return that value silently (as scikit-learn).

    Returns
    -------
    float
        In [0, 1]; equals ``sklearn.metrics.precision_score``.
    """
    validate_params(_ZERO_DIVISION, {"zero_division": zero_division})
    (tp, fp), _ = confusion_matrix(y_true, y_pred)
    return _ratio(tp, tp + fp, "precision", zero_division)


def recall(y_true, y_pred, *, zero_division="warn") -> float:
    """Recall = TP / (TP + FN), the fraction of actual positives that are found (the TPR;
    lecture 004).

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n_samples,)
        Actual and predicted labels, 0/1 or booleans (positive class 1).
    zero_division : {"warn", 0, 1}, default "warn"
        Value when there is no actual positive (0/0), as in :func:`precision`.

    Returns
    -------
    float
        In [0, 1]; equals ``sklearn.metrics.recall_score``.
    """
    validate_params(_ZERO_DIVISION, {"zero_division": zero_division})
    (tp, _), (fn, _) = confusion_matrix(y_true, y_pred)
    return _ratio(tp, tp + fn, "recall", zero_division)


def f_measure(y_true, y_pred, *, zero_division="warn") -> float:
    """F-measure, the harmonic mean of precision P and recall R (lecture 004).

    The lecture's two forms, F = 2·R·P/(R + P) = 2TP/(2TP + FP + FN), are equal whenever both
    are defined; this uses the second, which is defined unless TP = FP = FN = 0.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n_samples,)
        Actual and predicted labels, 0/1 or booleans (positive class 1).
    zero_division : {"warn", 0, 1}, default "warn"
        Value when TP = FP = FN = 0 (0/0), as in :func:`precision`.

    Returns
    -------
    float
        In [0, 1]; equals ``sklearn.metrics.f1_score``.
    """
    validate_params(_ZERO_DIVISION, {"zero_division": zero_division})
    (tp, fp), (fn, _) = confusion_matrix(y_true, y_pred)
    return _ratio(2 * tp, 2 * tp + fp + fn, "F-measure", zero_division)


def classification_cost(confusion, cost_matrix) -> float:
    """Total cost Σ_ij C[i, j]·cost[i, j] of a confusion matrix (lecture 004).

    Parameters
    ----------
    confusion : array_like of shape (2, 2)
        Counts in the lecture's layout ``[[TP, FP], [FN, TN]]`` (rows predicted, columns
        actual, positive first). They need not be integers: expected counts (e.g. N times the
        probability of each cell) give the expected cost; the fractions C / N of all instances
        give the cost per instance.
        Negative, NaN or infinite entries are rejected.
    cost_matrix : array_like of shape (2, 2)
        Cost of each cell, same layout ``[[c(+|+), c(+|-)], [c(-|+), c(-|-)]]``:
        ``cost_matrix[i, j]`` = c(i|j) is the cost of predicting class i when the actual class
        is j. Finite; negative costs (rewards) are allowed.

    Returns
    -------
    float
    """
    c = check_array(confusion, "confusion")
    k = _cost_matrix(cost_matrix)
    if c.shape != (2, 2):
        raise ValueError(
            "confusion must have shape (2, 2) in the lecture's layout "
            f"[[TP, FP], [FN, TN]]; got shape {c.shape}."
        )
    if (c < 0).any():
        raise ValueError("confusion must hold non-negative counts.")
    return float(np.sum(c * k))


def _cost_matrix(cost_matrix) -> np.ndarray:
    """`cost_matrix` as a finite (2, 2) float array."""
    k = check_array(cost_matrix, "cost_matrix")
    if k.shape != (2, 2):
        raise ValueError(
            "cost_matrix must have shape (2, 2), laid out as "
            "[[c(+|+), c(+|-)], [c(-|+), c(-|-)]] (c(i|j): cost of predicting i "
            f"when the actual class is j); got shape {k.shape}."
        )
    return k


def min_cost_threshold(cost_matrix) -> float:
    """Posterior threshold p* that minimises the expected cost of a decision.

    Lecture 004 ("minimise the expected cost"; Elkan 2001): predicting + for an instance with
    p = P(+|x) costs p·c(+|+) + (1 − p)·c(+|−) on average, predicting − costs
    p·c(−|+) + (1 − p)·c(−|−). Predict + exactly when p ≥ p* with

        p* = (c(+|−) − c(−|−)) / [(c(+|−) − c(−|−)) + (c(−|+) − c(+|+))].

    For the lecture's cancer costs ``[[-1, 1], [100, 0]]``, p* = 1/102.

    Parameters
    ----------
    cost_matrix : array_like of shape (2, 2)
        ``[[c(+|+), c(+|-)], [c(-|+), c(-|-)]]``: ``cost_matrix[i, j]`` = c(i|j) is the cost of
        predicting class i when the actual class is j (lecture layout: rows predicted, columns
        actual, positive first). Each error must cost more than the correct decision.

    Returns
    -------
    float
        p* in (0, 1).
    """
    k = _cost_matrix(cost_matrix)
    false_pos = k[0, 1] - k[1, 1]  # extra cost of a false positive over a true negative
    false_neg = k[1, 0] - k[0, 0]  # extra cost of a false negative over a true positive
    if false_pos <= 0 or false_neg <= 0:
        raise ValueError(
            "cost_matrix must make each error cost more than the correct "
            "decision (c(+|-) > c(-|-) and c(-|+) > c(+|+))."
        )
    return float(false_pos / (false_pos + false_neg))
