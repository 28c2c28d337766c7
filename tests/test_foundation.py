"""The shared helpers every chapter builds on: validation, the estimator base, stable functions,
the probit approximation, the check helpers, data generators, plots and sliders (the kernels are
tested in tests/kernels/)."""

import io

import numpy as np
import pytest
from scipy import integrate, special, stats

from mlcourse import checks, datasets, laplace, plotting
from mlcourse import special as sp
from mlcourse.base import BaseEstimator, ClassifierMixin
from mlcourse.exceptions import NotFittedError
from mlcourse.utils.validation import (
    check_array,
    check_is_fitted,
    check_random_state,
    check_scalar,
    encode_labels,
)

# --- validation and the estimator base ---------------------------------------------------------


def test_check_array_messages():
    with pytest.raises(
        ValueError, match=r"X must be a 2-D array.*shape \(3,\).*reshape"
    ):
        check_array([1, 2, 3])
    with pytest.raises(ValueError, match="X contains NaN"):
        check_array([[1.0, np.nan]])
    with pytest.raises(ValueError, match="X contains infinity"):
        check_array([[1.0, np.inf]])
    with pytest.raises(ValueError, match=r"1 sample\(s\).*a minimum of 2 is required"):
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
    with pytest.raises(ValueError, match="alpha must be .*>= 0; got -1"):
        check_scalar(-1, "alpha", low=0)
    with pytest.raises(ValueError, match="gamma must be .*> 0"):
        check_scalar(0.0, "gamma", low=0, low_inclusive=False)
    with pytest.raises(ValueError, match="must be a finite"):
        check_scalar(np.nan, "alpha", low=0)
    with pytest.raises(ValueError, match="must be a finite real number"):
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
        check_is_fitted(self)
        return np.tile([0.3, 0.7], (len(X), 1))


def test_estimator_contract():
    est = Toy(alpha=2.0)
    assert est.get_params() == {"alpha": 2.0, "solver": "irls"}
    assert repr(est) == "Toy(alpha=2.0)"
    with pytest.raises(NotFittedError, match="Toy instance is not fitted yet"):
        est.predict([[0.0]])
    with pytest.raises(ValueError):  # NotFittedError is a ValueError ...
        est.predict_proba([[0.0]])
    with pytest.raises(AttributeError):  # ... and an AttributeError, as in scikit-learn
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
    np.testing.assert_allclose(
        sp.probit([0.0, 1.0]), stats.norm.cdf([0.0, 1.0]), rtol=1e-14
    )
    assert np.isfinite(sp.log_probit(-40.0))


def _logsumexp_inputs(rng):
    A = rng.standard_normal((200, 7)) * 30
    B = A.copy()
    B[0, 0], B[1, :], B[2, 3], B[4, 0] = np.inf, -np.inf, np.nan, -np.inf
    B[3, :2] = B[3].max() + 1  # a tied maximum: m = 2
    return [
        A,
        A.T,
        A[:, :1],
        B,
        rng.standard_normal(50),
        np.full((4, 5), 2.0),  # every term the maximum
        rng.integers(-5, 5, (6, 6)),
        rng.standard_normal((3, 4, 5)).astype(np.float32),
        np.array([np.inf, np.inf]),
        np.array([-np.inf, -np.inf]),
    ]


def test_logsumexp_is_scipys_to_the_bit(rng):
    # mlcourse's logsumexp does SciPy's arithmetic without its array-API machinery: the same
    # values, shapes, dtypes and scalar types, including infinities, NaN and tied maxima
    for a in _logsumexp_inputs(rng):
        for axis in (None, 0, -1, (0, 1)) if a.ndim > 1 else (None, 0):
            for keepdims in (False, True):
                with np.errstate(all="ignore"):
                    expected = special.logsumexp(a, axis=axis, keepdims=keepdims)
                with np.errstate(all="raise"):  # and no warning of its own
                    got = sp.logsumexp(a, axis=axis, keepdims=keepdims)
                assert type(got) is type(expected)
                assert np.asarray(got).dtype == np.asarray(expected).dtype
                np.testing.assert_array_equal(got, expected, strict=True)
    # what it hands to SciPy: weights, signs, 0-d and empty input
    a = rng.standard_normal(6)
    b = rng.uniform(-1, 1, 6)
    assert sp.logsumexp(a, b=b, return_sign=True) == special.logsumexp(
        a, b=b, return_sign=True
    )
    assert sp.logsumexp(np.array(3.0), keepdims=True) == special.logsumexp(
        np.array(3.0), keepdims=True
    )


# --- probit approximation ------------------------------------------------------------------------


def exact_logistic_gaussian(mu, var):
    f = lambda a: special.expit(a) * stats.norm.pdf(a, mu, np.sqrt(var))  # noqa: E731
    return integrate.quad(f, mu - 12 * np.sqrt(var), mu + 12 * np.sqrt(var))[0]


@pytest.mark.parametrize(
    "mu, var", [(0.0, 1.0), (1.0, 0.5), (-2.0, 4.0), (3.0, 10.0), (0.5, 0.0)]
)
def test_probit_approximation_close_to_quadrature(mu, var):
    approx = laplace.probit_approximation(mu, var)
    exact = special.expit(mu) if var == 0 else exact_logistic_gaussian(mu, var)
    assert (
        abs(approx - exact) < 0.02
    )  # the approximation's known accuracy (Bishop Fig. 4.9)


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


@pytest.mark.parametrize(
    "bound, digits, expected",
    [
        (3.2e-7, 1, 4e-7),
        (3e-10, 1, 3e-10),
        (3e-10 * (1 + 1e-12), 1, 3e-10),
        (0.95, 1, 1.0),
        (1.234e-5, 2, 1.3e-5),
        (7.0, 1, 7.0),
        (7.01, 1, 8.0),
        (123.0, 2, 130.0),
    ],
)
def test_round_up(bound, digits, expected):
    assert checks.round_up(bound, digits) == pytest.approx(expected, rel=1e-12)


def test_round_up_is_an_upper_bound_within_one_unit(rng):
    for bound in 10.0 ** rng.uniform(-16, 3, 200):
        for digits in (1, 2):
            up = checks.round_up(bound, digits)
            unit = 10.0 ** (np.floor(np.log10(bound)) - digits + 1)
            assert bound * (1 - 1e-6) <= up <= bound + unit * (1 + 1e-9)


@pytest.mark.parametrize("bad", [0.0, -1e-3, np.nan, np.inf])
def test_round_up_rejects_a_non_positive_bound(bad):
    with pytest.raises(ValueError, match="bound must be a positive finite number"):
        checks.round_up(bad)


def test_relative_rounding():
    assert checks.relative_rounding(3, 4) == 10 * checks.EPS * 10
    assert checks.relative_rounding(500, 40) == 10 * checks.EPS * 500


def test_central_differences_and_their_error_bounds():
    """sin at x: the error of a central difference is below fd_error's bound, and of the
    truncation's own size (the bound is not vacuous); the step-4h estimate of the truncation
    for z³ (third derivative 6, error h² exactly, up to rounding) is h²."""
    from mlcourse.utils.numdiff import central_differences

    EPS = checks.EPS
    x, h = np.array([0.3, 1.2, 2.5]), 1e-3
    fd = central_differences(lambda z: np.sin(z).sum(), x, h)
    bound = checks.fd_error(EPS * np.abs(np.sin(x)).sum(), np.abs(x), 1.0, 1.0, h)
    err = np.abs(fd - np.cos(x))
    assert np.all(err <= bound) and np.all(bound <= 2 * h**2 / 6)
    assert np.all(err > 0.5 * h**2 / 6 * np.abs(np.cos(x)))
    fd_h, fd_4h = (
        central_differences(lambda z: (z**3).sum(), x, s) for s in (h, 4 * h)
    )
    np.testing.assert_allclose(checks.fd_truncation(fd_h, fd_4h, 4), h**2, rtol=1e-6)
    # a vector function: row i is the derivative in z_i (the transposed Jacobian)
    J = central_differences(
        lambda z: np.array([z[0] * z[1], z[1] ** 2]), np.array([2.0, 3.0]), h
    )
    np.testing.assert_allclose(J, [[3.0, 0.0], [2.0, 6.0]], atol=1e-9)


def test_nll_and_gradient_rounding_bound_the_rounding(rng):
    """E = Σ ln(1 + exp(a_n)) and its gradient in float64 against the same in extended
    precision (where NumPy has it): the errors stay below the bounds."""
    if np.finfo(np.longdouble).eps >= checks.EPS:
        pytest.skip("no extended precision on this platform")
    Phi = rng.normal(size=(300, 4)) * 3
    w = rng.normal(size=4)
    a, a_l = Phi @ w, Phi.astype(np.longdouble) @ w.astype(np.longdouble)
    nll, nll_l = np.logaddexp(0, a), np.logaddexp(np.longdouble(0), a_l)
    d1, d1_l = special.expit(a), 1 / (1 + np.exp(-a_l))
    E_err = abs(float(np.sum(nll) - np.sum(nll_l)))
    g_err = np.abs((Phi.T @ d1 - Phi.T.astype(np.longdouble) @ d1_l).astype(float))
    assert E_err <= checks.nll_rounding(Phi, w, nll, d1)
    assert np.all(g_err <= checks.gradient_rounding(Phi, w, d1, d1 * (1 - d1)))


def test_newton_gradient_and_optimum_gap_bound_a_fitted_logistic_regression():
    from mlcourse.linear import LogisticRegression, design_matrix, logistic_objective

    X, y = datasets.gaussian_classes(60, [[0, 0], [1, 1]], np.eye(2), random_state=1)
    model = LogisticRegression(alpha=1.0).fit(X, y)
    Phi, w = design_matrix(X), np.r_[model.intercept_, model.coef_[0]]
    A = np.r_[0.0, 1.0, 1.0]
    _, g, H = logistic_objective(w, Phi, y, precision=A)
    g_round = checks.gradient_rounding(Phi, w, special.expit(Phi @ w) - y, 0.25)
    g_bound = checks.newton_gradient(Phi, w, g_round, third=0.1)
    assert np.linalg.norm(g) <= g_bound
    # a point 1e-3 away along the weakest direction: the gap is its distance, to first order
    # (E is quadratic near the minimum up to a relative O(1e-3))
    lam, V = np.linalg.eigh(H)
    w_off = w + 1e-3 * V[:, 0]
    g_off = logistic_objective(w_off, Phi, y, precision=A, hessian=False)[1]
    gap = checks.optimum_gap(H, np.linalg.norm(g_off), g_bound)
    assert abs(gap - 1e-3) <= 1e-5 + 2 * g_bound / lam[0]
    assert (
        checks.optimum_gap(np.diag([0.0, 2.0]), 1.0, n_null=1) == 0.5
    )  # null one skipped
    assert checks.gradient_at_stop(4, 100, 1e-12) == pytest.approx(2e-10, rel=1e-12)


def test_lbfgsb_tolerances_bound_scipys_stop():
    """Maximise a smooth concave f with SciPy's L-BFGS-B defaults: the gradient left and the
    distance from the known maximum are within the bounds."""
    from scipy import optimize

    B = np.array([[3.0, 1.0], [1.0, 0.5]])
    top = np.array([0.7, -1.3])

    def f(v):
        d = v - top
        return 2.0 - 0.5 * d @ B @ d - 0.1 * np.sum(d**4)

    def grad(v):
        d = v - top
        return -B @ d - 0.4 * d**3

    res = optimize.minimize(
        lambda v: -f(v), np.zeros(2), jac=lambda v: -grad(v), method="L-BFGS-B"
    )
    g_tol, theta_tol = checks.lbfgsb_tolerances(grad, res.x, f(res.x), parameters=True)
    assert np.all(np.abs(grad(res.x)) <= g_tol)
    assert np.all(np.abs(res.x - top) <= theta_tol)
    np.testing.assert_array_equal(
        checks.lbfgsb_tolerances(grad, res.x, f(res.x)), g_tol
    )
    assert checks.lbfgsb_gain(-3.0) == 10 * checks.LBFGSB_FTOL * 3.0


def test_gaussian_classes(rng):
    X, y = datasets.gaussian_classes(
        [300, 200], [[0, 0], [3, 1]], [[1, 0.5], [0.5, 2]], random_state=0
    )
    assert X.shape == (500, 2) and np.bincount(y).tolist() == [300, 200]
    np.testing.assert_allclose(X[y == 1].mean(0), [3, 1], atol=0.3)
    X2, _ = datasets.gaussian_classes(
        [300, 200], [[0, 0], [3, 1]], [[1, 0.5], [0.5, 2]], random_state=0
    )
    np.testing.assert_array_equal(X, X2)
    with pytest.raises(ValueError, match="cov must have shape"):
        datasets.gaussian_classes(5, [[0, 0]], np.eye(3))
    with pytest.raises(ValueError, match="positive definite"):
        datasets.gaussian_classes(5, [[0, 0]], [[1, 2], [2, 1]])
    X3, y3 = datasets.gaussian_classes(
        np.int64(4), [[0, 0], [3, 1]], np.eye(2), random_state=0
    )
    assert X3.shape == (8, 2) and np.bincount(y3).tolist() == [4, 4]
    assert np.bincount(
        datasets.gaussian_classes(np.array([2, 3]), [[0], [1]], [[1.0]])[1]
    ).tolist() == [2, 3]


@pytest.mark.parametrize(
    "n_per_class, match",
    [
        (2.5, "n_per_class must be .*integer.*; got 2.5"),
        (np.nan, "n_per_class must be .*integer.*; got nan"),
        (0, "n_per_class must be .*>= 1; got 0"),
        ([3, -1], "n_per_class must be .*>= 1; got -1"),
        ([3, 2.0], "n_per_class must be .*integer.*; got 2.0"),
        (
            [3, 3, 3],
            r"n_per_class must be one int or a sequence of 2 ints.*got \[3, 3, 3\]",
        ),
        (
            np.ones((2, 1), dtype=int),
            "n_per_class must be one int or a sequence of 2 ints",
        ),
        ([[1, 2], 3], "n_per_class must be .*integer.*; got \\[1, 2\\]"),
        ("10", "n_per_class must be .*integer.*; got '10'"),
    ],
)
def test_gaussian_classes_rejects_bad_n_per_class(n_per_class, match):
    with pytest.raises(ValueError, match=match):
        datasets.gaussian_classes(
            n_per_class, [[0, 0], [3, 1]], np.eye(2), random_state=0
        )


def test_plots_draw():
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 50)
    s = rng.normal(size=50) + y
    axes = plotting.plot_operating_point(y, s, threshold=0.5)
    assert len(axes[0].lines) >= 2
    X = rng.normal(size=(50, 2))
    ax = plotting.plot_probability_2d(lambda P: special.expit(P[:, 0]), X, y, n=20)
    assert len(ax.figure.axes) == 2  # the axes and its colour bar
    ax.cla()  # a slider's redraw, same axes
    plotting.plot_probability_2d(
        lambda P: special.expit(P[:, 1]), X, y, ax=ax, n=20, colorbar=False
    )
    assert (
        len(ax.figure.axes) == 2 and len(ax.collections) == 5
    )  # 3 contour sets, 2 scatters
    with pytest.raises(ValueError, match="2 columns"):
        plotting.grid_2d(np.zeros((5, 3)))
    plt.close("all")


def test_widgets_build_sliders():
    from mlcourse import widgets

    s = widgets.slider(0.5, 0.0, 1.0)
    assert (s.min, s.max, s.value) == (0.0, 1.0, 0.5)
    ls = widgets.log_slider(1.0, 1e-3, 1e3)
    assert ls.value == pytest.approx(1.0)


def test_interact_lists_its_widget_and_a_move_redraws():
    from mlcourse import widgets

    calls = []

    def draw(x):
        calls.append(x)

    live = widgets.interact(draw, x=widgets.slider(0.5, 0.0, 1.0))
    assert widgets.made()[-1] is live.widget and calls == [0.5]
    live.widget.kwargs_widgets[0].value = 0.25  # what moving the slider does
    assert calls == [0.5, 0.25]


def test_interact_figure_updates_one_figure_and_shows_it(monkeypatch):
    """Each move calls update with the controls' values and displays the same figure, once; the
    figure is out of pyplot, so the cell does not display it a second time."""
    import IPython.display
    import matplotlib.pyplot as plt

    from mlcourse import widgets

    shown, calls = [], []
    monkeypatch.setattr(IPython.display, "display", shown.append)
    fig, ax = plt.subplots()
    (line,) = ax.plot([0, 1], [0, 0])

    def update(x, y):
        calls.append((x, y))
        line.set_ydata([x, y])

    live = widgets.interact_figure(fig, update, x=widgets.slider(0.5, 0.0, 1.0), y=0.25)
    assert (
        widgets.made()[-1] is live.widget and calls == [(0.5, 0.25)] and len(shown) == 1
    )
    assert fig.number not in plt.get_fignums()
    live.widget.kwargs_widgets[0].value = 0.75  # what moving the slider does
    assert calls[-1] == (0.75, 0.25) and len(shown) == 2
    assert list(line.get_ydata()) == [0.75, 0.25]


def test_interact_freezes_the_objects_alive_so_a_full_collection_skips_them():
    """interact collects the kernel's garbage, then freezes the survivors: a full collection
    during a slider move scans only what was made since (the objects alive, not the garbage)."""
    import gc
    import weakref

    from mlcourse import widgets

    class Node:
        pass

    try:
        gc.unfreeze()
        alive, garbage = Node(), Node()
        alive.me, garbage.me = alive, garbage  # both in reference cycles
        dead = weakref.ref(garbage)
        del garbage
        widgets.interact(lambda x: None, x=widgets.slider(0.5, 0.0, 1.0))
        frozen = gc.get_freeze_count()
        assert frozen > 0 and dead() is None  # the garbage collected, not frozen
        assert not any(
            o is alive for o in gc.get_objects()
        )  # frozen: no longer scanned
        made_after = Node()
        assert gc.get_freeze_count() == frozen and any(
            o is made_after for o in gc.get_objects()
        )
    finally:
        gc.unfreeze()


def test_show_displays_one_png_per_call_of_the_figure_as_drawn(monkeypatch):
    """widgets.show displays the figure as a PNG of its own size, closes it in pyplot, and shows
    a kept figure again with its artists' new data."""
    import IPython.display
    import matplotlib.pyplot as plt
    from PIL import Image

    from mlcourse import widgets

    shown = []
    monkeypatch.setattr(IPython.display, "display", shown.append)
    fig, ax = plt.subplots(figsize=(3, 2), dpi=50)
    (line,) = ax.plot([0, 1], [0, 1])
    widgets.show(fig)
    assert not plt.fignum_exists(fig.number)
    line.set_ydata([1, 0])
    widgets.show(fig)
    images = [Image.open(io.BytesIO(d.data)) for d in shown]
    assert [i.format for i in images] == ["PNG", "PNG"] and images[0].size == (150, 100)
    assert images[0].tobytes() != images[1].tobytes()  # the second shows the new data


# --- the test session's thread pools -----------------------------------------------------------


def test_every_blas_and_openmp_pool_runs_one_thread():
    """tests/conftest.py caps every thread pool at one thread. threadpoolctl caps only libraries
    already loaded; SciPy's own OpenBLAS, loaded after the cap, ran two spinning threads beside
    the other test worker and made the RVM's loops 100 times slower."""
    import sklearn.linear_model  # noqa: F401
    from threadpoolctl import threadpool_info

    import mlcourse.rvm  # noqa: F401  (everything the package loads)

    pools = {d["filepath"]: d["num_threads"] for d in threadpool_info()}
    assert pools and all(n == 1 for n in pools.values()), pools


def test_summary_folds_the_checks_of_a_block_into_one_line(capsys):
    with checks.summary("the mode") as s:
        checks.check(True, "stationary")
        checks.check_close(1.0, 1.0, "value", rtol=1e-12)
    assert capsys.readouterr().out.splitlines() == [
        "✓ 2 checks passed: the mode",
        "  ✓ stationary",
        "  ✓ value: agree within rtol=1e-12, atol=0",
    ]
    html = s._repr_html_()
    assert html.startswith(
        '<details class="mlcourse-checks"><summary>✓ 2 checks passed'
    )
    assert "✓ value: agree within rtol=1e-12, atol=0" in html


def test_summary_shows_what_passed_before_a_failure(capsys):
    with pytest.raises(AssertionError, match="second: does not hold"):
        with checks.summary():
            checks.check(True, "first")
            checks.check(False, "second")
    assert capsys.readouterr().out == "✓ first\n"


def test_nested_summaries_count_in_the_outer_one(capsys):
    with checks.summary("outer"):
        checks.check(True, "a")
        with checks.summary("inner"):
            checks.check(True, "b")
    assert capsys.readouterr().out.splitlines()[0] == "✓ 2 checks passed: outer"


def test_summary_escapes_html():
    with checks.summary("a < b & c") as s:
        checks.check(True, "x < y")
    assert "a &lt; b &amp; c" in s._repr_html_() and "x &lt; y" in s._repr_html_()


@pytest.mark.parametrize(
    "bound, digits, text",
    [(3.2e-7, 1, "4e-07"), (3e-10, 1, "3e-10"), (0.0123, 2, "0.013"), (0.7, 1, "0.7")],
)
def test_format_bound_never_prints_below_the_bound(bound, digits, text):
    assert checks.format_bound(bound, digits) == text
    assert float(text) >= bound


def test_house_style_sizes_text_for_the_page():
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    with mpl.rc_context():
        plotting.use_house_style()
        assert (
            min(mpl.rcParams[k] for k in ("xtick.labelsize", "ytick.labelsize")) >= 10
        )
        assert mpl.rcParams["font.size"] >= 10
        assert mpl.colors.to_rgba(mpl.rcParams["figure.facecolor"]) == (1, 1, 1, 1)
        fig, axes = plotting.subplots(2, 3)
        assert axes.shape == (2, 3)
        assert fig.get_size_inches()[0] == plotting.COLUMN_WIDTH
        plt.close(fig)


@pytest.mark.parametrize("ncols", [0, 4])
def test_subplots_refuses_more_panels_than_fit_in_a_row(ncols):
    with pytest.raises(ValueError, match="ncols must be between 1 and 3"):
        plotting.subplots(1, ncols)


def test_subplots_refuses_figsize():
    with pytest.raises(TypeError, match="give height="):
        plotting.subplots(1, 2, figsize=(9, 3))


def test_finite_accepts_an_empty_vector():
    """SciPy's ddot rejects an empty vector; a Newton step with no free weights has one."""
    from mlcourse.utils.validation import all_finite

    assert all_finite(np.array([]))
    # vᵀv overflows; the entries are finite
    assert all_finite(np.array([1e200, -1e200]))
    assert not all_finite(np.array([1.0, np.nan]))
    assert not all_finite(np.full((3, 2), np.inf).T)  # Fortran order: read in place
