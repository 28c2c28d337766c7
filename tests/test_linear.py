"""mlcourse.linear against scikit-learn and SciPy, finite differences for every gradient and
Hessian, and bad input."""

import warnings

import numpy as np
import pytest
from scipy import optimize, stats
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression as SkLogistic

from mlcourse import linear
from mlcourse._optim import restrict
from mlcourse._validation import ConvergenceWarning, NotFittedError
from mlcourse.datasets import gaussian_classes
from mlcourse.linear import (GaussianGenerativeClassifier, LogisticRegression, ProbitRegression,
                             SeparationWarning, SoftmaxRegression)


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


# --- the solvers -----------------------------------------------------------------------------


def test_one_newton_step_solves_least_squares(rng):
    """Lecture 003 §4-3-3: for E = ½‖Φw − t‖², one Newton step from anywhere is (ΦᵀΦ)⁻¹Φᵀt."""
    Phi, t = rng.normal(size=(50, 4)), rng.normal(size=50)

    def fun(w):
        r = Phi @ w - t
        return 0.5 * r @ r, Phi.T @ r, Phi.T @ Phi

    res = linear.newton_minimize(fun, rng.normal(size=4) * 10, max_iter=1)
    np.testing.assert_allclose(res.x, np.linalg.lstsq(Phi, t, rcond=None)[0], rtol=1e-10)


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


@pytest.mark.parametrize("solver, tol, rtol", [("gd", 1e-9, 1e-6), ("sgd", 1e-3, 0.05)])
def test_first_order_solvers_reach_the_irls_optimum(solver, tol, rtol):
    rng = np.random.default_rng(1)
    X, y = overlapping(rng, n=200, d=2)
    exact = LogisticRegression(alpha=1.0).fit(X, y)
    model = LogisticRegression(solver=solver, alpha=1.0, tol=tol, max_iter=20_000,
                               random_state=0).fit(X, y)
    # gd: max|∇E|/N ≤ 1e-9 puts w within about 1e-9·N/λ_min(H) of the optimum;
    # sgd: a decaying step gets close, not exact (5 % of the weights' size)
    scale = np.abs(exact.coef_).max()
    np.testing.assert_allclose(model.coef_, exact.coef_, atol=rtol * scale)
    assert np.all(np.diff(model.loss_curve_) <= 1e-12) if solver == "gd" else True
    assert model.loss_curve_[-1] >= exact.loss_curve_[-1] - 1e-9


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


def test_probit_matches_scipy_minimize(cancer):
    """Independent route: minimise −Σ ln Φ(s_n a_n) + ½α‖w‖² (scipy.stats) with BFGS."""
    X, y = cancer
    X = X[:, :6]
    alpha = 0.5
    ours = ProbitRegression(alpha=alpha).fit(X, y)
    s = 2 * y - 1

    def nll(v):
        return -stats.norm.logcdf(s * (X @ v[1:] + v[0])).sum() + 0.5 * alpha * v[1:] @ v[1:]

    ref = optimize.minimize(nll, np.zeros(7), method="BFGS", options={"gtol": 1e-9}).x
    np.testing.assert_allclose(ours.coef_[0], ref[1:], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, ref[:1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X)[:, 1], stats.norm.cdf(X @ ref[1:] + ref[0]),
                               atol=1e-6)


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
]


@pytest.mark.parametrize("model, X, y, match", BAD_FIT,
                         ids=[f"{type(m).__name__}-{i}" for i, (m, *_) in enumerate(BAD_FIT)])
def test_bad_fit_input(model, X, y, match):
    with pytest.raises(ValueError, match=match):
        model.fit(X, y)


@pytest.mark.parametrize("cls", [LogisticRegression, ProbitRegression, SoftmaxRegression,
                                 GaussianGenerativeClassifier])
def test_predict_before_fit_and_wrong_width(cls):
    with pytest.raises(NotFittedError, match="not fitted yet"):
        cls().predict(X3)
    with pytest.raises(ValueError, match="not fitted yet"):
        cls().predict_proba(X3)
    X, y = overlapping(np.random.default_rng(7))
    m = cls().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features, but .* fitted with 3"):
        m.predict(X[:, :2])
