"""Classifier evaluation (lecture 004, first part).

All functions take labels that are 0/1 or booleans, with the positive class 1, and use
scikit-learn's argument order ``(y_true, y_pred)`` / ``(y_true, y_score)`` so that a reader can
swap one library for the other.

The confusion matrix uses the **lecture's layout** — rows are the *predicted* class, columns
the *actual* class, positive first::

                     actual +   actual -
    predicted +   [[   TP,        FP  ],
    predicted -    [   FN,        TN  ]]

scikit-learn's ``confusion_matrix`` has rows *actual*, columns *predicted*, negative first
(``[[TN, FP], [FN, TP]]``); the two are related by ``ours == sk.T[::-1, ::-1]``.
"""

from __future__ import annotations

import numbers
import warnings
import numpy as np

from ._roc import RocTable, roc_auc, roc_curve, roc_table
from ._validation import check_array, check_binary_labels, check_consistent_length

__all__ = [
    "confusion_matrix", "accuracy", "precision", "recall", "f_measure", "classification_cost",
    "min_cost_threshold", "roc_table", "RocTable", "roc_curve", "roc_auc",
    "UndefinedMetricWarning",
]


class UndefinedMetricWarning(UserWarning):
    """A ratio metric had a zero denominator (e.g. precision with no predicted positives)."""


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
    """
    t, p = _labels(y_true, y_pred)
    tp = int(np.count_nonzero(t & p))
    n_pred_pos = int(np.count_nonzero(p))
    n_pos = int(np.count_nonzero(t))
    fp = n_pred_pos - tp
    fn = n_pos - tp
    tn = t.size - tp - fp - fn
    return np.array([[tp, fp], [fn, tn]], dtype=np.int64)


def _check_zero_division(zero_division) -> None:
    """Validate before computing: a bad value is an error even when no 0/0 occurs."""
    if isinstance(zero_division, str) and zero_division == "warn":
        return
    if (isinstance(zero_division, bool) or not isinstance(zero_division, numbers.Real)
            or zero_division not in (0, 1)):
        raise ValueError(f"zero_division must be 'warn', 0 or 1; got {zero_division!r}.")


def _ratio(num: int, den: int, name: str, zero_division) -> float:
    if den:
        return num / den
    if zero_division == "warn":
        warnings.warn(f"{name} is undefined (0/0); returning 0.0. Pass zero_division=0 or 1 "
                      "to choose the value silently.", UndefinedMetricWarning, stacklevel=3)
        return 0.0
    return float(zero_division)


def accuracy(y_true, y_pred) -> float:
    """(TP + TN) / (TP + TN + FP + FN): the fraction of correct predictions."""
    t, p = _labels(y_true, y_pred)
    return float(np.count_nonzero(t == p)) / t.size


def precision(y_true, y_pred, *, zero_division="warn") -> float:
    """TP / (TP + FP): the fraction of predicted positives that are positive.

    With no predicted positives the ratio is 0/0; like scikit-learn, return 0.0 and warn
    (``zero_division="warn"``), or return 0 or 1 silently.
    """
    _check_zero_division(zero_division)
    (tp, fp), _ = confusion_matrix(y_true, y_pred)
    return _ratio(tp, tp + fp, "precision", zero_division)


def recall(y_true, y_pred, *, zero_division="warn") -> float:
    """TP / (TP + FN): the fraction of actual positives that are found (the TPR)."""
    _check_zero_division(zero_division)
    (tp, _), (fn, _) = confusion_matrix(y_true, y_pred)
    return _ratio(tp, tp + fn, "recall", zero_division)


def f_measure(y_true, y_pred, *, zero_division="warn") -> float:
    """F = 2 TP / (2 TP + FP + FN), the harmonic mean of precision and recall.

    The lecture's two forms, 2·R·P/(R + P) and 2TP/(2TP + FP + FN), are equal whenever both
    are defined; this uses the second, which is defined unless TP = FP = FN = 0.
    """
    _check_zero_division(zero_division)
    (tp, fp), (fn, _) = confusion_matrix(y_true, y_pred)
    return _ratio(2 * tp, 2 * tp + fp + fn, "F-measure", zero_division)


def classification_cost(confusion, cost_matrix) -> float:
    """Total cost Σ_ij C[i, j]·cost[i, j] of a confusion matrix.

    Parameters
    ----------
    confusion : array_like of shape (2, 2)
        Counts in the lecture's layout (rows predicted, columns actual, positive first).
    cost_matrix : array_like of shape (2, 2)
        Cost of each cell, same layout: ``cost_matrix[i, j]`` is the cost of predicting class
        i when the actual class is j.
    """
    c = check_array(confusion, "confusion")
    k = check_array(cost_matrix, "cost_matrix")
    for name, a in (("confusion", c), ("cost_matrix", k)):
        if a.shape != (2, 2):
            raise ValueError(f"{name} must have shape (2, 2) in the lecture's layout "
                             f"[[TP, FP], [FN, TN]]; got shape {a.shape}.")
    if (c < 0).any():
        raise ValueError("confusion must hold non-negative counts.")
    return float(np.sum(c * k))


def min_cost_threshold(cost_matrix) -> float:
    """Posterior threshold p* that minimises the expected cost of a decision.

    Predicting + for an instance with p = P(+|x) costs p·c(+|+) + (1 − p)·c(+|−) on average,
    predicting − costs p·c(−|+) + (1 − p)·c(−|−). Predict + exactly when p ≥ p* with

        p* = (c(+|−) − c(−|−)) / [(c(+|−) − c(−|−)) + (c(−|+) − c(+|+))],

    where c(i|j) = ``cost_matrix[i, j]`` (lecture layout: rows predicted, columns actual).
    Requires that each error costs more than the correct decision.
    """
    k = check_array(cost_matrix, "cost_matrix")
    if k.shape != (2, 2):
        raise ValueError(f"cost_matrix must have shape (2, 2); got shape {k.shape}.")
    false_pos = k[0, 1] - k[1, 1]   # extra cost of a false positive over a true negative
    false_neg = k[1, 0] - k[0, 0]   # extra cost of a false negative over a true positive
    if false_pos <= 0 or false_neg <= 0:
        raise ValueError("cost_matrix must make each error cost more than the correct "
                         "decision (c(+|-) > c(-|-) and c(-|+) > c(+|+)).")
    return float(false_pos / (false_pos + false_neg))
