"""Classifier evaluation: roc_auc and roc_curve on 10^6 scores, against scikit-learn (goal: at most
0.15x its time) and against the floor, one ``np.argsort`` of the scores (goal: at most 1.2x).

Any ROC computation must order the scores, so one ``argsort`` is the least a general method does;
the floor rows check that its order determines the same area and curve as ours.

Both also run against scikit-learn on a second, differently shaped input (goal 1x, nowhere
slower): 10^5 continuous scores (no ties) with 5 % positives, where every score is its own
threshold.
"""

from fractions import Fraction

import numpy as np
from harness import Case
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from mlcourse.metrics import roc_auc, roc_curve


def _scores(quick):
    rng = np.random.default_rng(0)
    n = 2_000 if quick else 1_000_000
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(size=n) + y, 3)  # rounded: many ties, as real scores have
    return {"y": y, "s": s}


def _continuous(quick):
    rng = np.random.default_rng(1)
    n = 2_000 if quick else 100_000
    y = (rng.random(n) < 0.05).astype(int)
    return {"y": y, "s": rng.normal(size=n) + 2 * y}


def _sorted_groups(order, d):
    """From an ascending order of the scores: the sorted scores, the labels, the group ends."""
    s, y = d["s"][order], d["y"][order]
    ends = np.append(np.flatnonzero(s[1:] != s[:-1]), s.size - 1)
    return s, y, ends


def _auc_from_order(auc, order, d):
    """True when `auc` is U/(N+N-) computed from `order` by midranks (ties share their mean
    rank): 2U = Σ over positives of (2·midrank) − N+(N+ + 1), exact in integers."""
    s, y, ends = _sorted_groups(order, d)
    starts = np.r_[0, ends[:-1] + 1]
    pos_per_group = np.add.reduceat(y, starts)
    two_ranks = int(
        pos_per_group @ (starts + ends + 2)
    )  # 2·midrank = (first + last) + 2
    n_pos = int(y.sum())
    n_neg = y.size - n_pos
    return auc == float(Fraction(two_ranks - n_pos * (n_pos + 1), 2 * n_pos * n_neg))


def _curve_from_order(curve, order, d):
    """True when `curve` is, threshold by threshold from +inf down, the rates counted from
    `order`: at the distinct score starting at sorted position i, TP = N+ − (positives before
    i) and FP = (N − i) − TP."""
    s, y, ends = _sorted_groups(order, d)
    starts = np.r_[0, ends[:-1] + 1][::-1]  # highest score first
    before = np.r_[0, np.cumsum(y)][starts]
    n_pos = int(y.sum())
    tp = np.r_[0, n_pos - before]
    fp = np.r_[0, y.size - starts] - tp
    fpr, tpr, thresholds = curve
    return (
        np.array_equal(thresholds, np.r_[np.inf, s[starts]])
        and np.array_equal(tpr, tp / n_pos)
        and np.array_equal(fpr, fp / (y.size - n_pos))
    )


def _same_curve(a, b, _inputs):
    """Same thresholds; rates from the same integer counts, each one division on either side."""
    return (
        np.array_equal(a[2], b[2])
        and np.allclose(a[0], b[0], rtol=2**-52, atol=0)
        and np.allclose(a[1], b[1], rtol=2**-52, atol=0)
    )


def _ours_curve(d):
    return roc_curve(d["y"], d["s"])


def _floor(d):
    return np.argsort(d["s"])


FLOOR = "floor: one np.argsort"

CASES = [
    Case(
        name="roc_auc, 10^6 scores with ties",
        setup=_scores,
        ours=lambda d: roc_auc(d["y"], d["s"]),
        theirs=lambda d: roc_auc_score(d["y"], d["s"]),
        same=lambda a, b, _: abs(a - b) <= 1e-12,
        goal=0.15,
    ),
    Case(
        name="roc_auc, 10^6 scores with ties",
        setup=_scores,
        ours=lambda d: roc_auc(d["y"], d["s"]),
        theirs=_floor,
        same=_auc_from_order,
        goal=1.2,
        baseline=FLOOR,
    ),
    Case(
        name="roc_curve, 10^6 scores with ties",
        setup=_scores,
        ours=_ours_curve,
        theirs=lambda d: sk_roc_curve(d["y"], d["s"], drop_intermediate=False),
        same=_same_curve,
        goal=0.2,
    ),
    Case(
        name="roc_curve, 10^6 scores with ties",
        setup=_scores,
        ours=_ours_curve,
        theirs=_floor,
        same=_curve_from_order,
        goal=1.5,
        baseline=FLOOR,
    ),
    Case(
        name="roc_auc, 10^5 distinct scores, 5% positives",
        setup=_continuous,
        ours=lambda d: roc_auc(d["y"], d["s"]),
        theirs=lambda d: roc_auc_score(d["y"], d["s"]),
        same=lambda a, b, _: abs(a - b) <= 1e-12,
        goal=1.0,
    ),
    Case(
        name="roc_curve, 10^5 distinct scores, 5% positives",
        setup=_continuous,
        ours=_ours_curve,
        theirs=lambda d: sk_roc_curve(d["y"], d["s"], drop_intermediate=False),
        same=_same_curve,
        goal=1.0,
    ),
]
