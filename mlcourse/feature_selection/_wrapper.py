"""Wrapper search: sequential forward selection and backward elimination around any estimator
(lecture 002, "Forward and Backward Selection"; Guyon & Elisseeff 2003 §4).

A subset S is scored by refitting the estimator on the columns S: by cross-validation (the mean
of the folds' scores) for a classifier, or by the drop in the residual sum of squares ΔS² of a
fit to all the data for regression (``scoring="rss", cv=None``). Forward selection adds the
column whose addition scores best; backward elimination removes the column whose removal scores
best, i.e. costs least. Ties go to the lowest column index, as in scikit-learn's
``SequentialFeatureSelector``, and each subset's columns are passed in increasing order (its
boolean mask), so that the same estimator, scoring and folds give the same selection.

``cv`` and ``scoring`` mean what they mean in scikit-learn: an int ``cv`` is unshuffled
``KFold`` (``StratifiedKFold`` for a classifier), through ``sklearn.model_selection.check_cv``,
and a scorer name (``"r2"``, ``"accuracy"``, …) goes through ``sklearn.metrics.check_scoring``;
so ``forward_selection(est, X, y, k, scoring="r2", cv=5)`` picks what
``SequentialFeatureSelector(est, n_features_to_select=k, scoring="r2", cv=5)`` picks.
Seeded, shuffled folds are ``cv=kfold_splits(n, k, random_state=seed)`` (or ``random_state``
with an int ``cv``).

Cost: forward selection of k of p features fits Σ_{m<k}(p − m) subsets of at most k columns;
backward elimination down to k fits Σ_{m>k} m subsets of up to p − 1 columns, each on every fold
— the lecture's "higher computational cost".
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from sklearn.base import clone, is_classifier

from ..utils.validation import (
    HasMethods,
    check_array,
    check_consistent_length,
    check_cv,
    check_random_state,
    check_scalar,
    check_scoring,
    check_target,
    validate_params,
)
from ._greedy import n_features_at_most

__all__ = [
    "forward_selection",
    "backward_elimination",
    "kfold_splits",
    "SearchPath",
    "SCORINGS",
]

# mlcourse's own scorings; any scorer name of scikit-learn's (sklearn.metrics.get_scorer_names)
# or a callable scorer(estimator, X, y) is accepted too
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


def _splits(estimator, X, y, cv, random_state):
    """The folds: all the data for ``cv=None``; :func:`kfold_splits` for an int `cv` with a
    `random_state`; else scikit-learn's ``check_cv`` (unshuffled (Stratified)KFold for an int),
    with a `cv` that cannot split X named (:func:`mlcourse.utils.validation.check_cv`)."""
    if cv is None:
        everything = np.arange(len(X))
        return [(everything, everything)]
    if (
        random_state is not None
        and isinstance(cv, (int, np.integer))
        and not isinstance(cv, bool)
    ):
        check_random_state(random_state)
        if not 2 <= cv <= len(X):
            raise ValueError(
                f"cv={cv} cannot split X of shape {X.shape}: an int cv needs "
                f"2 <= cv <= n_samples = {len(X)}."
            )
        return kfold_splits(len(X), int(cv), random_state)
    return check_cv(cv, X, y, classifier=is_classifier(estimator))


def _rss_score(estimator, X, y) -> float:
    """−S², minus the residual sum of squares Σ(y − ŷ)²: the larger the better."""
    return -float(np.sum((np.asarray(y, dtype=float) - estimator.predict(X)) ** 2))


def _passthrough(estimator, X, y) -> float:
    return float(estimator.score(X, y))


def _scorer(estimator, scoring):
    if scoring is None:
        return _passthrough
    if isinstance(scoring, str) and scoring == "rss":
        return _rss_score
    return check_scoring(estimator, scoring)


_ESTIMATOR = {
    "estimator": [
        HasMethods(
            ["fit", "get_params"],
            "a scikit-learn-compatible estimator (with fit and get_params)",
        )
    ]
}


def _search_data(estimator, X, y, n_features):
    """The arguments every search checks first: the estimator, X (N, p), y (N,), n_features."""
    validate_params(_ESTIMATOR, {"estimator": estimator})
    check_scalar(n_features, "n_features", low=1, integer=True)
    X = check_array(X, "X")
    y = check_target(y, "y")
    check_consistent_length(X=X, y=y)
    n_features_at_most(n_features, X.shape[1])
    return X, y


def _evaluator(estimator, X, y, scoring, cv, random_state):
    """score(columns): the mean over the folds of the scorer, refitted on X[:, S]."""
    scorer = _scorer(estimator, scoring)
    splits = _splits(estimator, X, y, cv, random_state)

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
    estimator, X, y, n_features, scoring=None, cv=5, *, random_state=None
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
    scoring : None, "rss", str or callable
        None: the estimator's ``score`` (accuracy for a classifier, R² for a regressor);
        "rss": −Σ(y − ŷ)², so the best addition is the largest drop ΔS² of the residual sum of
        squares (the lecture's criterion for regression, with ``cv=None``); a scikit-learn
        scorer name ("r2", "accuracy", "neg_mean_squared_error", …); or a callable
        ``scorer(fitted_estimator, X, y)``, larger is better.
    cv : None, int, splitter or iterable of (train, test)
        None: fit and score on all the data. Otherwise as in scikit-learn
        (``sklearn.model_selection.check_cv``): an int K ≥ 2 is unshuffled ``KFold(K)``, or
        ``StratifiedKFold(K)`` when the estimator is a classifier; a splitter such as
        ``KFold(5, shuffle=True, random_state=0)``; or explicit index pairs (e.g.
        :func:`kfold_splits`).
    random_state : None, int or Generator
        None (default): as above. Given with an int `cv`, the folds are instead
        :func:`kfold_splits` (a seeded shuffle, not stratified), as before scikit-learn's
        convention was adopted.

    Returns
    -------
    SearchPath
        ``features`` in the order added and the score after each addition.
    """
    X, y = _search_data(estimator, X, y, n_features)
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
    estimator, X, y, n_features, scoring=None, cv=5, *, random_state=None
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
    X, y = _search_data(estimator, X, y, n_features)
    score = _evaluator(estimator, X, y, scoring, cv, random_state)
    kept = list(range(X.shape[1]))
    path = [score(kept)]
    while len(kept) > n_features:
        values = [score(kept[:i] + kept[i + 1 :]) for i in range(len(kept))]
        worst = int(np.argmax(values))  # the first of equal scores: lowest index
        kept.pop(worst)
        path.append(values[worst])
    return SearchPath(np.array(kept, dtype=np.intp), np.array(path))
