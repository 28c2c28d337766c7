"""The selectors: MIM, JMI, CMIM and mRMR against brute force and against FEAST (its published
output and an independent copy of its code paths), the wrapper searches against scikit-learn's
SequentialFeatureSelector and on the XOR example, OMP against scikit-learn, and bad input."""

import sys
import warnings
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.feature_selection import SequentialFeatureSelector
from sklearn.linear_model import LinearRegression, OrthogonalMatchingPursuit
from sklearn.neighbors import KNeighborsClassifier

from mlcourse.feature_selection import (
    CRITERIA,
    FeatureSelector,
    HistogramClassifier,
    backward_elimination,
    conditional_mutual_information,
    discretize,
    entropy,
    forward_selection,
    kfold_splits,
    kuncheva_index,
    mutual_information,
    orthogonal_matching_pursuit,
    select_features,
)

sys.path.insert(0, str(Path(__file__).parent))
from feast_paths import feast  # noqa: E402

EPS = np.finfo(float).eps


def brute_force(X, t, k, criterion):
    """The lecture's criteria, term by term from the public MI functions, no caching."""
    I, Ic = mutual_information, conditional_mutual_information
    p = X.shape[1]
    rel = [I(X[:, j], t) for j in range(p)]
    order = [int(np.argmax(rel))]
    while len(order) < k:
        best, arg = -np.inf, None
        for j in range(p):
            if j in order:
                continue
            if criterion == "mim":
                s = rel[j]
            elif criterion == "jmi":
                s = sum(Ic(X[:, j], t, X[:, i]) for i in order)
            elif criterion == "cmim":
                s = min(Ic(X[:, j], t, X[:, i]) for i in order)
            else:
                s = rel[j] - np.mean([I(X[:, j], X[:, i]) for i in order])
            if s > best + 1e-9:
                best, arg = s, j
        order.append(arg)
    return order


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return X, y


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("seed", range(3))
def test_greedy_selectors_equal_the_term_by_term_criteria(criterion, seed):
    rng = np.random.default_rng(seed)
    n, p = 300, 8
    t = rng.integers(0, 3, n)
    X = rng.integers(0, 4, (n, p))
    X[:, 2] = np.where(
        rng.random(n) < 0.6, t, X[:, 2]
    )  # informative, and redundant pairs
    X[:, 5] = np.where(rng.random(n) < 0.5, X[:, 2], X[:, 5])
    X[:, 6] = (X[:, 1] + t) % 4  # jointly informative with x_1
    assert list(select_features(X, t, 6, criterion)) == brute_force(X, t, 6, criterion)


# FEAST's README (github.com/Craigacp/FEAST, v2.0.0): MATLAB's feast() on a 569 × 30 data set
# (the Wisconsin diagnostic breast cancer data), 1-based indices.
FEAST_README = {
    "jmi": [28, 21, 8, 27, 23],
    "mrmr": [28, 24, 22, 8, 27, 21, 29, 4, 7, 25],
}


@pytest.mark.parametrize("criterion", sorted(FEAST_README))
def test_feast_published_selection_on_breast_cancer(cancer, criterion):
    X, y = cancer
    expected = np.array(FEAST_README[criterion]) - 1
    assert list(select_features(X, y, len(expected), criterion, n_bins=5)) == list(
        expected
    )


def test_feast_code_paths_on_breast_cancer(cancer):
    """MIM, JMI and mRMR agree with FEAST's code paths for 10 picks; CMIM agrees for 8 and then
    parts: FEAST's (Fleuret's fast) CMIM starts each partial score at I(x_j; t), so it takes
    min(I(x_j; t), min_i I(x_j; t | x_i)); the lecture's takes the minimum over i only, and
    feature 9 (mean fractal dimension), with I(x_9; t) below every I(x_9; t | x_i), separates
    them."""
    X, y = cancer
    D = discretize(X, 5)
    rows, labels = D.tolist(), y.tolist()
    for criterion in ("mim", "jmi", "mrmr"):
        assert list(select_features(D, y, 10, criterion)) == feast(
            criterion, 10, rows, labels
        )
    ours, theirs = (
        list(select_features(D, y, 10, "cmim")),
        feast("cmim", 10, rows, labels),
    )
    assert ours[:8] == theirs[:8] and ours[8] == 9 and 9 not in theirs
    selected = ours[:8]
    I9 = mutual_information(D[:, 9], y)
    assert all(
        conditional_mutual_information(D[:, 9], y, D[:, i]) > I9 for i in selected
    )


@pytest.mark.parametrize("seed", range(4))
def test_feast_code_paths_on_random_discrete_data(seed):
    rng = np.random.default_rng(seed)
    n, p = 200, 7
    t = rng.integers(0, 2, n)
    X = rng.integers(0, 3, (n, p))
    X[:, 3] = np.where(rng.random(n) < 0.4, t, X[:, 3])
    X[:, 4] = (X[:, 0] + X[:, 1] * t) % 3  # informative only jointly with x_0 and x_1
    for criterion in ("mim", "jmi", "mrmr"):
        assert list(select_features(X, t, 5, criterion)) == feast(
            criterion, 5, X.tolist(), t.tolist()
        )


def test_ties_go_to_the_lowest_index_and_constant_columns_last():
    rng = np.random.default_rng(3)
    n = 200
    t = rng.integers(0, 2, n)
    informative = np.where(rng.random(n) < 0.8, t, 1 - t)
    X = np.c_[np.zeros(n), informative, 1 - informative, informative, np.full(n, 7.0)]
    for criterion in CRITERIA:
        order = select_features(X, t, 5, criterion)
        assert order[0] == 1  # x_1, x_2, x_3 carry the same information
        assert set(order[-2:]) == {0, 4}  # the constant columns come last
        assert order[-2] == 0  # and between themselves, by index
    assert list(select_features(X, t, 3, "mim")) == [1, 2, 3]


def test_continuous_and_integer_valued_input(cancer):
    X, y = cancer
    D = discretize(X, 5)
    assert list(select_features(X, y, 5)) == list(select_features(D, y, 5))
    assert list(select_features(D.astype(float), y, 5)) == list(
        select_features(D, y, 5)
    )
    # n_bins=None takes X as it is: every distinct float its own state
    assert list(select_features(D * 0.5, y, 5, n_bins=None)) == list(
        select_features(D, y, 5)
    )


# --- wrapper search --------------------------------------------------------------------------


def xor_data(n=400, seed=1):
    """x_1, x_2 balanced bits with t = x_1 XOR x_2; x_3, x_4 noisy copies of t (75 %, 70 %);
    x_5 noise."""
    rng = np.random.default_rng(seed)
    x1 = np.repeat([0, 0, 1, 1], n // 4)
    x2 = np.tile(np.repeat([0, 1], n // 8), 4)
    t = x1 ^ x2
    x3 = np.where(rng.random(n) < 0.75, t, 1 - t)
    x4 = np.where(rng.random(n) < 0.7, t, 1 - t)
    return np.c_[x1, x2, x3, x4, rng.integers(0, 2, n)], t


def test_xor_example():
    X, t = xor_data()
    # balanced: Î(x_1; t) = Î(x_2; t) = 0 up to the rounding of three entropies of 4 cells
    for j in (0, 1):
        assert abs(mutual_information(X[:, j], t)) < 3 * 10 * EPS * 4 * np.log(len(t))
    assert mutual_information(X[:, :2], t) == pytest.approx(np.log(2), abs=10 * EPS)
    model = HistogramClassifier()
    for j in (0, 1):
        assert forward_selection(model, X[:, [j]], t, 1).scores[0] <= 0.5
    assert forward_selection(model, X[:, :2], t, 2).scores[-1] == 1.0
    forward = forward_selection(model, X, t, 2)
    backward = backward_elimination(model, X, t, 2)
    assert set(forward.features) != {0, 1}
    assert list(backward.features) == [0, 1] and backward.scores[-1] == 1.0
    for criterion in CRITERIA:  # univariate and pairwise filters miss it too
        assert set(select_features(X, t, 2, criterion)) != {0, 1}


class Counting(HistogramClassifier):
    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        return super().fit(X, y)


def test_number_of_fits():
    X, t = xor_data()
    p, k, folds = X.shape[1], 2, 5
    Counting.fits = 0
    forward_selection(Counting(), X, t, k, cv=folds)
    assert Counting.fits == folds * sum(p - m for m in range(k))
    Counting.fits = 0
    backward_elimination(Counting(), X, t, k, cv=folds)
    assert Counting.fits == folds * (1 + sum(m for m in range(k + 1, p + 1)))


@pytest.mark.parametrize("direction", ["forward", "backward"])
@pytest.mark.parametrize(
    "estimator, scoring",
    [
        (KNeighborsClassifier(n_neighbors=7), None),
        (LinearRegression(), None),  # R²
        (LinearRegression(), "neg_mean_squared_error"),
    ],
    ids=["knn-accuracy", "linear-r2", "linear-mse"],
)
def test_agrees_with_sequential_feature_selector(cancer, direction, estimator, scoring):
    X, y = cancer
    X = (X[:, :8] - X[:, :8].mean(axis=0)) / X[:, :8].std(axis=0)
    splits = kfold_splits(len(X), 4, random_state=0)
    search = forward_selection if direction == "forward" else backward_elimination
    ours = search(
        estimator, X, y, 3, cv=splits, scoring=None if scoring is None else _neg_mse
    )
    theirs = SequentialFeatureSelector(
        estimator,
        n_features_to_select=3,
        direction=direction,
        scoring=scoring,
        cv=splits,
    ).fit(X, y)
    assert sorted(ours.features) == list(np.flatnonzero(theirs.get_support()))


def _neg_mse(estimator, X, y):
    return -float(np.mean((y - estimator.predict(X)) ** 2))


def test_rss_forward_selection_is_orthogonal_least_squares():
    """Forward selection by the drop ΔS² of the training residual sum of squares is OMP with the
    orthogonalised rule ("ols")."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((60, 10)) @ np.triu(np.ones((10, 10)))  # correlated columns
    y = X[:, [1, 4, 7]] @ [1.0, -2.0, 0.5] + 0.1 * rng.standard_normal(60)
    path = forward_selection(
        LinearRegression(fit_intercept=False), X, y, 4, scoring="rss", cv=None
    )
    assert list(path.features) == list(
        orthogonal_matching_pursuit(X, y, 4, method="ols").support
    )
    assert np.all(np.diff(path.scores) > 0)


def test_kfold_splits_partition_the_samples():
    splits = kfold_splits(23, 4, random_state=5)
    tests = np.concatenate([te for _, te in splits])
    assert sorted(tests) == list(range(23))
    assert [len(te) for _, te in splits] == [6, 6, 6, 5]
    for train, test in splits:
        assert not set(train) & set(test) and len(train) + len(test) == 23
    assert all(
        np.array_equal(a[1], b[1]) for a, b in zip(splits, kfold_splits(23, 4, 5))
    )


# --- OMP -------------------------------------------------------------------------------------


def compressed_sensing(n=80, p=200, k=6, noise=0.01, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, p)) / np.sqrt(n)  # columns of unit norm on average
    w = np.zeros(p)
    w[rng.choice(p, k, replace=False)] = rng.choice([-1, 1], k) * rng.uniform(1, 2, k)
    return A, w, A @ w + noise * rng.standard_normal(n)


def test_omp_agrees_with_scikit_learn():
    A, w, y = compressed_sensing()
    A = A / np.linalg.norm(A, axis=0)  # scikit-learn picks argmax |x_jᵀr|: unit norms
    k = 10
    ours = orthogonal_matching_pursuit(A, y, k)
    sk = OrthogonalMatchingPursuit(n_nonzero_coefs=k, fit_intercept=False).fit(A, y)
    assert set(ours.support) == set(np.flatnonzero(sk.coef_))
    # scikit-learn solves the normal equations by Cholesky: error ε·κ(A_S)²·‖w‖; ours ε·κ·‖w‖
    kappa = np.linalg.cond(A[:, ours.support])
    np.testing.assert_allclose(
        ours.coef,
        sk.coef_,
        rtol=0,
        atol=10 * EPS * len(y) * kappa**2 * np.abs(sk.coef_).max(),
    )
    ref = np.linalg.lstsq(A[:, ours.support], y, rcond=None)[0]
    np.testing.assert_allclose(
        ours.coef[ours.support],
        ref,
        rtol=0,
        atol=10 * EPS * len(y) * kappa * np.abs(ref).max(),
    )


def test_omp_recovers_a_sparse_vector():
    A, w, y = compressed_sensing()
    k = np.count_nonzero(w)
    res = orthogonal_matching_pursuit(A, y, k)
    assert set(res.support) == set(np.flatnonzero(w))
    # the least-squares error on the true support: σ·‖(A_SᵀA_S)^{-1/2}‖ per weight, 5 σ
    s = np.flatnonzero(w)
    sd = 0.01 / np.linalg.svd(A[:, s], compute_uv=False).min()
    assert np.abs(res.coef - w).max() < 5 * sd


def test_omp_and_ols_rules():
    """OLS = the greedy least-squares step, by brute force; on a dictionary with a column nearly
    parallel to a selected one, OMP's raw-norm rule chooses differently."""
    rng = np.random.default_rng(5)
    n = 30
    a, b, c = np.linalg.qr(rng.standard_normal((n, 3)))[0].T * np.sqrt(n)  # orthogonal
    X = np.c_[a, a - 0.3 * b, c]  # column 1 nearly parallel to column 0
    y = (
        3.0 * a + b + 0.8 * c
    )  # both rules pick column 0 first; then, with r = b + 0.8c,
    # OMP scores column 1 by 0.09n/1.09 < 0.64n (column 2), OLS by 0.09n/0.09 = n > 0.64n
    for k in (1, 2):
        support = list(orthogonal_matching_pursuit(X, y, k, method="ols").support)
        rss = {
            j: np.sum(
                (
                    y
                    - X[:, support[:-1] + [j]]
                    @ np.linalg.lstsq(X[:, support[:-1] + [j]], y, rcond=None)[0]
                )
                ** 2
            )
            for j in range(3)
            if j not in support[:-1]
        }
        assert support[-1] == min(rss, key=rss.get)
    omp, ols = (
        orthogonal_matching_pursuit(X, y, 2, method=m).support for m in ("omp", "ols")
    )
    assert omp[0] == ols[0] and omp[1] != ols[1]


def test_omp_stops_at_the_rank():
    rng = np.random.default_rng(6)
    X = rng.standard_normal((40, 3)) @ rng.standard_normal((3, 8))
    y = rng.standard_normal(40)
    with pytest.warns(RuntimeWarning, match="exceeds the rank of X; stopped after 3"):
        res = orthogonal_matching_pursuit(X, y, 5)
    assert len(res.support) == 3 and np.count_nonzero(res.coef) == 3
    X[:, 0] = 0.0  # a zero column is never chosen
    assert 0 not in orthogonal_matching_pursuit(X, y, 3).support


# --- the plug-in classifier and the stability index ------------------------------------------


def test_histogram_classifier_log_loss_is_the_conditional_entropy():
    rng = np.random.default_rng(7)
    X = rng.integers(0, 3, (300, 2))
    t = (X[:, 0] + rng.integers(0, 2, 300)) % 3
    model = HistogramClassifier(smoothing=0).fit(X, t)
    q = model.predict_proba(X)[np.arange(len(t)), t]
    assert -np.mean(np.log(q)) == pytest.approx(
        entropy(X, t) - entropy(X), abs=100 * EPS * np.log(len(t))
    )
    unseen = model.predict_proba(np.array([[9.0, 9.0]]))
    np.testing.assert_allclose(unseen[0], np.bincount(t) / len(t), rtol=0, atol=EPS)


def test_kuncheva_index():
    assert kuncheva_index([[0, 3, 5], [5, 3, 0], [3, 0, 5]], 10) == 1.0
    assert kuncheva_index([[0, 1], [2, 3]], 4) == -1.0  # disjoint halves: the minimum
    rng = np.random.default_rng(8)
    p, k, reps = 30, 5, 2000
    values = [
        kuncheva_index([rng.choice(p, k, replace=False) for _ in range(2)], p)
        for _ in range(reps)
    ]
    assert abs(np.mean(values)) < 4 * np.std(values) / np.sqrt(
        reps
    )  # unbiased for chance


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda X, y: select_features(X, y, 0), "n_features must be .*>= 1"),
        (
            lambda X, y: select_features(X, y, 6),
            "n_features=6 is larger than the data allow.*5 feature\\(s\\)",
        ),
        (lambda X, y: select_features(X, y, 2.5), "n_features must be an integer"),
        (
            lambda X, y: select_features(np.where(X > 1, np.nan, X), y, 2),
            "X contains NaN",
        ),
        (lambda X, y: select_features(X, y[:-1], 2), "X has 50, y has 49"),
        (lambda X, y: select_features(X, np.zeros_like(y), 2), "y has one class"),
        (lambda X, y: select_features(X, y, 2, criterion="mifs"), "criterion"),
        (lambda X, y: select_features(X, y, 2, n_bins=1), "n_bins"),
        (
            lambda X, y: forward_selection(HistogramClassifier(), X, y, 6),
            "n_features=6 is larger than the data allow",
        ),
        (
            lambda X, y: backward_elimination(HistogramClassifier(), X, y, 0),
            "n_features",
        ),
        (
            lambda X, y: forward_selection(HistogramClassifier(), X, y[:-1], 2),
            "y has 49",
        ),
        (
            lambda X, y: forward_selection(
                HistogramClassifier(), X, y, 2, scoring="auc"
            ),
            "scoring",
        ),
        (
            lambda X, y: forward_selection(HistogramClassifier(), X, y, 2, cv=1),
            r"cv=1 cannot split X of shape \(50, 5\)",
        ),
        (
            lambda X, y: forward_selection(HistogramClassifier(), X, y, 2, cv="folds"),
            "cv",
        ),
        (lambda X, y: forward_selection("model", X, y, 2), "estimator"),
        (lambda X, y: orthogonal_matching_pursuit(X, y, 6), "n_nonzero=6 exceeds"),
        (lambda X, y: orthogonal_matching_pursuit(X, y, 0), "n_nonzero"),
        (lambda X, y: orthogonal_matching_pursuit(X, y, 2, method="lasso"), "method"),
        (
            lambda X, y: orthogonal_matching_pursuit(X, np.where(y > 0, np.nan, y), 2),
            "y contains NaN",
        ),
        (lambda X, y: kuncheva_index([[0, 1]], 5), "at least two"),
        (lambda X, y: kuncheva_index([[0, 1], [0, 1, 2]], 5), "subsets\\[1\\]"),
        (lambda X, y: kuncheva_index([[0, 1], [0, 7]], 5), "outside"),
        (lambda X, y: HistogramClassifier(smoothing=-1.0).fit(X, y), "smoothing"),
        (
            lambda X, y: HistogramClassifier().fit(X, np.zeros_like(y)),
            "single class|one class",
        ),
    ],
)
def test_bad_input_names_the_argument(call, match):
    rng = np.random.default_rng(9)
    X = rng.integers(0, 3, (50, 5)).astype(float)
    y = rng.integers(0, 2, 50)
    with pytest.raises(ValueError, match=match):
        call(X, y)


def test_combinations_helper_is_exhaustive():
    """kuncheva_index averages over every pair (here 3 subsets: 3 pairs)."""
    subsets = [[0, 1], [0, 2], [3, 4]]
    pairs = [kuncheva_index([a, b], 6) for a, b in combinations(subsets, 2)]
    assert kuncheva_index(subsets, 6) == pytest.approx(np.mean(pairs), abs=EPS)


# --- issue 25: scikit-learn's cv and scoring, extreme scales, a named cv -----------------------


@pytest.mark.parametrize("direction", ["forward", "backward"])
@pytest.mark.parametrize("k", [2, 4, 6])
def test_equals_sequential_feature_selector_on_diabetes(direction, k):
    """cv=5 and scoring="r2" mean what they mean in scikit-learn (unshuffled KFold through
    check_cv, the r2 scorer through check_scoring): the same estimator gives exactly
    SequentialFeatureSelector's selection (before issue 25, cv=5 shuffled its folds and the
    fourth forward pick differed)."""
    from sklearn.datasets import load_diabetes

    X, y = load_diabetes(return_X_y=True)
    search = forward_selection if direction == "forward" else backward_elimination
    ours = search(LinearRegression(), X, y, k, scoring="r2", cv=5)
    theirs = SequentialFeatureSelector(
        LinearRegression(),
        n_features_to_select=k,
        direction=direction,
        scoring="r2",
        cv=5,
    ).fit(X, y)
    assert sorted(ours.features) == list(np.flatnonzero(theirs.get_support()))


def test_an_int_cv_with_a_random_state_is_kfold_splits():
    """random_state with an int cv keeps the seeded shuffle of kfold_splits (the old default,
    and the chapter's)."""
    rng = np.random.default_rng(3)
    X, y = rng.standard_normal((40, 4)), rng.integers(0, 2, 40)
    seeded = forward_selection(HistogramClassifier(), X > 0, y, 2, cv=4, random_state=0)
    explicit = forward_selection(
        HistogramClassifier(), X > 0, y, 2, cv=kfold_splits(40, 4, random_state=0)
    )
    np.testing.assert_array_equal(seeded.features, explicit.features)
    np.testing.assert_array_equal(seeded.scores, explicit.scores)


@pytest.mark.parametrize("random_state", [None, 0])
def test_a_cv_larger_than_the_data_names_cv(random_state):
    """forward_selection(cv=51) on 50 rows (issue 25) names cv and X, not n_samples."""
    rng = np.random.default_rng(5)
    X, y = rng.standard_normal((50, 3)), rng.standard_normal(50)
    with pytest.raises(ValueError, match=r"cv=51 cannot split X of shape \(50, 3\)"):
        forward_selection(LinearRegression(), X, y, 1, cv=51, random_state=random_state)


def test_an_unknown_scorer_name_names_scoring():
    rng = np.random.default_rng(5)
    X, y = rng.standard_normal((30, 3)), rng.standard_normal(30)
    with pytest.raises(ValueError, match=r"scoring='r_two' is not usable"):
        forward_selection(LinearRegression(), X, y, 1, scoring="r_two")


@pytest.mark.parametrize("scale", [1e150, 1e-150])
def test_selection_is_unchanged_at_extreme_scales(scale):
    """X × 1e150 (issue 25): huge floats are all integers, but they are not read as discrete
    codes (whose int64 cast overflowed); they are binned like X, so the selection, the
    scores and the ranking are those of X. No RuntimeWarning on the way."""
    rng = np.random.default_rng(6)
    X = rng.standard_normal((80, 5))
    y = (X[:, 1] + 0.5 * X[:, 3] > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scaled = FeatureSelector(3).fit(scale * X, y)
    plain = FeatureSelector(3).fit(X, y)
    np.testing.assert_array_equal(scaled.features_, plain.features_)
    np.testing.assert_array_equal(scaled.scores_, plain.scores_)


def test_integer_codes_far_apart_do_not_overflow():
    """Integer columns whose range exceeds int64 (−2⁶², 2⁶²): coded by their distinct values."""
    X = np.array([[-(2**62), 0], [2**62, 1], [0, 0], [2**62, 1]] * 5, dtype=np.int64)
    y = np.array([0, 1, 0, 1] * 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(select_features(X, y, 2, "mim")) == [0, 1]


def test_feature_selector_transform_validates_X_like_fit():
    """transform (issue 25) refuses strings and names X; an object array of numbers is read
    as float64 (it returned an object array before); the width of fit is required."""
    rng = np.random.default_rng(7)
    X, y = rng.integers(0, 3, (40, 4)), rng.integers(0, 2, 40)
    selector = FeatureSelector(2).fit(X, y)
    with pytest.raises(ValueError, match="X must be numeric; it holds strings"):
        selector.transform(X.astype(str))
    out = selector.transform(X.astype(object))
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, X[:, selector.get_support()])
    with pytest.raises(ValueError, match="X has 3 features, but FeatureSelector is"):
        selector.transform(X[:, :3])
    with pytest.raises(ValueError, match="X holds complex numbers"):
        selector.transform(X + 1j)
