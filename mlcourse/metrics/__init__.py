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

from ..exceptions import UndefinedMetricWarning
from ._classification import (
    accuracy,
    classification_cost,
    confusion_matrix,
    f_measure,
    min_cost_threshold,
    precision,
    recall,
)
from ._roc import RocTable, roc_auc, roc_curve, roc_table

__all__ = [
    "confusion_matrix",
    "accuracy",
    "precision",
    "recall",
    "f_measure",
    "classification_cost",
    "min_cost_threshold",
    "roc_table",
    "RocTable",
    "roc_curve",
    "roc_auc",
    "UndefinedMetricWarning",
]
