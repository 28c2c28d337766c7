"""mlcourse.linear against scikit-learn and SciPy, finite differences for every gradient and
Hessian, and bad input."""

import warnings

import numpy as np
import pytest
from scipy import integrate, optimize, stats
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression as SkLogistic

from mlcourse import linear
from mlcourse.datasets import gaussian_classes
from mlcourse.exceptions import ConvergenceWarning, NotFittedError
from mlcourse.linear import (GaussianGenerativeClassifier, LogisticRegression, ProbitRegression,
                             SeparationWarning, SoftmaxRegression)
from mlcourse.utils.optimize import newton_direction, restrict


def sk_exact(alpha, **kw):
    """scikit-learn's exact optimum: newton-cg with a tight tolerance (C = inf for alpha = 0)."""
    return SkLogistic(C=np.inf if alpha == 0 else 1 / alpha, solver="newton-cg", tol=1e-12,
                      max_iter=10_000, **kw)


def fd_grad(f, w, h=1e-6):
    """Central differences of a scalar function."""
    return np.array([(f(w + h * e) - f(w - h * e)) / (2 * h) for e in np.eye(len(w))])


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return (X - X.mean(0)) / X.std(0), y


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return (X - X.mean(0)) / X.std(0), y


def overlapping(rng, n=120, d=3):
    X, y = gaussian_classes(n // 2, rng.normal(size=(2, d)), np.eye(d) * 2.0, random_state=rng)
    return X, y


# --- objectives: gradients and Hessians by finite differences ---------------------------------

PRECISIONS = [0.0, 0.7, "vector", "matrix"]


def make_precision(kind, m, rng):
    if kind == "vector":
        return rng.uniform(0, 2, m)
    if kind == "matrix":
        B = rng.normal(size=(m, m))
        return B @ B.T / m
    return kind


@pytest.mark.parametrize("objective", [linear.logistic_objective, linear.probit_objective])
@pytest.mark.parametrize("kind", PRECISIONS)
def test_binary_objective_derivatives(objective, kind, rng):
    Phi = np.column_stack([np.ones(40), rng.normal(size=(40, 3))])
    t = (rng.random(40) < 0.5).astype(float)
    A, m0 = make_precision(kind, 4, rng), rng.normal(size=4)
    w = rng.normal(size=4)
    E, g, H = objective(w, Phi, t, A, m0)
    f = lambda v: objective(v, Phi, t, A, m0)[0]  # noqa: E731
    np.testing.assert_allclose(g, fd_grad(f, w), rtol=1e-6, atol=1e-6)
    gfun = lambda v: objective(v, Phi, t, A, m0)[1]  # noqa: E731
    Hfd = np.array([(gfun(w + 1e-6 * e) - gfun(w - 1e-6 * e)) / 2e-6 for e in np.eye(4)])
    np.testing.assert_allclose(H, Hfd, rtol=1e-6, atol=1e-6)
    assert np.all(np.linalg.eigvalsh(H) > -1e-12)          # convex
    E2, g2 = objective(w, Phi, t, A, m0, hessian=False)
    assert E2 == E and np.array_equal(g2, g)


def test_binary_likelihoods_match_scipy(rng):
    a, t = rng.normal(scale=3, size=50), (rng.random(50) < 0.5).astype(float)
    nll, _, _ = linear.logit_nll_terms(a, t)
    np.testing.assert_allclose(nll, -stats.bernoulli.logpmf(t, 1 / (1 + np.exp(-a))), rtol=1e-12)
    nll, _, _ = linear.probit_nll_terms(a, t)
    ref = -np.where(t == 1, stats.norm.logcdf(a), stats.norm.logsf(a))  # no 1 − Φ cancellation
    np.testing.assert_allclose(nll, ref, rtol=1e-12)


@pytest.mark.parametrize("terms", [linear.logit_nll_terms, linear.probit_nll_terms])
def test_nll_terms_are_finite_far_in_the_tails(terms):
    a = np.array([-1e4, -800.0, -40.0, 40.0, 800.0, 1e4])
    for t in (np.zeros(6), np.ones(6)):
        nll, d1, d2 = terms(a, t)
        assert np.all(np.isfinite(nll)) and np.all(np.isfinite(d1)) and np.all(np.isfinite(d2))
        assert np.all(nll >= 0) and np.all(d2 >= 0)


def probit_curvature_by_quadrature(u):
    """ℓ″(u) = 1 − Var(Z | Z ≤ u), Z ~ N(0, 1), by quadrature of the moments of s = u − Z ≥ 0,
    whose density ∝ exp(us − s²/2) is written without Φ (no cancellation for u ≪ 0, where
    Var(s) ≈ 1/u² is small)."""
    hi = 50 / -u if u < -1 else max(u, 0.0) + 12
    m = [integrate.quad(lambda s: s**k * np.exp(u * s - 0.5 * s * s), 0, hi, epsabs=0,
                        epsrel=1e-13, limit=200)[0] for k in range(3)]
    return 1 - (m[2] / m[0] - (m[1] / m[0]) ** 2)


def test_probit_curvature_is_accurate_far_in_the_tails():
    """ℓ″ = λ(u)(u + λ(u)) against quadrature to 1e-11 relative, for u from −1e8 to 3 (both
    sides of the switch to the asymptotic series at PROBIT_TAIL = −30), and 0 < ℓ″ ≤ 1."""
    u = np.array([-1e8, -1e5, -1e4, -1e3, -30.5, -30.0, -29.5, -10.0, -3.0, -1.0, 0.0, 1.0, 3.0])
    for t in (0.0, 1.0):                              # u = (2t − 1)a
        _, d1, d2 = linear.probit_nll_terms((2 * t - 1) * u, np.full(len(u), t))
        ref = [probit_curvature_by_quadrature(v) for v in u]
        np.testing.assert_allclose(d2, ref, rtol=1e-11)
        mid = np.abs(u) <= 30                          # λ = N/Φ, where SciPy's ratio is exact
        np.testing.assert_allclose(-(2 * t - 1) * d1[mid],
                                   stats.norm.pdf(u[mid]) / stats.norm.cdf(u[mid]), rtol=1e-12)
        assert np.all(d2 > 0) and np.all(d2 <= 1)
        assert np.all(d2[np.abs(u) <= 1e7] < 1)      # 1 − 1/u² rounds to 1 beyond |u| ≈ 1e8
    # far beyond the switch the curvature approaches 1 − 1/u² monotonically
    u_far = -np.logspace(1.5, 300, 200)
    d2_far = linear.probit_nll_terms(u_far, np.ones(200))[2]
    assert np.all(np.diff(d2_far) >= 0) and np.all((d2_far > 0) & (d2_far <= 1))


@pytest.mark.parametrize("precision", [0.0, 0.5, "per-feature"])
def test_softmax_objective_derivatives(precision, rng):
    N, M, K = 30, 3, 4
    Phi = np.column_stack([np.ones(N), rng.normal(size=(N, M - 1))])
    T = np.eye(K)[rng.integers(0, K, N)]
    A = rng.uniform(0, 1, M) if precision == "per-feature" else precision
    w = rng.normal(size=K * M)
    E, g, H = linear.softmax_objective(w, Phi, T, A)
    Y = stats.multinomial  # independent NLL: −Σ_n ln Categorical(t_n | softmax(a_n))
    act = Phi @ w.reshape(K, M).T
    P = np.exp(act) / np.exp(act).sum(1, keepdims=True)
    nll = -sum(Y.logpmf(T[n], 1, P[n]) for n in range(N))
    prior = 0.5 * np.sum(np.broadcast_to(A, (K, M)) * w.reshape(K, M) ** 2)
    assert E == pytest.approx(nll + prior, rel=1e-10)
    np.testing.assert_allclose(g, fd_grad(lambda v: linear.softmax_objective(v, Phi, T, A)[0], w),
                               rtol=1e-6, atol=1e-6)
    gfun = lambda v: linear.softmax_objective(v, Phi, T, A)[1]  # noqa: E731
    Hfd = np.array([(gfun(w + 1e-6 * e) - gfun(w - 1e-6 * e)) / 2e-6 for e in np.eye(K * M)])
    np.testing.assert_allclose(H, Hfd, rtol=1e-6, atol=1e-6)


def test_check_precision_rejects_bad_priors():
    with pytest.raises(ValueError, match="precision must be a scalar"):
        linear.check_precision(np.ones(3), 4)
    with pytest.raises(ValueError, match="non-negative"):
        linear.check_precision(-1.0, 4)
    with pytest.raises(ValueError, match="NaN"):
        linear.check_precision([1.0, np.nan], 2)
    with pytest.raises(ValueError, match="symmetric"):
        linear.check_precision([[1.0, 0.5], [0.0, 1.0]], 2)
    with pytest.raises(ValueError, match="precision must be positive semi-definite"):
        linear.check_precision(-np.eye(3), 3)
    with pytest.raises(ValueError, match="precision must be positive semi-definite"):
        linear.check_precision([[1.0, 2.0], [2.0, 1.0]], 2)      # eigenvalues 3 and −1
    B = np.random.default_rng(0).normal(size=(4, 2))
    linear.check_precision(B @ B.T, 4)              # rank 2: PSD up to rounding, accepted


PHI4 = np.column_stack([np.ones(4), [0.0, 1.0, 2.0, 3.0]])
T4, W2 = np.array([0.0, 1.0, 0.0, 1.0]), np.array([0.1, -0.2])
BAD_BINARY = [
    ({"w": np.zeros(3)}, r"w must have 2 entries"),
    ({"w": [0.0, np.nan]}, "w contains NaN"),
    ({"t": [0.0, 1.0, np.nan, 1.0]}, "t contains NaN"),
    ({"t": [0.0, 1.0, 2.0, 1.0]}, r"t must hold 0/1 or boolean labels.*\[2\.0\]"),
    ({"t": T4[:3]}, "Inconsistent numbers of samples: Phi has 4, t has 3"),
    ({"Phi": PHI4[:, 1]}, "Phi must be a 2-D array"),
    ({"Phi": np.where(PHI4 > 2, np.inf, PHI4)}, "Phi contains infinite"),
    ({"mean": np.zeros(3)}, r"mean must have 2 entries"),
    ({"mean": [np.nan, 0.0]}, "mean contains NaN"),
    ({"precision": -np.eye(2)}, "precision must be positive semi-definite"),
    ({"precision": np.ones(3)}, "precision must be a scalar"),
    ({"hessian": "yes"}, "hessian must be True or False"),
]


@pytest.mark.parametrize("objective", [linear.logistic_objective, linear.probit_objective])
@pytest.mark.parametrize("bad, match", BAD_BINARY)
def test_binary_objectives_reject_bad_input(objective, bad, match):
    args = {"w": W2, "Phi": PHI4, "t": T4} | bad
    with pytest.raises(ValueError, match=match):
        objective(**args)


T3 = np.eye(3)[[0, 1, 2, 1]]
BAD_SOFTMAX = [
    ({"w": np.zeros(5)}, r"w must have 6 entries \(K·M = 3·2"),
    ({"w": np.r_[np.zeros(5), np.nan]}, "w contains NaN"),
    ({"T": T3[:3]}, "Inconsistent numbers of samples: Phi has 4, T has 3"),
    ({"T": T3 * 2}, "T must hold one-hot rows"),
    ({"T": T3 - 0.5 * np.eye(3)[[1, 2, 0, 2]] + 0.5 * T3}, "T must hold one-hot rows"),
    ({"T": np.where(T3 == 1, np.nan, T3)}, "T contains NaN"),
    ({"T": T3[:, 0]}, "T must be a 2-D array"),
    ({"Phi": PHI4[:, 1]}, "Phi must be a 2-D array"),
    ({"precision": np.ones(4)}, r"precision and mean must broadcast to \(K, M\) = \(3, 2\)"),
    ({"precision": -1.0}, "precision must be non-negative"),
    ({"mean": np.full(2, np.inf)}, "mean contains infinite"),
    ({"hessian": 1}, "hessian must be True or False"),
]


@pytest.mark.parametrize("bad, match", BAD_SOFTMAX)
def test_softmax_objective_rejects_bad_input(bad, match):
    args = {"w": np.zeros(6), "Phi": PHI4, "T": T3} | bad
    with pytest.raises(ValueError, match=match):
        linear.softmax_objective(**args)


def test_objectives_accept_labels_as_bools_and_ints():
    E = linear.logistic_objective(W2, PHI4, T4)[0]
    assert linear.logistic_objective(W2, PHI4, T4.astype(bool))[0] == E
    assert linear.logistic_objective(W2, PHI4, T4.astype(int))[0] == E
    E_soft = linear.softmax_objective(np.zeros(6), PHI4, T3)[0]
    assert E_soft == pytest.approx(4 * np.log(3), rel=1e-14)


# --- the solvers -----------------------------------------------------------------------------


def test_one_newton_step_solves_least_squares(rng):
    """Lecture 003 §4-3-3: for E = ½‖Φw − t‖², one Newton step from anywhere is (ΦᵀΦ)⁻¹Φᵀt."""
    Phi, t = rng.normal(size=(50, 4)), rng.normal(size=50)

    def fun(w):
        r = Phi @ w - t
        return 0.5 * r @ r, Phi.T @ r, Phi.T @ Phi

    res = linear.newton_minimize(fun, rng.normal(size=4) * 10, max_iter=1)
    np.testing.assert_allclose(res.x, np.linalg.lstsq(Phi, t, rcond=None)[0], rtol=1e-10)


@pytest.mark.parametrize("H, g", [(np.full((2, 2), np.nan), np.ones(2)),
                                  (np.eye(2), [1.0, np.inf]),
                                  (np.diag([1.0, -np.inf]), np.ones(2))])
def test_newton_direction_rejects_non_finite_input(H, g):
    with pytest.raises(ValueError, match="Hessian or the gradient contains NaN or infinite"):
        newton_direction(np.asarray(H), np.asarray(g))


def test_newton_direction_ridge_ends_for_strongly_indefinite_hessians():
    """τ grows from 1e-10·mean(diag H) until H + τI is positive definite (before Gershgorin's
    bound), however negative H is: the step is then a descent direction."""
    for H in [np.diag([1.0, -1e50]), np.diag([-1.0, -1e300]), -np.ones((3, 3))]:
        g = np.ones(len(H))
        d = newton_direction(H, g)
        assert np.all(np.isfinite(d)) and g @ d > 0


def test_newton_minimize_rejects_non_finite_starts():
    def fun(x):
        return float(x @ x), 2 * x, 2 * np.eye(len(x))

    with pytest.raises(ValueError, match="x0 contains NaN"):
        linear.newton_minimize(fun, np.full(3, np.nan))
    with pytest.raises(ValueError, match="fun\\(x0\\) must return a finite E, gradient"):
        linear.newton_minimize(lambda x: (np.inf, x, np.eye(1)), np.ones(1))
    with pytest.raises(ValueError, match="fun\\(x0\\) must return a finite E, gradient"):
        linear.newton_minimize(lambda x: (1.0, x, np.full((1, 1), np.nan)), np.ones(1))


def test_newton_backs_off_from_points_with_non_finite_derivatives():
    """E = √(1 + x²) is finite everywhere, but this fun has no derivatives for x < 0. The full
    Newton step from x > 0 overshoots to x < 0, where E is smaller: the line search must still
    reject that point (else the next direction has no Hessian) and halve the step instead."""
    def fun(x):
        E = float(np.sqrt(1 + x[0] ** 2))
        if x[0] < 0:
            return E, np.full(1, np.nan), np.full((1, 1), np.nan)
        return E, x / E, np.full((1, 1), E**-3)

    res = linear.newton_minimize(fun, np.array([0.5]))
    assert res.converged and 0 <= res.x[0] < 1e-7 and np.all(np.diff(res.history) <= 0)


def test_newton_history_decreases_and_restrict(rng):
    Phi = np.column_stack([np.ones(80), rng.normal(size=(80, 2))])
    t = (rng.random(80) < 0.4).astype(float)
    res = linear.newton_minimize(lambda w: linear.logistic_objective(w, Phi, t), np.zeros(3))
    assert res.converged and np.all(np.diff(res.history) <= 0) and res.n_iter < 10
    # hold w_2 fixed at its optimum: the reduced problem has the same solution
    fixed = res.x.copy()
    red = restrict(lambda w: linear.logistic_objective(w, Phi, t), [True, True, False], fixed)
    sub = linear.newton_minimize(red, np.zeros(2))
    np.testing.assert_allclose(sub.x, res.x[:2], rtol=1e-9, atol=1e-12)


# --- estimators against scikit-learn -----------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.1, 1.0, 10.0])
def test_logistic_irls_matches_sklearn(cancer, alpha):
    X, y = cancer
    ours = LogisticRegression(alpha=alpha).fit(X, y)
    sk = sk_exact(alpha).fit(X, y)
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), atol=1e-10)
    assert ours.coef_.shape == (1, 30) and ours.intercept_.shape == (1,)


@pytest.mark.parametrize("seed", range(5))
def test_logistic_unpenalised_and_no_intercept(seed):
    rng = np.random.default_rng(seed)
    X, y = overlapping(rng)
    for kw, sk_kw in [({}, {}), ({"fit_intercept": False}, {"fit_intercept": False})]:
        ours = LogisticRegression(**kw).fit(X, y)
        sk = sk_exact(0, **sk_kw).fit(X, y)
        np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(ours.intercept_, sk.intercept_, atol=1e-8)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver, tol, rtol", [("gd", 1e-9, 1e-6), ("sgd", 1e-3, 0.05)])
def test_first_order_solvers_reach_the_irls_optimum(solver, tol, rtol, fit_intercept):
    rng = np.random.default_rng(1)
    X, y = overlapping(rng, n=200, d=2)
    exact = LogisticRegression(alpha=1.0, fit_intercept=fit_intercept).fit(X, y)
    model = LogisticRegression(solver=solver, alpha=1.0, tol=tol, max_iter=20_000,
                               random_state=0, fit_intercept=fit_intercept).fit(X, y)
    # gd: max|∇E|/N ≤ 1e-9 puts w within about 1e-9·N/λ_min(H) of the optimum;
    # sgd: a decaying step gets close, not exact (5 % of the weights' size)
    scale = np.abs(exact.coef_).max()
    np.testing.assert_allclose(model.coef_, exact.coef_, atol=rtol * scale)
    E_min = exact.loss_curve_[-1]
    assert model.loss_curve_[-1] >= E_min - 1e-9                   # the optimum is the minimum
    if solver == "gd":      # η = 1/L: E decreases at every step, to the optimum
        assert np.all(np.diff(model.loss_curve_) <= 1e-12)
        assert model.loss_curve_[-1] - E_min <= 1e-12 * E_min
    else:                   # SGD's epochs need not decrease E, but the last is near the optimum
        assert model.loss_curve_[-1] - E_min <= 1e-3 * E_min
        assert model.loss_curve_[-1] < model.loss_curve_[0] - 0.5 * (model.loss_curve_[0] - E_min)


def test_sgd_is_seeded():
    X, y = overlapping(np.random.default_rng(2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fits = [LogisticRegression(solver="sgd", max_iter=5, random_state=3).fit(X, y).coef_
                for _ in range(2)]
    np.testing.assert_array_equal(*fits)


def test_labels_and_column_order():
    rng = np.random.default_rng(4)
    X, y = overlapping(rng)
    names = np.where(y == 1, "yes", "no")
    m = LogisticRegression(alpha=0.5).fit(X, names)
    assert m.classes_.tolist() == ["no", "yes"]
    ref = LogisticRegression(alpha=0.5).fit(X, y)
    np.testing.assert_allclose(m.predict_proba(X), ref.predict_proba(X), rtol=1e-12)
    assert set(m.predict(X)) <= {"no", "yes"}
    np.testing.assert_allclose(m.predict_proba(X).sum(1), 1.0, rtol=1e-12)
    assert m.score(X, names) == ref.score(X, y)


@pytest.mark.parametrize("alpha", [0.0, 0.5])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_probit_matches_scipy_minimize(cancer, alpha, fit_intercept):
    """Independent route: minimise −Σ ln Φ(s_n a_n) + ½α‖w‖² (scipy.stats) with BFGS."""
    X, y = cancer
    X = X[:, :6]
    ours = ProbitRegression(alpha=alpha, fit_intercept=fit_intercept).fit(X, y)
    s = 2 * y - 1
    b = 1.0 if fit_intercept else 0.0               # v[0] is the intercept, or pinned at 0

    def nll(v):
        return (-stats.norm.logcdf(s * (X @ v[1:] + b * v[0])).sum()
                + 0.5 * alpha * v[1:] @ v[1:] + 0.5 * (1 - b) * v[0] ** 2)

    ref = optimize.minimize(nll, np.zeros(7), method="BFGS", options={"gtol": 1e-9}).x
    np.testing.assert_allclose(ours.coef_[0], ref[1:], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, b * ref[:1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X)[:, 1],
                               stats.norm.cdf(X @ ref[1:] + b * ref[0]), atol=1e-6)


@pytest.mark.parametrize("alpha", [0.3, 3.0])
def test_softmax_matches_sklearn(wine, alpha):
    X, y = wine
    ours = SoftmaxRegression(alpha=alpha).fit(X, y)
    sk = sk_exact(alpha).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), atol=1e-9)
    # penalised weights are identifiable: they sum to zero over the classes, as sklearn's do
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.coef_.sum(0), 0, atol=1e-10)
    np.testing.assert_allclose(ours.intercept_.sum(), 0, atol=1e-10)
    assert ours.coef_.shape == (3, 13)


def test_softmax_unpenalised_and_two_classes():
    rng = np.random.default_rng(5)
    X, y = gaussian_classes(40, rng.normal(size=(3, 2)), np.eye(2) * 2, random_state=rng)
    ours = SoftmaxRegression().fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), sk_exact(0).fit(X, y).predict_proba(X),
                               atol=1e-7)
    # two classes: softmax with 2 vectors is logistic regression on v = w₁ − w₀; at the optimum
    # w₁ = −w₀ = v/2, so the prior ½α(‖w₀‖² + ‖w₁‖²) = ½(α/2)‖v‖²
    X2, y2 = overlapping(rng)
    soft, logi = SoftmaxRegression(alpha=2.0).fit(X2, y2), LogisticRegression(alpha=1.0).fit(X2, y2)
    np.testing.assert_allclose(soft.coef_[1] - soft.coef_[0], logi.coef_[0], rtol=1e-8)
    np.testing.assert_allclose(soft.predict_proba(X2), logi.predict_proba(X2), atol=1e-10)


@pytest.mark.parametrize("k", [2, 3])
def test_generative_matches_lda(wine, k):
    X, y = wine
    keep = y < k
    X, y = X[keep], y[keep]
    ours = GaussianGenerativeClassifier().fit(X, y)
    lda = LinearDiscriminantAnalysis(solver="lsqr", store_covariance=True).fit(X, y)
    np.testing.assert_allclose(ours.covariance_, lda.covariance_, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(ours.means_, lda.means_, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ours.priors_, lda.priors_, rtol=1e-12)
    np.testing.assert_allclose(ours.coef_, lda.coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ours.intercept_, lda.intercept_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ours.predict_proba(X), lda.predict_proba(X), atol=1e-10)
    np.testing.assert_array_equal(ours.predict(X), lda.predict(X))


def test_generative_is_bayes_theorem(rng):
    """predict_proba equals p(x|C_k)p(C_k)/Σ_j p(x|C_j)p(C_j) with the fitted Gaussians."""
    X, y = gaussian_classes(30, rng.normal(size=(4, 3)), np.eye(3), random_state=rng)
    m = GaussianGenerativeClassifier().fit(X, y)
    joint = np.column_stack([p * stats.multivariate_normal(mu, m.covariance_).pdf(X)
                             for p, mu in zip(m.priors_, m.means_)])
    np.testing.assert_allclose(m.predict_proba(X), joint / joint.sum(1, keepdims=True), rtol=1e-9)


def test_refit_and_clone(cancer):
    X, y = cancer
    m = LogisticRegression(alpha=1.0).fit(X, y)
    first = m.coef_.copy()
    m.fit(X[:, :5], y)
    assert m.coef_.shape == (1, 5) and m.n_features_in_ == 5
    c = clone(m).fit(X, y)
    np.testing.assert_array_equal(c.coef_, first)
    assert "alpha=1.0" in repr(m)


# --- separable data ----------------------------------------------------------------------------

SEPARABLE = [LogisticRegression(), LogisticRegression(solver="gd"),
             LogisticRegression(solver="sgd", random_state=0), ProbitRegression(),
             SoftmaxRegression()]


@pytest.mark.parametrize("model", SEPARABLE, ids=repr)
def test_separable_data_warns_and_stays_finite(model):
    X, y = gaussian_classes(25, [[-3, 0], [3, 0]], np.eye(2) * 0.3, random_state=0)
    with pytest.warns(SeparationWarning, match="linearly separable"):
        model.fit(X, y)
    assert np.all(np.isfinite(model.coef_)) and np.all(np.isfinite(model.intercept_))
    assert model.score(X, y) == 1.0
    assert np.all(np.isfinite(model.predict_proba(X)))
    # a Gaussian prior gives a finite optimum and no separation warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeparationWarning)
        clone(model).set_params(alpha=1.0).fit(X, y)


def test_convergence_warning():
    X, y = overlapping(np.random.default_rng(6))
    with pytest.warns(ConvergenceWarning, match="did not converge in 1 iterations"):
        LogisticRegression(max_iter=1).fit(X, y)


# --- bad input ---------------------------------------------------------------------------------

X3 = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]])
BAD_FIT = [
    (LogisticRegression(), X3, [0, 1, 2, 1], "3 classes.*exactly 2"),
    (ProbitRegression(), X3, [0, 1, 2, 1], "3 classes.*exactly 2"),
    (LogisticRegression(), X3, [1, 1, 1, 1], "single class"),
    (ProbitRegression(), X3, [1, 1, 1, 1], "single class"),
    (SoftmaxRegression(), X3, [1, 1, 1, 1], "single class"),
    (GaussianGenerativeClassifier(), X3, [1, 1, 1, 1], "single class"),
    (LogisticRegression(), [[0.0, np.nan], [1, 0], [2, 2], [3, 1]], [0, 1, 0, 1], "X contains NaN"),
    (SoftmaxRegression(), [[0.0, np.inf], [1, 0], [2, 2], [3, 1]], [0, 1, 0, 1],
     "X contains infinite"),
    (GaussianGenerativeClassifier(), X3, [0, np.nan, 0, 1], "y contains NaN"),
    (ProbitRegression(), X3, [0, np.inf, 0, 1], "y contains infinite"),
    (LogisticRegression(), X3, [0, 1, 0], "Inconsistent numbers of samples"),
    (GaussianGenerativeClassifier(), X3[:3], [0, 1, 0, 1], "Inconsistent numbers of samples"),
    (LogisticRegression(solver="newton"), X3, [0, 1, 0, 1], "Unknown solver 'newton'"),
    (LogisticRegression(alpha=-1.0), X3, [0, 1, 0, 1], "alpha must be >= 0"),
    (SoftmaxRegression(alpha=-0.1), X3, [0, 1, 0, 1], "alpha must be >= 0"),
    (ProbitRegression(alpha=np.nan), X3, [0, 1, 0, 1], "alpha must be finite"),
    (LogisticRegression(max_iter=0), X3, [0, 1, 0, 1], "max_iter must be >= 1"),
    (LogisticRegression(tol=0.0), X3, [0, 1, 0, 1], "tol must be > 0"),
    (LogisticRegression(solver="gd", learning_rate=-1.0), X3, [0, 1, 0, 1],
     "learning_rate must be > 0"),
    (LogisticRegression(fit_intercept="yes"), X3, [0, 1, 0, 1], "fit_intercept must be True"),
    (LogisticRegression(solver="sgd", random_state="x"), X3, [0, 1, 0, 1], "random_state"),
    (LogisticRegression(), [1.0, 2.0, 3.0, 4.0], [0, 1, 0, 1], "X must be a 2-D array"),
    (GaussianGenerativeClassifier(), np.c_[X3, X3[:, 0]], [0, 1, 0, 1], "covariance.*singular"),
    (LogisticRegression(solver="sgd", learning_rate=1e300, alpha=1.0, max_iter=3), X3,
     [0, 1, 0, 1], "diverged.*learning_rate is too large"),
    (LogisticRegression(solver="gd", learning_rate=1e300, alpha=1.0, max_iter=3), X3,
     [0, 1, 0, 1], "diverged.*learning_rate is too large"),
]


@pytest.mark.parametrize("model, X, y, match", BAD_FIT,
                         ids=[f"{type(m).__name__}-{i}" for i, (m, *_) in enumerate(BAD_FIT)])
def test_bad_fit_input(model, X, y, match):
    with pytest.raises(ValueError, match=match):
        model.fit(X, y)


@pytest.mark.parametrize("seed", range(6))
def test_generative_rejects_numerically_singular_covariance(seed):
    """N = 20 ≫ d: with a duplicated column (up to 1e-9 relative noise) Cholesky of Σ_ML may
    succeed on rounding, but coef_ would be arbitrary along the copies; fit must refuse."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(20, 3)) * rng.uniform(0.1, 10, 3)
    y = np.arange(20) % 2
    for copy in (X[:, 1], X[:, 1] * (1 + 1e-9 * rng.normal(size=20))):
        with pytest.raises(ValueError, match="covariance of X is singular.*COLLINEAR_TOL"):
            GaussianGenerativeClassifier().fit(np.c_[X, copy], y)
    GaussianGenerativeClassifier().fit(np.c_[X, X[:, 1] + 1e-3 * rng.normal(size=20)], y)


def test_generative_collinearity_test_ignores_units():
    """Raw breast-cancer feature variances span 10 orders of magnitude (smallest/largest
    Cholesky pivot 4e-10), yet none is collinear. The model is affine-equivariant, so raw or
    rescaled it must give the probabilities of LDA on the standardised features (scikit-learn's
    own lstsq solve on the raw features truncates small singular values and is off by 0.7)."""
    X, y = load_breast_cancer(return_X_y=True)
    Z = (X - X.mean(0)) / X.std(0)
    ref = LinearDiscriminantAnalysis(solver="lsqr").fit(Z, y).predict_proba(Z)
    for Xs in (X, X * np.logspace(-3, 3, 30)):
        ours = GaussianGenerativeClassifier().fit(Xs, y)
        np.testing.assert_allclose(ours.predict_proba(Xs), ref, rtol=0, atol=1e-11)


@pytest.mark.parametrize("cls", [LogisticRegression, ProbitRegression, SoftmaxRegression,
                                 GaussianGenerativeClassifier])
def test_predict_before_fit_and_wrong_width(cls):
    with pytest.raises(NotFittedError, match="not fitted yet"):
        cls().predict(X3)
    with pytest.raises(ValueError, match="not fitted yet"):
        cls().predict_proba(X3)
    X, y = overlapping(np.random.default_rng(7))
    m = cls().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features; this .* expects 3"):
        m.predict(X[:, :2])


@pytest.mark.parametrize("X, match", [
    ([[0.0, np.nan]], "NaN"),
    ([[0.0, np.inf]], "NaN or infinite|infinite"),
    (np.ones((2, 2, 2)), "2-D"),
    ([1.0, 2.0], "2-D"),
    ("abc", "numeric"),
])
def test_design_matrix_rejects_bad_X(X, match):
    with pytest.raises(ValueError, match=f"X.*({match})"):
        linear.design_matrix(X)


def test_design_matrix_layout():
    X = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(linear.design_matrix(X), np.c_[np.ones(3), X])
    np.testing.assert_array_equal(linear.design_matrix(X, fit_intercept=False), X)


def _quadratic(x):
    return float(x @ x), 2 * x


@pytest.mark.parametrize("kwargs, match", [
    ({"learning_rate": -0.1}, "learning_rate"), ({"learning_rate": 0.0}, "learning_rate"),
    ({"tol": np.nan}, "tol"), ({"tol": -1.0}, "tol"), ({"max_iter": 2.5}, "max_iter"),
    ({"max_iter": -1}, "max_iter"),
])
def test_first_order_solvers_reject_bad_hyperparameters(kwargs, match):
    options = {"learning_rate": 0.1, "tol": 1e-6, "max_iter": 10, **kwargs}
    with pytest.raises(ValueError, match=match):
        linear.gradient_descent(_quadratic, np.ones(2), **options)
    with pytest.raises(ValueError, match=match):
        linear.sgd(lambda x, n, eta: None, _quadratic, np.ones(2), 3, **options)


@pytest.mark.parametrize("n_samples", [0, -2, 2.5])
def test_sgd_rejects_bad_n_samples(n_samples):
    with pytest.raises(ValueError, match="n_samples"):
        linear.sgd(lambda x, n, eta: None, _quadratic, np.ones(2), n_samples,
                   learning_rate=0.1, tol=1e-6, max_iter=10)


@pytest.mark.parametrize("kwargs, match", [({"tol": -1e-8}, "tol"), ({"tol": "a"}, "tol"),
                                           ({"max_iter": 1.5}, "max_iter")])
def test_newton_rejects_bad_hyperparameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        linear.newton_minimize(lambda x: (float(x @ x), 2 * x, 2 * np.eye(2)), np.ones(2), **kwargs)
