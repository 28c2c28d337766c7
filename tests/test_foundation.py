"""The shared helpers every chapter builds on: validation, the estimator base, stable functions,
the probit approximation, the check helpers, data generators, plots and sliders (the kernels are
tested in tests/kernels/)."""

import numpy as np
import pytest
from scipy import integrate, special, stats

from mlcourse import checks, datasets, laplace, plotting
from mlcourse import special as sp
from mlcourse.base import BaseEstimator, ClassifierMixin
from mlcourse.exceptions import NotFittedError
from mlcourse.utils.validation import check_array, check_random_state, check_scalar, encode_labels

# --- validation and the estimator base ---------------------------------------------------------


def test_check_array_messages():
    with pytest.raises(ValueError, match=r"X must be a 2-D array.*shape \(3,\).*reshape"):
        check_array([1, 2, 3])
    with pytest.raises(ValueError, match="X contains NaN"):
        check_array([[1.0, np.nan]])
    with pytest.raises(ValueError, match="X contains infinity"):
        check_array([[1.0, np.inf]])
    with pytest.raises(ValueError, match="at least 2 sample"):
        check_array([[1.0, 2.0]], min_samples=2)
    with pytest.raises(ValueError, match="X must be numeric"):
        check_array([["a", "b"]])


def test_encode_labels():
    classes, idx = encode_labels(["b", "a", "b"])
    assert classes.tolist() == ["a", "b"] and idx.tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="only one class"):
        encode_labels([3, 3, 3])
    with pytest.raises(ValueError, match="3 classes.*exactly 2"):
        encode_labels([0, 1, 2], n_classes=2)
    with pytest.raises(ValueError, match="y contains NaN"):
        encode_labels([0.0, np.nan, 1.0])


def test_check_scalar_and_random_state():
    assert check_scalar(0.5, "alpha", low=0) == 0.5
    with pytest.raises(ValueError, match="alpha must be >= 0; got -1"):
        check_scalar(-1, "alpha", low=0)
    with pytest.raises(ValueError, match="gamma must be > 0"):
        check_scalar(0.0, "gamma", low=0, low_inclusive=False)
    with pytest.raises(ValueError, match="must be finite"):
        check_scalar(np.nan, "alpha", low=0)
    with pytest.raises(ValueError, match="must be a real number"):
        check_scalar("1", "alpha")
    with pytest.raises(ValueError, match="must be an integer"):
        check_scalar(1.5, "max_iter", integer=True)
    a = check_random_state(3).random(3)
    np.testing.assert_array_equal(a, np.random.default_rng(3).random(3))
    with pytest.raises(ValueError, match="random_state"):
        check_random_state("seed")


class Toy(ClassifierMixin, BaseEstimator):
    def __init__(self, alpha=1.0, solver="irls"):
        self.alpha = alpha
        self.solver = solver

    def fit(self, X, y):
        self._reset()
        self.classes_, _ = encode_labels(y)
        self.mean_ = np.mean(X)
        return self

    def predict_proba(self, X):
        self._check_fitted()
        return np.tile([0.3, 0.7], (len(X), 1))


def test_estimator_contract():
    est = Toy(alpha=2.0)
    assert est.get_params() == {"alpha": 2.0, "solver": "irls"}
    assert repr(est) == "Toy(alpha=2.0)"
    with pytest.raises(NotFittedError, match="Toy instance is not fitted yet"):
        est.predict([[0.0]])
    with pytest.raises(ValueError):        # NotFittedError is a ValueError ...
        est.predict_proba([[0.0]])
    with pytest.raises(AttributeError):    # ... and an AttributeError, as in scikit-learn
        est.predict_proba([[0.0]])
    assert est.fit([[0.0], [1.0]], ["a", "b"]) is est
    assert est.predict([[0.0]]).tolist() == ["b"]
    assert est.score([[0.0], [1.0]], ["b", "a"]) == 0.5
    est.set_params(alpha=5.0)
    assert est.alpha == 5.0
    with pytest.raises(ValueError, match="Invalid parameter 'beta'"):
        est.set_params(beta=1)


# --- stable functions ----------------------------------------------------------------------------


def test_stable_functions_do_not_overflow():
    a = np.array([-1000.0, -30.0, 0.0, 30.0, 1000.0])
    with np.errstate(all="raise"):
        s = sp.sigmoid(a)
        ls = sp.log_sigmoid(a)
    assert np.all(np.isfinite(ls)) and ls[0] == pytest.approx(-1000.0)
    np.testing.assert_allclose(s[1:4], 1 / (1 + np.exp(-a[1:4])), rtol=1e-14)
    A = np.array([[1000.0, 1001.0, 999.0], [0.0, 0.0, 0.0]])
    np.testing.assert_allclose(sp.softmax(A).sum(axis=1), 1.0)
    np.testing.assert_allclose(np.exp(sp.log_softmax(A)), sp.softmax(A), rtol=1e-12)
    np.testing.assert_allclose(sp.probit([0.0, 1.0]), stats.norm.cdf([0.0, 1.0]), rtol=1e-14)
    assert np.isfinite(sp.log_probit(-40.0))


# --- probit approximation ------------------------------------------------------------------------


def exact_logistic_gaussian(mu, var):
    f = lambda a: special.expit(a) * stats.norm.pdf(a, mu, np.sqrt(var))  # noqa: E731
    return integrate.quad(f, mu - 12 * np.sqrt(var), mu + 12 * np.sqrt(var))[0]


@pytest.mark.parametrize("mu, var", [(0.0, 1.0), (1.0, 0.5), (-2.0, 4.0), (3.0, 10.0), (0.5, 0.0)])
def test_probit_approximation_close_to_quadrature(mu, var):
    approx = laplace.probit_approximation(mu, var)
    exact = special.expit(mu) if var == 0 else exact_logistic_gaussian(mu, var)
    assert abs(approx - exact) < 0.02   # the approximation's known accuracy (Bishop Fig. 4.9)


def test_probit_approximation_broadcasts_and_validates():
    out = laplace.probit_approximation(np.zeros((3, 1)), np.ones(4))
    assert out.shape == (3, 4) and np.allclose(out, 0.5)
    assert isinstance(laplace.probit_approximation(0.0, 1.0), float)
    with pytest.raises(ValueError, match="var must be non-negative"):
        laplace.probit_approximation(0.0, -1.0)
    with pytest.raises(ValueError, match="mean contains NaN"):
        laplace.probit_approximation(np.nan, 1.0)
    with pytest.raises(ValueError, match="broadcast"):
        laplace.probit_approximation(np.zeros(3), np.ones(2))


# --- checks, data, plots, widgets ----------------------------------------------------------------


def test_check_helpers(capsys):
    checks.check_close([1.0, np.inf], [1.0 + 1e-13, np.inf], "a", rtol=1e-12)
    assert "✓ a" in capsys.readouterr().out
    with pytest.raises(AssertionError, match="b: max"):
        checks.check_close(1.0, 1.1, "b", rtol=1e-3)
    with pytest.raises(AssertionError, match="c: max"):
        checks.check_close(np.nan, 1.0, "c", atol=1.0)
    with pytest.raises(AssertionError, match="d: not equal"):
        checks.check_equal([1, 2], [1, 3], "d")
    with pytest.raises(AssertionError, match="e: does not hold"):
        checks.check(False, "e")


def test_gaussian_classes(rng):
    X, y = datasets.gaussian_classes([300, 200], [[0, 0], [3, 1]], [[1, 0.5], [0.5, 2]], random_state=0)
    assert X.shape == (500, 2) and np.bincount(y).tolist() == [300, 200]
    np.testing.assert_allclose(X[y == 1].mean(0), [3, 1], atol=0.3)
    X2, _ = datasets.gaussian_classes([300, 200], [[0, 0], [3, 1]], [[1, 0.5], [0.5, 2]], random_state=0)
    np.testing.assert_array_equal(X, X2)
    with pytest.raises(ValueError, match="cov must have shape"):
        datasets.gaussian_classes(5, [[0, 0]], np.eye(3))
    with pytest.raises(ValueError, match="positive definite"):
        datasets.gaussian_classes(5, [[0, 0]], [[1, 2], [2, 1]])
    X3, y3 = datasets.gaussian_classes(np.int64(4), [[0, 0], [3, 1]], np.eye(2), random_state=0)
    assert X3.shape == (8, 2) and np.bincount(y3).tolist() == [4, 4]
    assert np.bincount(datasets.gaussian_classes(np.array([2, 3]), [[0], [1]], [[1.0]])[1]).tolist() \
        == [2, 3]


@pytest.mark.parametrize("n_per_class, match", [
    (2.5, "n_per_class must be an integer; got 2.5"),
    (np.nan, "n_per_class must be an integer; got nan"),
    (0, "n_per_class must be >= 1; got 0"),
    ([3, -1], "n_per_class must be >= 1; got -1"),
    ([3, 2.0], "n_per_class must be an integer; got 2.0"),
    ([3, 3, 3], r"n_per_class must be one int or a sequence of 2 ints.*got \[3, 3, 3\]"),
    (np.ones((2, 1), dtype=int), "n_per_class must be one int or a sequence of 2 ints"),
    ([[1, 2], 3], "n_per_class must be an integer; got \\[1, 2\\]"),
    ("10", "n_per_class must be an integer; got '10'"),
])
def test_gaussian_classes_rejects_bad_n_per_class(n_per_class, match):
    with pytest.raises(ValueError, match=match):
        datasets.gaussian_classes(n_per_class, [[0, 0], [3, 1]], np.eye(2), random_state=0)


def test_plots_draw():
    import matplotlib.pyplot as plt
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 50)
    s = rng.normal(size=50) + y
    axes = plotting.plot_operating_point(y, s, threshold=0.5)
    assert len(axes[0].lines) >= 2
    X = rng.normal(size=(50, 2))
    plotting.plot_probability_2d(lambda P: special.expit(P[:, 0]), X, y, n=20)
    with pytest.raises(ValueError, match="2 columns"):
        plotting.grid_2d(np.zeros((5, 3)))
    plt.close("all")


def test_widgets_build_sliders():
    from mlcourse import widgets
    s = widgets.slider(0.5, 0.0, 1.0)
    assert (s.min, s.max, s.value) == (0.0, 1.0, 0.5)
    ls = widgets.log_slider(1.0, 1e-3, 1e3)
    assert ls.value == pytest.approx(1.0)
