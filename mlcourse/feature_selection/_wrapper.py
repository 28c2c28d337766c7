"""Wrapper search: sequential forward selection and backward elimination around any estimator
(lecture 002, "Forward and Backward Selection"; Guyon & Elisseeff 2003 §4).

A subset S is scored by refitting the estimator on the columns S: by cross-validation (the mean
of the folds' scores) for a classifier, or by the drop in the residual sum of squares ΔS² of a
fit to all the data for regression (``scoring="rss", cv=None``). Forward selection adds the
column whose addition scores best; backward elimination removes the column whose removal scores
best, i.e. costs least. Ties go to the lowest column index, as in scikit-learn's
``SequentialFeatureSelector``, and each subset's columns are passed in increasing order (its
boolean mask), so that the same estimator, scoring and folds give the same selection.

Cost: forward selection of k of p features fits Σ_{m<k}(p − m) subsets of at most k columns;
backward elimination down to k fits Σ_{m>k} m subsets of up to p − 1 columns, each on every fold
— the lecture's "higher computational cost".
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from sklearn.base import clone

from ..utils.validation import (
    check_array,
    check_consistent_length,
    check_random_state,
    check_scalar,
)
from ._validation import check_n_features

__all__ = [
    "forward_selection",
    "backward_elimination",
    "kfold_splits",
    "SearchPath",
    "SCORINGS",
]

SCORINGS = (None, "rss")


class SearchPath(NamedTuple):
    """The result of a wrapper search.

    features : ndarray of int
        Forward selection: the selected columns, in the order added. Backward elimination: the
        columns kept, in increasing order.
    scores : ndarray of float
        Forward: ``scores[m]`` is the score of ``features[:m + 1]``. Backward: ``scores[0]`` is
        the score of all p columns and ``scores[m]`` the score after m removals.
    """

    features: np.ndarray
    scores: np.ndarray


def kfold_splits(n_samples, n_splits=5, random_state=0) -> list:
    """K-fold cross-validation: (train, test) index pairs of a seeded shuffle.

    The samples are permuted by ``numpy.random.default_rng(random_state)`` and cut into
    `n_splits` consecutive parts of sizes differing by at most one; fold k tests on part k and
    trains on the rest. Indices are sorted within each part.

    Parameters
    ----------
    n_samples : int ≥ n_splits
    n_splits : int ≥ 2
    random_state : None, int or Generator

    Returns
    -------
    list of (ndarray, ndarray)
    """
    check_scalar(n_splits, "n_splits", low=2, integer=True)
    check_scalar(n_samples, "n_samples", low=n_splits, integer=True)
    parts = np.array_split(
        check_random_state(random_state).permutation(n_samples), n_splits
    )
    return [
        (np.sort(np.concatenate(parts[:k] + parts[k + 1 :])), np.sort(parts[k]))
        for k in range(n_splits)
    ]


def _splits(cv, n_samples, random_state):
    if cv is None:
        everything = np.arange(n_samples)
        return [(everything, everything)]
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        return kfold_splits(n_samples, int(cv), random_state)
    try:
        splits = [(np.asarray(train), np.asarray(test)) for train, test in cv]
    except (TypeError, ValueError):
        raise ValueError(
            f"cv must be None, an int >= 2 or an iterable of (train, test) index "
            f"arrays; got {cv!r}."
        ) from None
    if not splits:
        raise ValueError("cv gave no (train, test) splits.")
    return splits


def _rss_score(estimator, X, y) -> float:
    """−S², minus the residual sum of squares Σ(y − ŷ)²: the larger the better."""
    return -float(np.sum((np.asarray(y, dtype=float) - estimator.predict(X)) ** 2))


def _passthrough(estimator, X, y) -> float:
    return float(estimator.score(X, y))


def _scorer(scoring):
    if scoring is None:
        return _passthrough
    if scoring == "rss":
        return _rss_score
    if callable(scoring):
        return scoring
    raise ValueError(
        f"scoring must be None (the estimator's score), 'rss' or a callable "
        f"scorer(estimator, X, y); got {scoring!r}."
    )


def _validate(estimator, X, y, n_features):
    if not (hasattr(estimator, "fit") and hasattr(estimator, "get_params")):
        raise ValueError(
            f"estimator must be a scikit-learn-compatible estimator (fit, "
            f"get_params); got {estimator!r}."
        )
    X = check_array(X, "X")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array; got shape {y.shape}.")
    if y.dtype.kind in "fc" and not np.isfinite(y).all():
        raise ValueError("y contains NaN or infinite values.")
    check_consistent_length(X=X, y=y)
    check_n_features(n_features, X.shape[1])
    return X, y


def _evaluator(estimator, X, y, scoring, cv, random_state):
    """score(columns): the mean over the folds of the scorer, refitted on X[:, S]."""
    scorer = _scorer(scoring)
    splits = _splits(cv, len(X), random_state)

    def score(columns):
        cols = np.sort(columns)
        values = [
            scorer(
                clone(estimator).fit(X[np.ix_(train, cols)], y[train]),
                X[np.ix_(test, cols)],
                y[test],
            )
            for train, test in splits
        ]
        return float(np.mean(values))

    return score


def forward_selection(
    estimator, X, y, n_features, scoring=None, cv=5, *, random_state=0
):
    """Sequential forward selection: add, one at a time, the column that scores best with the
    columns already chosen (lecture 002).

    Parameters
    ----------
    estimator : scikit-learn-compatible estimator
        Cloned (``sklearn.base.clone``) and refitted for every subset and fold.
    X : array_like of shape (N, p)
    y : array_like of shape (N,)
    n_features : int
        1 ≤ n_features ≤ p: stop when this many are selected.
    scoring : None, "rss" or callable
        None: the estimator's ``score`` (accuracy for a classifier, R² for a regressor);
        "rss": −Σ(y − ŷ)², so the best addition is the largest drop ΔS² of the residual sum of
        squares (the lecture's criterion for regression, with ``cv=None``); or a callable
        ``scorer(fitted_estimator, X, y)``, larger is better.
    cv : None, int or iterable of (train, test)
        None: fit and score on all the data; an int K ≥ 2: :func:`kfold_splits` with
        `random_state`; or explicit index pairs (e.g. the same folds given to scikit-learn).
    random_state : None, int or Generator
        The shuffle of the folds when `cv` is an int.

    Returns
    -------
    SearchPath
        ``features`` in the order added and the score after each addition.
    """
    X, y = _validate(estimator, X, y, n_features)
    score = _evaluator(estimator, X, y, scoring, cv, random_state)
    chosen, path = [], []
    remaining = list(range(X.shape[1]))
    for _ in range(n_features):
        values = [score(chosen + [j]) for j in remaining]
        best = int(np.argmax(values))  # the first of equal scores: lowest index
        chosen.append(remaining.pop(best))
        path.append(values[best])
    return SearchPath(np.array(chosen, dtype=np.intp), np.array(path))


def backward_elimination(
    estimator, X, y, n_features, scoring=None, cv=5, *, random_state=0
):
    """Sequential backward elimination: starting from all p columns, remove, one at a time, the
    column whose removal leaves the best score — the smallest decrement of the criterion
    (lecture 002) — until `n_features` remain.

    Parameters are those of :func:`forward_selection`.

    Returns
    -------
    SearchPath
        The ``features`` kept (increasing order); ``scores[0]`` for all the columns, then the
        score after each removal.
    """
    X, y = _validate(estimator, X, y, n_features)
    score = _evaluator(estimator, X, y, scoring, cv, random_state)
    kept = list(range(X.shape[1]))
    path = [score(kept)]
    while len(kept) > n_features:
        values = [score(kept[:i] + kept[i + 1 :]) for i in range(len(kept))]
        worst = int(np.argmax(values))  # the first of equal scores: lowest index
        kept.pop(worst)
        path.append(values[worst])
    return SearchPath(np.array(kept, dtype=np.intp), np.array(path))
