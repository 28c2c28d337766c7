"""Exercises of the chapter on evaluating classifiers: the ROC points with ties, and the AUC as
the Mann–Whitney probability."""

from __future__ import annotations

import numpy as np

from ..checks import EPS
from ._exercise import Case, Exercise, Mistake

CHAPTER = "evaluation"

# The lecture's ten instances (lecture 004): three tie at 0.85, two negatives and a positive.
LECTURE_SCORES = np.array([0.95, 0.93, 0.87, 0.85, 0.85, 0.85, 0.76, 0.53, 0.43, 0.25])
LECTURE_LABELS = np.array([1, 1, 0, 0, 0, 1, 0, 1, 0, 1])


def _labelled_cases():
    """Labels and scores, smallest first: no tie, the lecture's tie, all tied, a lone
    positive, and many ties (scores rounded to one decimal)."""
    rng = np.random.default_rng(29)
    lone = rng.normal(size=7).round(1)
    t_lone = np.zeros(7, dtype=int)
    t_lone[3] = 1
    lone[5] = lone[3]  # the positive ties with a negative
    t_many = (rng.random(40) < 0.4).astype(int)
    s_many = (rng.normal(size=40) + t_many).round(1)
    return [
        ("one instance of each class", np.array([0, 1]), np.array([0.3, 0.8])),
        ("the lecture's ten instances, a tie at 0.85", LECTURE_LABELS, LECTURE_SCORES),
        ("every score tied", np.array([1, 0, 0, 1, 0]), np.full(5, 0.5)),
        ("a single positive, tied with a negative", t_lone, lone),
        ("40 instances, scores rounded to one decimal", t_many, s_many),
    ]


# --- the ROC points ------------------------------------------------------------------------


def roc_points(t, s):
    """The ROC curve's points: one threshold "s ≥ θ" per distinct score, and θ = +∞.

    Parameters
    ----------
    t : ndarray of shape (N,)
        Labels, 1 for the positive class and 0 for the negative; both classes occur.
    s : ndarray of shape (N,)
        Scores: the larger, the more positive.

    Returns
    -------
    fpr, tpr : ndarray of shape (K + 1,)
        False- and true-positive rates, FP/(FP + TN) and TP/(TP + FN), for θ = +∞
        and then for each of the K distinct scores in decreasing order: from (0, 0)
        to (1, 1).
    """
    t, s = np.asarray(t), np.asarray(s, float)
    thresholds = np.r_[np.inf, np.unique(s)[::-1]]
    predicted = (
        s[None, :] >= thresholds[:, None]
    )  # (K + 1, N): the rule at each threshold
    return predicted[:, t == 0].mean(axis=1), predicted[:, t == 1].mean(axis=1)


def _roc_ties_broken(t, s):
    # the lecture's table: one point per instance, the positive first among equal scores
    order = np.lexsort((-np.asarray(t), -np.asarray(s, float)))
    t_sorted = np.asarray(t)[order]
    tp = np.r_[0, np.cumsum(t_sorted == 1)]
    fp = np.r_[0, np.cumsum(t_sorted == 0)]
    return fp / fp[-1], tp / tp[-1]


def _roc_swapped(t, s):
    fpr, tpr = roc_points(t, s)
    return tpr, fpr


def _roc_over_n(t, s):
    fpr, tpr = roc_points(t, s)
    n_neg, n_pos = np.sum(np.asarray(t) == 0), np.sum(np.asarray(t) == 1)
    return fpr * n_neg / len(t), tpr * n_pos / len(t)


def _roc_no_start(t, s):
    fpr, tpr = roc_points(t, s)
    return fpr[1:], tpr[1:]


def _one_point_per_instance(got, case, expected):
    n, k = len(case.args[0]), len(expected[0])
    return n + 1 != k and all(len(g) == n + 1 for g in got)


def _roc_cases():
    # Each rate is a count divided by a class size: one correctly rounded division, or a sum of
    # N increments 1/N± (relative rounding EPS/2 each, values ≤ 1): atol = N·EPS bounds both.
    return [
        Case(label, (t, s), rtol=0.0, atol=len(t) * EPS)
        for label, t, s in _labelled_cases()
    ]


ROC_POINTS = Exercise(
    name="roc-points",
    chapter=CHAPTER,
    prompt="Compute the ROC curve's points (FPR, TPR), one per distinct score, with ties.",
    reference=roc_points,
    make_cases=_roc_cases,
    mistakes=(
        Mistake(
            "You give one point per instance: a threshold cannot separate instances with "
            "equal scores, so a group of tied scores gives one point (one threshold per "
            "distinct score, step 3 of the lecture's recipe). Breaking the tie, as the "
            "lecture's table does, invents points no threshold reaches, such as (0.2, 0.6) "
            "in the lecture's example.",
            _roc_ties_broken,
            test=_one_point_per_instance,
        ),
        Mistake(
            "You return (TPR, FPR): the ROC curve has the false-positive rate "
            "FP/(FP + TN) on the horizontal axis; return (fpr, tpr).",
            _roc_swapped,
        ),
        Mistake(
            "Your rates divide by the number of instances N: the true-positive rate divides "
            "TP by the number of positives, TP + FN, and the false-positive rate divides FP "
            "by the number of negatives, FP + TN.",
            _roc_over_n,
        ),
        Mistake(
            "Your curve does not start at (0, 0): the threshold above every score (θ = +∞, "
            "every instance predicted negative) is a point of the curve too.",
            _roc_no_start,
        ),
    ),
    outputs=("fpr", "tpr"),
    section="eval-roc-lecture",
)


# --- the AUC as a probability --------------------------------------------------------------


def auc_mann_whitney(t, s):
    """The area under the ROC curve as the Mann–Whitney statistic.

    The probability that a randomly chosen positive scores higher than a randomly chosen
    negative, a tied pair counting one half.

    Parameters
    ----------
    t : ndarray of shape (N,)
        Labels, 1 for the positive class and 0 for the negative; both classes occur.
    s : ndarray of shape (N,)
        Scores: the larger, the more positive.

    Returns
    -------
    float
        The AUC, in [0, 1].
    """
    t, s = np.asarray(t), np.asarray(s, float)
    diff = (
        s[t == 1][:, None] - s[t == 0][None, :]
    )  # one entry per (positive, negative) pair
    return float(((diff > 0).sum() + 0.5 * (diff == 0).sum()) / diff.size)


def _pairs(t, s):
    t, s = np.asarray(t), np.asarray(s, float)
    diff = s[t == 1][:, None] - s[t == 0][None, :]
    return (diff > 0).sum(), (diff == 0).sum(), diff.size


def _auc_ties_win(t, s):
    wins, ties, n = _pairs(t, s)
    return (wins + ties) / n


def _auc_ties_lose(t, s):
    wins, ties, n = _pairs(t, s)
    return wins / n


def _auc_reversed(t, s):
    return 1 - auc_mann_whitney(t, s)


def _auc_all_pairs(t, s):
    wins, ties, _ = _pairs(t, s)
    n = len(t)
    return (wins + 0.5 * ties) / (n * (n - 1) / 2)


def _auc_cases():
    # The pair count is an exact integer and is divided once (relative EPS/2). The trapezoid
    # rule over the K + 1 ≤ N + 1 ROC points rounds each rate, width and term and adds them:
    # at most 3(N + 1)·EPS, the chapter's auc_rounding; the tolerance is that, for any route.
    return [
        Case(label, (t, s), rtol=0.0, atol=3 * (len(t) + 1) * EPS)
        for label, t, s in _labelled_cases()
    ]


AUC_MANN_WHITNEY = Exercise(
    name="auc-mann-whitney",
    chapter=CHAPTER,
    prompt="Compute the AUC as the probability that a positive outscores a negative "
    "(ties count ½).",
    reference=auc_mann_whitney,
    make_cases=_auc_cases,
    mistakes=(
        Mistake(
            "You count a tied (positive, negative) pair as a win for the positive, as the "
            "lecture's table does (its area is 0.60 for the lecture's example instead of "
            "0.56): a tie counts one half.",
            _auc_ties_win,
        ),
        Mistake(
            "You count a tied (positive, negative) pair as a loss: a tie counts one half, "
            "the average of breaking it either way.",
            _auc_ties_lose,
        ),
        Mistake(
            "You count the pairs in which the negative scores higher: that is 1 − AUC, the "
            "AUC of the score −s.",
            _auc_reversed,
        ),
        Mistake(
            "You divide by the number of all pairs of instances, N(N − 1)/2: the AUC is a "
            "probability over (positive, negative) pairs, so divide by N₊N₋.",
            _auc_all_pairs,
        ),
    ),
    outputs=("AUC",),
    section="eval-roc-lecture",
)

EXERCISES = (ROC_POINTS, AUC_MANN_WHITNEY)
