"""Greedy information-theoretic filters: MIM, JMI, CMIM and mRMR (lecture 002, "JMI & CMIM
Criteria"; Brown et al. 2012, Table 1), on discrete or discretised features.

Each selector starts from the feature with the largest relevance Î(x_j; t) and then adds, one at
a time, the unselected feature j with the largest score over the selected set S:

    MIM    Î(x_j; t)
    JMI    Σ_{i∈S} Î({x_i, x_j}; t)                   (= Σ_i Î(x_j; t | x_i) + a constant in j)
    CMIM   min_{i∈S} Î(x_j; t | x_i)
    mRMR   Î(x_j; t) − (1/|S|) Σ_{i∈S} Î(x_j; x_i)

The pairwise terms are cached: when a feature s joins S, Î({x_s, x_j}; t) (or Î(x_j; x_s)) is
computed for every candidate j at once, from one ``bincount`` of the joint codes, and added to a
running sum (JMI, mRMR) or minimum (CMIM). A selection of k features from p then costs k − 1
passes over the N × p codes, not the k(k − 1)/2 of recomputing every term at every step.

A constant column (one state) is picked only when no other is left: every information it could
add is 0, and a criterion's score for it (0 for mRMR, a tie for JMI and CMIM with a duplicate of
a selected feature) must not put it before a column that varies.

Ties go to the lowest column index: scores within ``TIE_TOL``·(1 + |best|) of the best count as
equal. The tolerance lies far above the rounding of a sum of at most N·p entropy terms (~1e-12
relative) and far below any difference a sample can resolve (standard errors of Î are of order
N^(-1/2)), so exactly tied features (duplicates, a relabelled copy) go to the lowest index
whatever the order of the summation.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy.special import xlogy
from sklearn.utils.multiclass import type_of_target

from ..base import BaseEstimator, TransformerMixin
from ..utils.validation import (
    Interval,
    StrOptions,
    check_array,
    check_at_most,
    check_consistent_length,
    check_is_fitted,
    check_option,
    check_scalar,
    validate_data,
)
from ._information import column_entropies, discretize, encode, entropy_of_codes

__all__ = ["select_features", "FeatureSelector", "CRITERIA", "TIE_TOL"]

CRITERIA = ("mim", "jmi", "cmim", "mrmr")
TIE_TOL = 1e-9
# the largest indicator matrix (entries, float32: 4 bytes each) the pair counts are built from
_DENSE_MAX = 5 * 10**7


# Floats at least this large are all integers, whatever they measured: they are not read as
# discrete codes (X × 1e150 is binned as X is).
_EXACT_INTEGERS = 2.0**53


def _is_integer_valued(X) -> bool:
    return X.dtype.kind in "iub" or bool(
        np.all(X == np.round(X)) and np.all(np.abs(X) < _EXACT_INTEGERS)
    )


def n_features_at_most(n_features, p):
    """`n_features`, the size of a selection, at most the p columns of X (the message counts
    "feature(s)" as scikit-learn's estimator checks expect)."""
    return check_at_most(n_features, "n_features", p, f"X has {p} feature(s)")


def _column_codes(X, integer_valued):
    """Codes 0..m_j − 1 of each column's distinct values, and the m_j (p,)."""
    n, p = X.shape
    low = X.min(axis=0) if X.size else np.zeros(p)
    # the spread in floats, so that huge integers cannot overflow a cast or a subtraction
    span = np.max(X.max(axis=0).astype(float) - low.astype(float)) if X.size else 0.0
    if integer_valued and span < 4 * n:
        A = (X - low).astype(np.int64)
        width = int(A.max()) + 1 if A.size else 1
        if width <= 4 * n:  # relabel by presence: O(N·p), no sort
            present = (
                np.bincount(
                    (A + np.arange(p) * width).ravel(), minlength=p * width
                ).reshape(p, width)
                > 0
            )
            n_states = present.sum(axis=1)
            if np.all(present[np.arange(width) < n_states[:, None]]):
                return A, n_states  # already 0..m_j − 1 (e.g. discretised)
            rank = np.cumsum(present, axis=1) - 1
            return rank[np.arange(p), A], n_states
    codes = np.empty((n, p), dtype=np.int64)
    n_states = np.empty(p, dtype=np.int64)
    for j in range(p):
        codes[:, j], n_states[j] = encode(X[:, j], "X")
    return codes, n_states


def discrete_codes(X, y, n_bins):
    """Codes of the features and the class, ready for the greedy selectors.

    `X` whose entries are all integers is taken as discrete (each distinct value of a column is
    a state); any other `X` is cut into `n_bins` equal-width bins per column first
    (:func:`discretize`). ``n_bins=None`` takes `X` as discrete whatever its values. `y` is a
    class label (any type); a real-valued `y` that is not integer-valued is binned like `X`.

    Returns
    -------
    codes : ndarray of int64, shape (N, p)
    n_states : ndarray of int64, shape (p,)
    t : ndarray of int64, shape (N,)
        The class codes 0..K − 1.
    n_classes : int
    """
    if n_bins is not None:
        check_scalar(n_bins, "n_bins", low=2, integer=True)
    is_int = np.asarray(X).dtype.kind in "iub"
    X = check_array(X, "X")
    y_arr = np.asarray(y)
    if (
        y_arr.dtype.kind == "f"
        and n_bins is not None
        and np.isfinite(y_arr).all()
        and y_arr.ndim == 1
        and not _is_integer_valued(y_arr)
    ):
        y_arr = discretize(y_arr, n_bins)
    t, n_classes = encode(y_arr, "y")
    check_consistent_length(X=X, y=t)
    if n_classes < 2:
        raise ValueError(
            f"y has one class ({np.unique(y_arr)[0]!r}); selecting features for "
            "a target needs at least two classes."
        )
    integer_valued = is_int or _is_integer_valued(X)
    if n_bins is not None and not integer_valued:
        X, integer_valued = discretize(X, n_bins), True
    codes, n_states = _column_codes(X, integer_valued)
    return codes, n_states, t, n_classes


def _pick(score, excluded) -> int:
    """The lowest index whose score is within TIE_TOL·(1 + |best|) of the best one not excluded."""
    s = np.where(excluded, -np.inf, score)
    best = s.max()
    return int(np.flatnonzero(s >= best - TIE_TOL * (1.0 + abs(best)))[0])


class _PairEntropies:
    """Ĥ(x_s, x_j) and Ĥ(x_s, x_j, t) for one column x_s and every column j at once.

    The counts n(t, x_s, j, x_j) are one matrix product: the N × (b_s·K) indicator matrix of
    (x_s, t) times the N × (p·B) indicator matrix of every column's states (B the largest number
    of states), built once. The products are sums of 0s and 1s below 2²⁴, exact in float32 in
    any order, so every BLAS kernel gives the same counts. The pair's counts are the triple's
    summed over t. When that matrix would be large (many states per column), the columns are
    coded pair by pair and counted by ``bincount`` instead, in blocks of the observed states.
    """

    def __init__(self, codes, n_states, t, n_classes):
        n, p = codes.shape
        self.B, self.K, self.t, self.p = int(n_states.max()), n_classes, t, p
        self.dense = n * p * self.B <= _DENSE_MAX and n < 2**24
        if self.dense:
            self.onehot = np.zeros((n, p * self.B), dtype=np.float32)
            self.onehot[np.arange(n)[:, None], codes + np.arange(p) * self.B] = 1.0
        else:
            self.codes, self.n_states = codes, n_states

    def __call__(self, x_s, b_s):
        n = len(x_s)
        if self.dense:
            rows = np.zeros((n, b_s * self.K), dtype=np.float32)
            rows[np.arange(n), x_s + b_s * self.t] = 1.0
            triple = (rows.T @ self.onehot).astype(np.float64)  # (K·b_s, p·B), exact
            triple = triple.reshape(self.K, b_s, self.p, self.B).transpose(2, 0, 1, 3)
            pair = triple.sum(axis=1)
            return (
                np.log(n) - xlogy(pair, pair).sum(axis=(1, 2)) / n,
                np.log(n) - xlogy(triple, triple).sum(axis=(1, 2, 3)) / n,
            )
        pair = x_s[:, None] + b_s * self.codes
        states = b_s * self.n_states
        return (
            column_entropies(*_compact(pair, states)),
            column_entropies(
                *_compact(pair + states * self.t[:, None], states * self.K)
            ),
        )


def _compact(codes, n_states):
    """Re-encode the columns whose state count is far above the number of samples, so that the
    one ``bincount`` over all columns stays of size O(N·p)."""
    n = codes.shape[0]
    big = np.flatnonzero(n_states > n)
    if big.size:
        codes, n_states = codes.copy(), n_states.copy()
        for j in big:
            values, codes[:, j] = np.unique(codes[:, j], return_inverse=True)
            n_states[j] = len(values)
    return codes, n_states


def greedy_selection(codes, n_states, t, n_classes, n_features, criterion):
    """The greedy search on coded data (see the module docstring).

    Returns
    -------
    order : ndarray of int, shape (n_features,)
        The selected columns, in the order selected.
    scores : ndarray of float, shape (n_features,)
        The criterion's value for each pick (the first is its relevance Î(x_j; t)).
    """
    n, p = codes.shape
    h_t = entropy_of_codes(t, n_classes)
    pairs = _PairEntropies(codes, n_states, t, n_classes)
    h_x, h_xt = pairs(np.zeros(n, dtype=np.int64), 1)  # x_s constant: Ĥ(x_j), Ĥ(x_j, t)
    relevance = h_x + h_t - h_xt
    selected = np.zeros(p, dtype=bool)
    constant = n_states == 1
    acc = np.full(p, np.inf) if criterion == "cmim" else np.zeros(p)
    order, scores = [], []
    score = relevance
    for step in range(n_features):
        if step and criterion != "mim":
            s = order[-1]
            h_pair, h_triple = pairs(
                codes[:, s], n_states[s]
            )  # Ĥ(x_s, x_j), Ĥ(x_s, x_j, t)
            if criterion == "mrmr":  # Î(x_j; x_s)
                acc += h_x + h_x[s] - h_pair
                score = relevance - acc / step
            else:  # Î({x_s, x_j}; t)
                joint = h_pair + h_t - h_triple
                if criterion == "jmi":
                    acc += joint
                else:  # Î(x_j; t | x_s)
                    acc = np.minimum(acc, joint - relevance[s])
                score = acc
        # a constant column carries no information, whatever the criterion's arithmetic says
        # (mRMR can score a redundant informative column below its 0): it comes last
        j = _pick(score, selected | (constant & ~np.all(selected | constant)))
        selected[j] = True
        order.append(j)
        scores.append(float(score[j]))
    return np.array(order, dtype=np.intp), np.array(scores)


def select_features(X, y, n_features, criterion="jmi", n_bins=5) -> np.ndarray:
    """Greedy selection of `n_features` columns of `X` by an information-theoretic criterion.

    Parameters
    ----------
    X : array_like of shape (N, p)
        Features. Integer-valued `X` is taken as discrete; any other is first cut into `n_bins`
        equal-width bins per column (:func:`discretize`), as FEAST's users do.
    y : array_like of shape (N,)
        Class labels (at least two classes).
    n_features : int
        1 ≤ n_features ≤ p.
    criterion : {"jmi", "mim", "cmim", "mrmr"}
        MIM: Î(x_j; t); JMI: Σ_{i∈S} Î({x_i, x_j}; t) (lecture 002 / Yang & Moody 1999);
        CMIM: min_{i∈S} Î(x_j; t | x_i) (Fleuret 2004); mRMR: Î(x_j; t) − mean_{i∈S} Î(x_j; x_i)
        (Peng et al. 2005). The first pick is the largest Î(x_j; t) for every criterion.
    n_bins : int ≥ 2 or None
        Equal-width bins for continuous `X`; None: take `X` as discrete as it is.

    Returns
    -------
    ndarray of int, shape (n_features,)
        The selected column indices, in the order selected; ties go to the lowest index.
    """
    check_option(criterion, "criterion", CRITERIA)
    check_scalar(n_features, "n_features", low=1, integer=True)
    codes, n_states, t, n_classes = discrete_codes(X, y, n_bins)
    n_features_at_most(n_features, codes.shape[1])
    return greedy_selection(codes, n_states, t, n_classes, n_features, criterion)[0]


class FeatureSelector(TransformerMixin, BaseEstimator):
    """Keep the columns an information-theoretic criterion selects (:func:`select_features`).

    Parameters
    ----------
    n_features : int, default 10
        How many columns to keep, 1 ≤ n_features ≤ the number of columns of X (a default as
        scikit-learn's ``SelectKBest(k=10)``, so that the class constructs without arguments,
        as scikit-learn's tools expect).
    criterion : {"jmi", "mim", "cmim", "mrmr"}
    n_bins : int ≥ 2 or None
        Equal-width bins for continuous features (None: take X as discrete).

    Attributes
    ----------
    features_ : ndarray of int, shape (n_features,)
        The kept columns, in the order selected.
    scores_ : ndarray of shape (n_features,)
        The criterion's value when each was picked.
    ranking_ : ndarray of int, shape (n_features_in_,)
        1 for the first pick, 2 for the second, …; n_features + 1 for every column not kept.
    n_features_in_ : int

    See Also
    --------
    select_features : the same search as a function.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.feature_selection import FeatureSelector
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 3, size=(300, 5))
    >>> y = (X[:, 1] + X[:, 3] > 2).astype(int)  # features 1 and 3 carry the label
    >>> selector = FeatureSelector(n_features=2, criterion='jmi').fit(X, y)
    >>> selector.get_support(indices=True).tolist()
    [1, 3]
    """

    _parameter_constraints = {
        "n_features": [Interval(Integral, 1, None, closed="left")],
        "criterion": [StrOptions(CRITERIA)],
        "n_bins": [None, Interval(Integral, 2, None, closed="left")],
    }

    def __init__(self, n_features=10, criterion="jmi", n_bins=5):
        self.n_features = n_features
        self.criterion = criterion
        self.n_bins = n_bins

    def fit(self, X, y):
        """Select the columns on (X, y); returns self."""
        self._reset()
        X, y = validate_data(self, X, y)
        type_of_target(y, input_name="y", raise_unknown=True)
        codes, n_states, t, n_classes = discrete_codes(X, y, self.n_bins)
        n_features_at_most(self.n_features, codes.shape[1])
        order, scores = greedy_selection(
            codes, n_states, t, n_classes, self.n_features, self.criterion
        )
        ranking = np.full(codes.shape[1], self.n_features + 1, dtype=np.intp)
        ranking[order] = np.arange(1, self.n_features + 1)
        self.features_, self.scores_, self.ranking_ = order, scores, ranking
        return self

    def get_support(self, indices=False):
        """Boolean mask of the kept columns (``indices=True``: their indices, ascending)."""
        check_is_fitted(self)
        mask = self.ranking_ <= self.n_features
        return np.flatnonzero(mask) if indices else mask

    def transform(self, X):
        """The kept columns of `X`, in their original order and numeric dtype (as
        scikit-learn's selectors: integer codes stay integers, float32 stays float32). `X` is
        validated as in ``fit``: strings, complex numbers, NaN or another number of columns
        raise ``ValueError``, an object array is read as float64."""
        return validate_data(self, X, reset=False, dtype=None)[:, self.get_support()]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags
