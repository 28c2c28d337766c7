"""mlcourse.metrics against scikit-learn, on random inputs with many ties, and on bad input."""

from fractions import Fraction

import numpy as np
import pytest
import sklearn.metrics as skm

from mlcourse import metrics

# Tolerances count roundings: one rounds a result by at most EPS/2 of its size.
EPS = np.finfo(float).eps


def auc_rounding(n_points):
    """Bound on the rounding error of a trapezoid area over n_points ROC points: each rate in
    [0, 1], each width and each of the n - 1 terms rounds once, and the terms are summed."""
    return 3 * n_points * EPS


# --- agreement with scikit-learn --------------------------------------------------------------


def random_labels(rng, n):
    p = rng.uniform(0.05, 0.95)
    return (rng.random(n) < p).astype(int)


@pytest.mark.parametrize("seed", range(20))
def test_confusion_matrix_is_sklearn_transposed_and_reversed(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    t, p = random_labels(rng, n), random_labels(rng, n)
    sk = skm.confusion_matrix(t, p, labels=[0, 1])
    np.testing.assert_array_equal(metrics.confusion_matrix(t, p), sk.T[::-1, ::-1])


@pytest.mark.parametrize("seed", range(20))
def test_ratio_metrics_match_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    t, p = random_labels(rng, n), random_labels(rng, n)
    # each side divides exact integer counts once (scikit-learn's average may round once more):
    # at most three roundings apart; a wrong count moves a ratio below 600 by at least 1/600²
    rel = 2 * EPS
    assert metrics.accuracy(t, p) == pytest.approx(
        skm.accuracy_score(t, p), rel=rel, abs=0
    )
    kw = {"zero_division": 0}
    assert metrics.precision(t, p, **kw) == pytest.approx(
        skm.precision_score(t, p, **kw), rel=rel, abs=0
    )
    assert metrics.recall(t, p, **kw) == pytest.approx(
        skm.recall_score(t, p, **kw), rel=rel, abs=0
    )
    assert metrics.f_measure(t, p, **kw) == pytest.approx(
        skm.f1_score(t, p, **kw), rel=rel, abs=0
    )


def test_booleans_are_accepted():
    t = np.array([True, False, True, True])
    p = np.array([True, True, False, True])
    np.testing.assert_array_equal(metrics.confusion_matrix(t, p), [[2, 1], [1, 0]])


def test_undefined_precision_warns_and_returns_zero():
    with pytest.warns(metrics.UndefinedMetricWarning, match="precision"):
        assert metrics.precision([1, 0, 1], [0, 0, 0]) == 0.0
    assert metrics.precision([1, 0, 1], [0, 0, 0], zero_division=1) == 1.0
    with pytest.raises(ValueError, match="zero_division"):
        metrics.precision([1, 0, 1], [0, 0, 0], zero_division="nan")


@pytest.mark.parametrize("func", [metrics.precision, metrics.recall, metrics.f_measure])
@pytest.mark.parametrize("bad", ["x", "nan", 2, -1, 0.5, np.nan, None, True, [0]])
def test_zero_division_is_validated_before_computing(func, bad):
    """A bad zero_division is an error even when the ratio is defined (here it is 1)."""
    with pytest.raises(ValueError, match="zero_division must be one of 'warn', 0, 1"):
        func([1, 0], [1, 0], zero_division=bad)
    assert func([1, 0], [1, 0], zero_division=0) == 1.0


@pytest.mark.parametrize("seed", range(30))
def test_roc_curve_matches_sklearn_with_many_ties(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 500))
    t = random_labels(rng, n)
    t[:2] = [0, 1]  # both classes present
    # few distinct values -> many ties; sometimes integer scores
    s = rng.integers(0, int(rng.integers(1, 12)), n) * rng.choice([1.0, 0.1, -3.0])
    fpr, tpr, th = metrics.roc_curve(t, s)
    sk_fpr, sk_tpr, sk_th = skm.roc_curve(t, s, drop_intermediate=False)
    # each rate is one division of integer counts on either side; each area a trapezoid sum
    np.testing.assert_allclose(fpr, sk_fpr, rtol=EPS, atol=0)
    np.testing.assert_allclose(tpr, sk_tpr, rtol=EPS, atol=0)
    np.testing.assert_array_equal(th, sk_th)
    assert metrics.roc_auc(t, s) == pytest.approx(
        skm.roc_auc_score(t, s), rel=0, abs=2 * auc_rounding(len(fpr))
    )


def test_roc_curve_shape_contract():
    s = np.array([0.3, 0.3, 0.9, 0.1, 0.9, 0.5])
    t = np.array([0, 1, 1, 0, 0, 1])
    fpr, tpr, th = metrics.roc_curve(t, s)
    assert th[0] == np.inf and (fpr[0], tpr[0]) == (0, 0)
    assert len(th) == len(np.unique(s)) + 1  # one point per distinct score
    assert np.all(np.diff(th) < 0)  # thresholds decreasing
    assert (fpr[-1], tpr[-1]) == (1, 1)


def test_auc_is_mann_whitney(rng):
    t = random_labels(rng, 400)
    s = np.round(rng.normal(size=400) + t, 1)
    d = s[t == 1][:, None] - s[t == 0][None, :]
    u = ((d > 0).sum() + 0.5 * (d == 0).sum()) / d.size  # exact counts, one division
    n_points = len(metrics.roc_curve(t, s)[0])
    assert metrics.roc_auc(t, s) == pytest.approx(
        u, rel=0, abs=auc_rounding(n_points) + EPS
    )


def exact_auc(t, s):
    """U / (N₊N₋) by counting every pair (ties ½), as a correctly rounded float."""
    t, s = np.asarray(t), np.asarray(s, dtype=float)
    d = s[t == 1][:, None] - s[t == 0][None, :]
    return float(Fraction(int(2 * (d > 0).sum() + (d == 0).sum()), 2 * d.size))


def reference_table(t, s, ties):
    """The lecture's construction by a full sort: np.lexsort on (label, -score), then counts."""
    t, s = np.asarray(t), np.asarray(s, dtype=float)
    order = np.lexsort((t if ties == "pessimistic" else -t, -s))
    s_sorted, t_sorted = s[order], t[order]
    last = (
        np.append(np.flatnonzero(s_sorted[1:] != s_sorted[:-1]), s.size - 1)
        if ties == "group"
        else np.arange(s.size)
    )
    tp = np.append(0, np.cumsum(t_sorted)[last])
    return np.append(np.inf, s_sorted[last]), tp, np.append(0, last + 1) - tp


@pytest.mark.parametrize("seed", range(30))
def test_roc_auc_is_the_exact_mann_whitney_ratio(seed):
    """The counts are exact integers and the ratio one division: equal to the last bit."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    t = random_labels(rng, n)
    t[:2] = [0, 1]
    s = rng.integers(0, int(rng.integers(1, 30)), n) * rng.choice([1.0, 0.1, -3.0])
    assert metrics.roc_auc(t, s) == exact_auc(t, s)
    # the chapter's rule (ties grouped, trapezoids over the ROC points) rounds each trapezoid
    table = metrics.roc_table(t, s)
    assert metrics.roc_auc(t, s) == pytest.approx(
        table.auc(), rel=0, abs=auc_rounding(len(table.tp)) + EPS
    )


@pytest.mark.parametrize(
    "t, s, auc",
    [
        ([0, 1, 0, 1, 1], [2.0] * 5, 0.5),  # all tied: every pair counts ½
        (
            [1, 0, 0, 0, 0, 0],
            [0.5, 0.1, 0.5, 0.5, 0.9, 0.2],
            0.6,
        ),  # (2 + 2·½) / 5, a tied positive
        ([0, 1], [0.0, -0.0], 0.5),  # -0.0 and 0.0 are one score
        ([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4], 1.0),  # perfect ranking
        ([1, 1, 0, 0], [0.1, 0.2, 0.3, 0.4], 0.0),  # reversed
    ],
)
def test_roc_auc_edge_cases(t, s, auc):
    assert metrics.roc_auc(t, s) == auc == exact_auc(t, s) == skm.roc_auc_score(t, s)


@pytest.mark.parametrize("n_pos", [1, 2, 9_999])
def test_roc_auc_extreme_imbalance(n_pos):
    """One class nearly absent, with ties, on either side: still the exact ratio."""
    rng = np.random.default_rng(n_pos)
    n = 10_000
    t = np.zeros(n, dtype=int)
    t[rng.choice(n, n_pos, replace=False)] = 1
    s = np.round(rng.normal(size=n) + t, 1)
    assert metrics.roc_auc(t, s) == exact_auc(t, s)
    # scikit-learn's trapezoid sum over at most n + 1 points rounds each term
    n_points = len(metrics.roc_curve(t, s)[0])
    assert metrics.roc_auc(t, s) == pytest.approx(
        skm.roc_auc_score(t, s), rel=0, abs=auc_rounding(n_points) + EPS
    )


@pytest.mark.parametrize("ties", ["group", "optimistic", "pessimistic"])
@pytest.mark.parametrize("seed", range(10))
def test_roc_table_matches_a_full_sort(ties, seed):
    """The sort-each-class-and-merge table equals the one built by a full lexsort."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    t = random_labels(rng, n)
    t[:2] = [1, 0]
    s = rng.integers(0, int(rng.integers(1, 15)), n) * rng.choice([1.0, 0.25, -2.0])
    table = metrics.roc_table(t, s, ties=ties)
    thresholds, tp, fp = reference_table(t, s, ties)
    np.testing.assert_array_equal(table.thresholds, thresholds)
    np.testing.assert_array_equal(table.tp, tp)
    np.testing.assert_array_equal(table.fp, fp)
    np.testing.assert_array_equal(table.tn, fp[-1] - fp)
    np.testing.assert_array_equal(table.fn, tp[-1] - tp)


def test_lecture_roc_table_and_tie_breaking():
    score = [0.95, 0.93, 0.87, 0.85, 0.85, 0.85, 0.76, 0.53, 0.43, 0.25]
    label = [1, 1, 0, 0, 0, 1, 0, 1, 0, 1]
    lecture = metrics.roc_table(label, score, ties="optimistic")
    np.testing.assert_array_equal(lecture.tp[::-1], [5, 4, 4, 3, 3, 3, 3, 2, 2, 1, 0])
    np.testing.assert_array_equal(lecture.fp[::-1], [5, 5, 4, 4, 3, 2, 1, 1, 0, 0, 0])
    # the areas are multiples of 1/50 (half a tied pair over 25): rounding, not 1e-6, separates them
    tol = auc_rounding(len(lecture.tp)) + EPS
    assert lecture.auc() == pytest.approx(0.60, rel=0, abs=tol)
    assert metrics.roc_auc(label, score) == pytest.approx(0.56, rel=0, abs=tol)
    assert metrics.roc_table(label, score, ties="pessimistic").auc() == pytest.approx(
        0.52, rel=0, abs=tol
    )
    assert "Threshold >=" in lecture.format()


def test_cost_and_threshold():
    cost = [[-1, 1], [100, 0]]
    assert metrics.classification_cost([[150, 60], [40, 250]], cost) == 3910
    assert metrics.classification_cost([[250, 5], [45, 200]], cost) == 4255
    # p* is one division of exact differences of the costs, as is each expected value
    assert metrics.min_cost_threshold(cost) == pytest.approx(1 / 102, rel=EPS, abs=0)
    assert metrics.min_cost_threshold([[0, 1], [1, 0]]) == pytest.approx(
        0.5, rel=EPS, abs=0
    )


def test_min_cost_threshold_minimises_expected_cost(rng):
    cost = np.array([[0.0, 2.0], [7.0, 1.0]])
    p = rng.random(2000)
    star = metrics.min_cost_threshold(cost)
    pred_pos = p * cost[0, 0] + (1 - p) * cost[0, 1]
    pred_neg = p * cost[1, 0] + (1 - p) * cost[1, 1]
    # Each expected cost rounds by at most 2·EPS·max|cost|, and they cross with slope
    # |c(+|+) - c(+|-) - c(-|+) + c(-|-)|: only a p that close to p* could be decided either way.
    slope = abs(cost[0, 0] - cost[0, 1] - cost[1, 0] + cost[1, 1])
    assert np.min(np.abs(p - star)) > 4 * EPS * np.abs(cost).max() / slope
    np.testing.assert_array_equal(p >= star, pred_pos <= pred_neg)


# --- bad input ----------------------------------------------------------------------------------

GOOD_T, GOOD_S = [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8]


@pytest.mark.parametrize(
    "func",
    [
        metrics.confusion_matrix,
        metrics.accuracy,
        metrics.precision,
        metrics.recall,
        metrics.f_measure,
    ],
)
@pytest.mark.parametrize(
    "t, p, match",
    [
        (
            [0, 1, 1],
            [0, 1],
            "inconsistent numbers of samples: y_true has 3, y_pred has 2",
        ),
        ([], [], "y_true has 0 sample"),
        ([0, 1, 2], [0, 1, 1], r"y_true must hold 0/1 or boolean labels.*\[2\]"),
        ([0, 1, 1], ["a", "b", "a"], "y_pred must hold 0/1 or boolean labels"),
        ([0, np.nan, 1], [0, 1, 1], "y_true contains NaN"),
        ([[0, 1], [1, 0]], [[0, 1], [1, 0]], "y_true must be a 1-D array"),
    ],
)
def test_label_metrics_reject_bad_input(func, t, p, match):
    with pytest.raises(ValueError, match=match):
        func(t, p)


@pytest.mark.parametrize(
    "func", [metrics.roc_curve, metrics.roc_auc, metrics.roc_table]
)
@pytest.mark.parametrize(
    "t, s, match",
    [
        (GOOD_T[:3], GOOD_S, "y_true has 3, y_score has 4"),
        ([], [], "y_true has 0 sample"),
        (GOOD_T, [0.1, np.nan, 0.3, 0.2], "y_score contains NaN"),
        (GOOD_T, [0.1, np.inf, 0.3, 0.2], "y_score contains infinity"),
        ([0, 1, 2, 1], GOOD_S, "y_true must hold 0/1"),
        ([1, 1, 1, 1], GOOD_S, r"y_true contains only positive \(1\) labels"),
        ([0, 0, 0, 0], GOOD_S, r"y_true contains only negative \(0\) labels"),
        (GOOD_T, [[0.1, 0.2]] * 4, r"y_score must be a 1-D array"),
    ],
)
def test_score_metrics_reject_bad_input(func, t, s, match):
    with pytest.raises(ValueError, match=match):
        func(t, s)


def test_roc_table_rejects_unknown_tie_rule():
    with pytest.raises(ValueError, match="ties must be one of .*; got 'random'"):
        metrics.roc_table(GOOD_T, GOOD_S, ties="random")


@pytest.mark.parametrize(
    "confusion, cost, match",
    [
        (
            [[1, 2, 3], [4, 5, 6]],
            [[0, 1], [1, 0]],
            r"confusion must have shape \(2, 2\)",
        ),
        ([[1, 2], [3, 4]], [[0, 1, 2]], r"cost_matrix must have shape \(2, 2\)"),
        ([[1, 2], [3, 4]], [0, 1, 1, 0], "cost_matrix must be a 2-D array"),
        (
            [[1, -2], [3, 4]],
            [[0, 1], [1, 0]],
            "confusion must hold non-negative counts",
        ),
        ([[1, 2], [3, np.nan]], [[0, 1], [1, 0]], "confusion contains NaN"),
        ([[1, 2], [3, np.inf]], [[0, 1], [1, 0]], "confusion contains infinity"),
        (
            [[1.5, -0.5], [3, 4]],
            [[0, 1], [1, 0]],
            "confusion must hold non-negative counts",
        ),
        ([[1, 2], [3, 4]], [[0, 1], [np.nan, 0]], "cost_matrix contains NaN"),
        # the shape message describes the cost layout, not the confusion matrix's
        (
            [[1, 2], [3, 4]],
            np.zeros((3, 3)),
            r"\[\[c\(\+\|\+\), c\(\+\|-\)\], \[c\(-\|\+\), c\(-\|-\)\]\]",
        ),
    ],
)
def test_classification_cost_rejects_bad_input(confusion, cost, match):
    with pytest.raises(ValueError, match=match):
        metrics.classification_cost(confusion, cost)


def test_classification_cost_accepts_expected_counts_and_rates():
    """Non-integer counts are allowed: expected counts give the expected cost, rates the cost
    per instance (documented in the docstring)."""
    cost = [[-1, 1], [100, 0]]
    counts = np.array([[150, 60], [40, 250]])
    # four rates (one division each), four products and three additions, of terms no larger in
    # sum than 1.1 times the result: at most about 11 roundings of its size
    assert metrics.classification_cost(counts / counts.sum(), cost) == pytest.approx(
        3910 / 500, rel=12 * EPS, abs=0
    )
    assert (
        metrics.classification_cost([[1.5, 2], [3, 4]], cost) == 300.5
    )  # exact in binary


@pytest.mark.parametrize(
    "cost, match",
    [
        ([[0, 1, 1]], r"shape \(2, 2\), laid out as \[\[c\(\+\|\+\)"),
        ([[0, 0], [1, 0]], "each error cost more"),
    ],
)
def test_min_cost_threshold_rejects_bad_cost(cost, match):
    with pytest.raises(ValueError, match=match):
        metrics.min_cost_threshold(cost)
