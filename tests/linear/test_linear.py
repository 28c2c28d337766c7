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
from mlcourse.checks import (
    EPS,
    fd_error,
    gradient_at_stop,
    gradient_rounding,
    newton_gradient,
    nll_rounding,
    optimum_gap,
)
from mlcourse.datasets import gaussian_classes
from mlcourse.exceptions import ConvergenceWarning, NotFittedError
from mlcourse.linear import (
    COLLINEAR_TOL,
    GaussianGenerativeClassifier,
    LogisticRegression,
    ProbitRegression,
    SeparationWarning,
    SoftmaxRegression,
)
from mlcourse.utils.numdiff import central_differences
from mlcourse.utils.optimize import newton_direction, restrict

# --- tolerances from the numerics (the bounds are mlcourse.checks', shared with the chapter) -----
SK_TOL = 1e-12  # sk_exact stops when max|∇E|/N ≤ SK_TOL (its objective is E/N)
H_FD = 1e-6  # the finite-difference step (fd_error's default h)
NEWTON_TOL = 1e-8  # the estimators' Newton tol (newton_gradient's default too)
# Bounds on |ℓ'''| and |ℓ''''| of one term of each NLL, as a function of its activation: the
# sigmoid's |σ''| ≤ 1/(6√3) and |σ'''| ≤ 1/8; the probit's maxima (0.296 and 0.189, checked in
# test_probit_higher_derivatives_are_bounded). A softmax probability, as a function of one
# activation, is a sigmoid times at most 1; along a unit direction of all K activations the third
# derivative of a term is a third central moment of values in [-1, 1], at most 2.
THIRD = {"logit": 0.1, "probit": 0.3, "softmax": 2.0}
FOURTH = {"logit": 1 / 8, "probit": 0.2}


def sk_exact(alpha, **kw):
    """scikit-learn's exact optimum: newton-cg with a tight tolerance (C = inf for alpha = 0)."""
    return SkLogistic(
        C=np.inf if alpha == 0 else 1 / alpha,
        solver="newton-cg",
        tol=SK_TOL,
        max_iter=10_000,
        **kw,
    )


def binary_fit_bounds(model, X, y, alpha, kind="logit"):
    """Weights (w0, w) of a fitted logistic or probit model, its Hessian and the bounds on ‖∇E‖
    at its weights (Newton's stopping rule) and at sk_exact's (its tol)."""
    Phi = linear.design_matrix(X, fit_intercept=model.fit_intercept)
    w = (
        np.r_[model.intercept_, model.coef_[0]]
        if model.fit_intercept
        else model.coef_[0]
    )
    precision = np.full(Phi.shape[1], float(alpha))
    precision[0] = 0.0 if model.fit_intercept else alpha
    objective = (
        linear.logistic_objective if kind == "logit" else linear.probit_objective
    )
    terms = linear.logit_nll_terms if kind == "logit" else linear.probit_nll_terms
    _, _, H = objective(w, Phi, y, precision=precision)
    g_r = gradient_rounding(Phi, w, *terms(Phi @ w, y)[1:])
    return (
        Phi,
        w,
        H,
        newton_gradient(Phi, w, g_r, THIRD[kind]),
        gradient_at_stop(Phi.shape[1], len(Phi), SK_TOL, g_r),
    )


def softmax_fit_bounds(model, X, y, alpha):
    """The same for a SoftmaxRegression: weights (K, M), Hessian, bounds, null directions."""
    Phi, T = linear.design_matrix(X), np.eye(len(model.classes_))[y]
    W = np.c_[model.intercept_, model.coef_]
    precision = np.r_[0.0, np.full(X.shape[1], float(alpha))]
    _, _, H = linear.softmax_objective(W.ravel(), Phi, T, precision=precision)
    g_r = gradient_rounding(Phi, W, model.predict_proba(X) - T, 0.25)
    n_null = (
        Phi.shape[1] if alpha == 0 else 1
    )  # a common shift of all w_k, or of the w_k0
    return (
        Phi,
        W,
        H,
        newton_gradient(Phi, W, g_r, THIRD["softmax"]),
        gradient_at_stop(len(model.classes_) * Phi.shape[1], len(Phi), SK_TOL, g_r),
        n_null,
    )


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return (X - X.mean(0)) / X.std(0), y


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return (X - X.mean(0)) / X.std(0), y


def overlapping(rng, n=120, d=3):
    X, y = gaussian_classes(
        n // 2, rng.normal(size=(2, d)), np.eye(d) * 2.0, random_state=rng
    )
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


@pytest.mark.parametrize("link", ["logit", "probit"])
@pytest.mark.parametrize("kind", PRECISIONS)
def test_binary_objective_derivatives(link, kind, rng):
    objective = (
        linear.logistic_objective if link == "logit" else linear.probit_objective
    )
    terms = linear.logit_nll_terms if link == "logit" else linear.probit_nll_terms
    N, M = 40, 4
    Phi = np.column_stack([np.ones(N), rng.normal(size=(N, M - 1))])
    t = (rng.random(N) < 0.5).astype(float)
    A, m0 = make_precision(kind, M, rng), rng.normal(size=M)
    w = rng.normal(size=M)
    E, g, H = objective(w, Phi, t, A, m0)
    gfun = lambda v: objective(v, Phi, t, A, m0)[1]  # noqa: E731
    g_fd = central_differences(lambda v: objective(v, Phi, t, A, m0)[0], w, H_FD)
    H_fd = central_differences(gfun, w, H_FD)
    # fd_error with the rounding of E and of ∇E (the NLL's, plus the prior's: M² and M terms of
    # size |A||w − m0|) and the NLL term's third and fourth derivatives (the prior is quadratic)
    nll, d1, d2 = terms(Phi @ w, t)
    A_abs = np.abs(np.diag(np.broadcast_to(A, (M,))) if np.ndim(A) < 2 else A)
    prior_grad = A_abs @ np.abs(w - m0)
    E_round = nll_rounding(Phi, w, nll, d1) + M**2 * EPS * np.abs(w - m0) @ prior_grad
    g_round = gradient_rounding(Phi, w, d1, d2) + M * EPS * prior_grad
    tol_g = fd_error(
        E_round,
        np.abs(w).max(),
        np.abs(g).max(),
        THIRD[link] * np.max(np.sum(np.abs(Phi) ** 3, axis=0)),
    )
    tol_H = fd_error(
        g_round.max(),
        np.abs(w).max(),
        np.abs(H).max(),
        FOURTH[link] * np.sum(np.abs(Phi).max(axis=1) ** 4),
    )
    np.testing.assert_allclose(g_fd, g, rtol=0, atol=tol_g)
    np.testing.assert_allclose(H_fd, H, rtol=0, atol=tol_H)
    # convex: forming ΦᵀRΦ + A and finding its eigenvalues moves one by (N + 1)M·EPS·λ_max
    eig = np.linalg.eigvalsh(H)
    assert np.all(eig >= -(N + 1) * M * EPS * eig[-1])
    E2, g2 = objective(w, Phi, t, A, m0, hessian=False)
    assert E2 == E and np.array_equal(g2, g)


def test_binary_likelihoods_match_scipy(rng):
    a, t = rng.normal(scale=3, size=50), (rng.random(50) < 0.5).astype(float)
    nll, _, _ = linear.logit_nll_terms(a, t)
    p = 1 / (1 + np.exp(-a))
    # scipy takes the log of p or of 1 − p, which carry an absolute rounding of about EPS: the
    # log errs by EPS/p or EPS/(1 − p), on top of a few roundings of its own
    np.testing.assert_allclose(
        nll,
        -stats.bernoulli.logpmf(t, p),
        rtol=0,
        atol=np.max(EPS * (4 + 1 / p + 1 / (1 - p))),
    )
    nll, _, _ = linear.probit_nll_terms(a, t)
    ref = -np.where(
        t == 1, stats.norm.logcdf(a), stats.norm.logsf(a)
    )  # no 1 − Φ cancellation
    # both are SciPy's log_ndtr of ±a, to a few units in the last place
    np.testing.assert_allclose(nll, ref, rtol=8 * EPS, atol=0)


@pytest.mark.parametrize("terms", [linear.logit_nll_terms, linear.probit_nll_terms])
def test_nll_terms_are_finite_far_in_the_tails(terms):
    a = np.array([-1e4, -800.0, -40.0, 40.0, 800.0, 1e4])
    for t in (np.zeros(6), np.ones(6)):
        nll, d1, d2 = terms(a, t)
        assert (
            np.all(np.isfinite(nll))
            and np.all(np.isfinite(d1))
            and np.all(np.isfinite(d2))
        )
        assert np.all(nll >= 0) and np.all(d2 >= 0)


QUAD_REL = 1e-13  # the relative accuracy asked of quad for each moment


def probit_curvature_by_quadrature(u):
    """ℓ″(u) = 1 − Var(Z | Z ≤ u), Z ~ N(0, 1), by quadrature of the moments of s = u − Z ≥ 0,
    whose density ∝ exp(us − s²/2) is written without Φ (no cancellation for u ≪ 0, where
    Var(s) ≈ 1/u² is small). Also returns a bound on its error: quad's estimate is an estimate,
    so each moment is allowed 10·QUAD_REL, carried through 1 − (m₂/m₀ − m₁²/m₀²)."""
    hi = 50 / -u if u < -1 else max(u, 0.0) + 12
    m = [
        integrate.quad(
            lambda s, k=k: s**k * np.exp(u * s - 0.5 * s * s),
            0,
            hi,
            epsabs=0,
            epsrel=QUAD_REL,
            limit=200,
        )[0]
        for k in range(3)
    ]
    v1, v2 = m[1] / m[0], m[2] / m[0]
    return 1 - (v2 - v1**2), 10 * QUAD_REL * (2 * v2 + 4 * v1**2)


def test_probit_curvature_is_accurate_far_in_the_tails():
    """ℓ″ = λ(u)(u + λ(u)) against quadrature, to the quadrature's accuracy, for u from −1e8
    to 3 (both sides of the switch to the asymptotic series at PROBIT_TAIL = −30), and
    0 < ℓ″ ≤ 1."""
    u = np.array(
        [-1e8, -1e5, -1e4, -1e3, -30.5, -30.0, -29.5, -10.0, -3.0, -1.0, 0.0, 1.0, 3.0]
    )
    for t in (0.0, 1.0):  # u = (2t − 1)a
        _, d1, d2 = linear.probit_nll_terms((2 * t - 1) * u, np.full(len(u), t))
        ref, err = np.array([probit_curvature_by_quadrature(v) for v in u]).T
        np.testing.assert_allclose(d2, ref, rtol=np.max(err / ref), atol=0)
        # λ = N/Φ: SciPy's pdf and cdf both contain exp(−u²/2), whose relative error is EPS
        # times the size of its argument (0.75u² in all, after erfc's), plus a few roundings
        mid = np.abs(u) <= 30
        np.testing.assert_allclose(
            -(2 * t - 1) * d1[mid],
            stats.norm.pdf(u[mid]) / stats.norm.cdf(u[mid]),
            rtol=EPS * (np.max(u[mid] ** 2) + 8),
            atol=0,
        )
        assert np.all(d2 > 0) and np.all(d2 <= 1)
        assert np.all(d2[np.abs(u) <= 1e7] < 1)  # 1 − 1/u² rounds to 1 beyond |u| ≈ 1e8
    # far beyond the switch the curvature approaches 1 − 1/u² monotonically
    u_far = -np.logspace(1.5, 300, 200)
    d2_far = linear.probit_nll_terms(u_far, np.ones(len(u_far)))[2]
    assert np.all(np.diff(d2_far) >= 0) and np.all((d2_far > 0) & (d2_far <= 1))


def test_probit_higher_derivatives_are_bounded():
    """|ℓ'''| < THIRD["probit"] and |ℓ''''| < FOURTH["probit"] (the bounds the tolerances use): by
    differences of ℓ″ on a fine grid; beyond it ℓ″ → 1 − 1/u² and → 0 exponentially."""
    u = np.linspace(-40, 10, 1_000_001)
    d2 = linear.probit_nll_terms(u, np.ones(len(u)))[2]
    d3 = np.gradient(d2, u)
    assert np.max(np.abs(d3)) < THIRD["probit"]
    assert np.max(np.abs(np.gradient(d3, u))) < FOURTH["probit"]


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
    prior_terms = np.broadcast_to(A, (K, M)) * w.reshape(K, M) ** 2
    prior = 0.5 * np.sum(prior_terms)
    nll_n = -np.sum(T * np.log(P), axis=1)
    # both routes: the NLL's rounding (P from exp of activations as large as |a|, so each log errs
    # by EPS|a| as well) and the prior's K·M terms
    E_round = (
        nll_rounding(Phi, w, nll_n, P - T)
        + len(Phi) * EPS * np.sum(np.abs(act))
        + K * M * EPS * np.sum(prior_terms)
    )
    assert E == pytest.approx(nll + prior, rel=0, abs=2 * E_round)
    g_round = gradient_rounding(Phi, w, P - T, 0.25).max() + K * M * EPS * np.max(
        np.broadcast_to(A, (K, M)) * np.abs(w.reshape(K, M))
    )
    tol_g = fd_error(
        E_round,
        np.abs(w).max(),
        np.abs(g).max(),
        THIRD["logit"] * np.max(np.sum(np.abs(Phi) ** 3, axis=0)),
    )
    tol_H = fd_error(
        g_round,
        np.abs(w).max(),
        np.abs(H).max(),
        FOURTH["logit"] * np.sum(np.abs(Phi).max(axis=1) ** 4),
    )
    gfun = lambda v: linear.softmax_objective(v, Phi, T, A)[1]  # noqa: E731
    efun = lambda v: linear.softmax_objective(v, Phi, T, A)[0]  # noqa: E731
    np.testing.assert_allclose(
        central_differences(efun, w, H_FD), g, rtol=0, atol=tol_g
    )
    np.testing.assert_allclose(
        central_differences(gfun, w, H_FD), H, rtol=0, atol=tol_H
    )


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
        linear.check_precision([[1.0, 2.0], [2.0, 1.0]], 2)  # eigenvalues 3 and −1
    B = np.random.default_rng(0).normal(size=(4, 2))
    linear.check_precision(B @ B.T, 4)  # rank 2: PSD up to rounding, accepted


PHI4 = np.column_stack([np.ones(4), [0.0, 1.0, 2.0, 3.0]])
T4, W2 = np.array([0.0, 1.0, 0.0, 1.0]), np.array([0.1, -0.2])
BAD_BINARY = [
    ({"w": np.zeros(3)}, r"w must have 2 entries"),
    ({"w": [0.0, np.nan]}, "w contains NaN"),
    ({"t": [0.0, 1.0, np.nan, 1.0]}, "t contains NaN"),
    ({"t": [0.0, 1.0, 2.0, 1.0]}, r"t must hold 0/1 or boolean labels.*\[2\.0\]"),
    ({"t": T4[:3]}, "[Ii]nconsistent numbers of samples: Phi has 4, t has 3"),
    ({"Phi": PHI4[:, 1]}, "Phi must be a 2-D array"),
    ({"Phi": np.where(PHI4 > 2, np.inf, PHI4)}, "Phi contains infinity"),
    ({"mean": np.zeros(3)}, r"mean must have 2 entries"),
    ({"mean": [np.nan, 0.0]}, "mean contains NaN"),
    ({"precision": -np.eye(2)}, "precision must be positive semi-definite"),
    ({"precision": np.ones(3)}, "precision must be a scalar"),
    ({"hessian": "yes"}, "hessian must be True or False"),
]


@pytest.mark.parametrize(
    "objective", [linear.logistic_objective, linear.probit_objective]
)
@pytest.mark.parametrize("bad, match", BAD_BINARY)
def test_binary_objectives_reject_bad_input(objective, bad, match):
    args = {"w": W2, "Phi": PHI4, "t": T4} | bad
    with pytest.raises(ValueError, match=match):
        objective(**args)


T3 = np.eye(3)[[0, 1, 2, 1]]
BAD_SOFTMAX = [
    ({"w": np.zeros(5)}, r"w must have 6 entries \(K·M = 3·2"),
    ({"w": np.r_[np.zeros(5), np.nan]}, "w contains NaN"),
    ({"T": T3[:3]}, "[Ii]nconsistent numbers of samples: Phi has 4, T has 3"),
    ({"T": T3 * 2}, "T must hold one-hot rows"),
    ({"T": T3 - 0.5 * np.eye(3)[[1, 2, 0, 2]] + 0.5 * T3}, "T must hold one-hot rows"),
    ({"T": np.where(T3 == 1, np.nan, T3)}, "T contains NaN"),
    ({"T": T3[:, 0]}, "T must be a 2-D array"),
    ({"Phi": PHI4[:, 1]}, "Phi must be a 2-D array"),
    (
        {"precision": np.ones(4)},
        r"precision and mean must broadcast to \(K, M\) = \(3, 2\)",
    ),
    ({"precision": -1.0}, "precision must be non-negative"),
    ({"mean": np.full(2, np.inf)}, "mean contains infinity"),
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
    # four terms ln 3, each a logsumexp of zeros (a few roundings), and three additions
    assert E_soft == pytest.approx(4 * np.log(3), rel=8 * EPS, abs=0)


# --- the solvers -----------------------------------------------------------------------------


def test_one_newton_step_solves_least_squares(rng):
    """Lecture 003 §4-3-3: for E = ½‖Φw − t‖², one Newton step from anywhere is (ΦᵀΦ)⁻¹Φᵀt."""
    Phi, t = rng.normal(size=(50, 4)), rng.normal(size=50)

    def fun(w):
        r = Phi @ w - t
        return 0.5 * r @ r, Phi.T @ r, Phi.T @ Phi

    x0 = rng.normal(size=4) * 10
    res = linear.newton_minimize(fun, x0, max_iter=1)
    x_ls = np.linalg.lstsq(Phi, t, rcond=None)[0]
    # forming ΦᵀΦ and the gradient from N terms perturbs them by N·EPS of their size, and the
    # normal equations amplify that by κ(Φ)², on the size of the start and of the answer
    tol = (
        sum(Phi.shape)
        * EPS
        * np.linalg.cond(Phi) ** 2
        * (np.abs(x0).max() + np.abs(x_ls).max())
    )
    np.testing.assert_allclose(res.x, x_ls, rtol=0, atol=tol)


@pytest.mark.parametrize(
    "H, g",
    [
        (np.full((2, 2), np.nan), np.ones(2)),
        (np.eye(2), [1.0, np.inf]),
        (np.diag([1.0, -np.inf]), np.ones(2)),
    ],
)
def test_newton_direction_rejects_non_finite_input(H, g):
    with pytest.raises(
        ValueError, match="Hessian or the gradient contains NaN or infinite"
    ):
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
    with pytest.raises(
        ValueError, match="fun\\(x0\\) must return a finite E, gradient"
    ):
        linear.newton_minimize(lambda x: (np.inf, x, np.eye(1)), np.ones(1))
    with pytest.raises(
        ValueError, match="fun\\(x0\\) must return a finite E, gradient"
    ):
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

    res = linear.newton_minimize(fun, np.array([0.5]), tol=NEWTON_TOL)
    # it stopped after a step d = x(1 + x²) ≥ x of at most tol·(1 + x), halved to stay at x ≥ 0
    assert res.converged and 0 <= res.x[0] <= NEWTON_TOL / (1 - NEWTON_TOL)
    assert np.all(
        np.diff(res.history) <= 8 * EPS * np.abs(res.history[:-1])
    )  # Armijo, rounding


def test_newton_history_decreases_and_restrict(rng):
    Phi = np.column_stack([np.ones(80), rng.normal(size=(80, 2))])
    t = (rng.random(80) < 0.4).astype(float)
    res = linear.newton_minimize(
        lambda w: linear.logistic_objective(w, Phi, t), np.zeros(3)
    )
    # the line search accepts E up to its rounding allowance, 8·EPS·|E|, above the last
    assert res.converged and res.n_iter < 10
    assert np.all(np.diff(res.history) <= 8 * EPS * np.abs(res.history[:-1]))
    # hold w_2 fixed at its optimum: the reduced problem has the same solution, up to what both
    # stopping rules leave of the gradient in (w_0, w_1), over the smallest curvature there
    fixed = res.x.copy()
    red = restrict(
        lambda w: linear.logistic_objective(w, Phi, t), [True, True, False], fixed
    )
    sub = linear.newton_minimize(red, np.zeros(2))
    g_r = gradient_rounding(Phi, res.x, *linear.logit_nll_terms(Phi @ res.x, t)[1:])
    tol = optimum_gap(
        res.hess[:2, :2],
        newton_gradient(Phi, res.x, g_r, THIRD["logit"]),
        newton_gradient(Phi[:, :2], sub.x, g_r[:2], THIRD["logit"]),
    )
    np.testing.assert_allclose(sub.x, res.x[:2], rtol=0, atol=tol)


# --- estimators against scikit-learn -----------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.1, 1.0, 10.0])
def test_logistic_irls_matches_sklearn(cancer, alpha):
    X, y = cancer
    ours = LogisticRegression(alpha=alpha).fit(X, y)
    sk = sk_exact(alpha).fit(X, y)
    # both stopping rules bound the gradient at each answer; the Hessian turns that into a
    # distance, and a probability moves by at most ¼|φ|ᵀ|Δw|
    Phi, _, H, g_ours, g_sk = binary_fit_bounds(ours, X, y, alpha)
    tol = optimum_gap(H, g_ours, g_sk)
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=0, atol=tol)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=0, atol=tol)
    tol_p = 0.25 * np.max(np.sum(np.abs(Phi), axis=1)) * tol
    np.testing.assert_allclose(
        ours.predict_proba(X), sk.predict_proba(X), rtol=0, atol=tol_p
    )
    assert ours.coef_.shape == (1, X.shape[1]) and ours.intercept_.shape == (1,)


@pytest.mark.parametrize("seed", range(5))
def test_logistic_unpenalised_and_no_intercept(seed):
    rng = np.random.default_rng(seed)
    X, y = overlapping(rng)
    for kw, sk_kw in [({}, {}), ({"fit_intercept": False}, {"fit_intercept": False})]:
        ours = LogisticRegression(**kw).fit(X, y)
        sk = sk_exact(0, **sk_kw).fit(X, y)
        _, _, H, g_ours, g_sk = binary_fit_bounds(ours, X, y, 0.0)
        tol = optimum_gap(H, g_ours, g_sk)
        np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=0, atol=tol)
        np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=0, atol=tol)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver, tol", [("gd", 1e-9), ("sgd", 1e-3)])
def test_first_order_solvers_reach_the_irls_optimum(solver, tol, fit_intercept):
    rng = np.random.default_rng(1)
    X, y = overlapping(rng, n=200, d=2)
    exact = LogisticRegression(alpha=1.0, fit_intercept=fit_intercept).fit(X, y)
    model = LogisticRegression(
        solver=solver,
        alpha=1.0,
        tol=tol,
        max_iter=20_000,
        random_state=0,
        fit_intercept=fit_intercept,
    ).fit(X, y)
    assert model.n_iter_ < 20_000  # stopped by tol: max|∇E| ≤ N·tol at its end
    Phi, w_exact, H, g_exact, _ = binary_fit_bounds(exact, X, y, 1.0)
    g_model = np.sqrt(Phi.shape[1]) * len(y) * tol
    np.testing.assert_allclose(
        model.coef_, exact.coef_, rtol=0, atol=optimum_gap(H, g_model, g_exact)
    )
    # E − E* ≤ ‖∇E‖²/(2λ_min) (the curvature is at least λ_min near the optimum), and E carries
    # a rounding of at most N·EPS·(E₀ + Σ_n|φ_n|ᵀ|w|) (|y − t| ≤ 1)
    w_model = (
        np.r_[model.intercept_, model.coef_[0]] if fit_intercept else model.coef_[0]
    )
    E_round = (
        len(y)
        * EPS
        * (
            model.loss_curve_[0]
            + np.sum(np.abs(Phi) @ (np.abs(w_model) + np.abs(w_exact)))
        )
    )
    lam_min = np.linalg.eigvalsh(H)[0]
    E_min = exact.loss_curve_[-1]
    assert model.loss_curve_[-1] >= E_min - 2 * E_round  # the optimum is the minimum
    assert (
        model.loss_curve_[-1] - E_min
        <= (g_model + g_exact) ** 2 / (2 * lam_min) + 2 * E_round
    )
    if solver == "gd":  # η = 1/L: E decreases at every step, to the optimum
        assert np.all(np.diff(model.loss_curve_) <= 2 * E_round)
    else:  # SGD's epochs need not decrease E, but it removes most of the gap
        assert model.loss_curve_[-1] < model.loss_curve_[0] - 0.5 * (
            model.loss_curve_[0] - E_min
        )


def test_sgd_is_seeded():
    X, y = overlapping(np.random.default_rng(2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fits = [
            LogisticRegression(solver="sgd", max_iter=5, random_state=3).fit(X, y).coef_
            for _ in range(2)
        ]
    np.testing.assert_array_equal(*fits)


def test_labels_and_column_order():
    rng = np.random.default_rng(4)
    X, y = overlapping(rng)
    names = np.where(y == 1, "yes", "no")
    m = LogisticRegression(alpha=0.5).fit(X, names)
    assert m.classes_.tolist() == ["no", "yes"]
    ref = LogisticRegression(alpha=0.5).fit(X, y)
    # the labels, once encoded, are the same 0/1 targets: the same computation, bit for bit
    np.testing.assert_array_equal(m.predict_proba(X), ref.predict_proba(X))
    assert set(m.predict(X)) <= {"no", "yes"}
    # σ(−a) + σ(a): each rounds in a few operations, a few EPS of its size
    np.testing.assert_allclose(m.predict_proba(X).sum(1), 1.0, rtol=4 * EPS, atol=0)
    assert m.score(X, names) == ref.score(X, y)


@pytest.mark.parametrize("alpha", [0.0, 0.5])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_probit_matches_scipy_root(cancer, alpha, fit_intercept):
    """Independent route: the zero of the gradient of −Σ ln Φ(s_n a_n) + ½α‖w‖², written with
    scipy.stats, by SciPy's root finder (MINPACK's hybrid method); E is convex, so that zero is
    its minimum. And BFGS, given E alone, finds no lower E. (BFGS's answer is only as good as its
    finite-difference gradient, about √EPS·|E|, so it is no reference for the weights.)"""
    X, y = cancer
    X = X[:, :6]
    ours = ProbitRegression(alpha=alpha, fit_intercept=fit_intercept).fit(X, y)
    s = 2 * y - 1
    b = 1.0 if fit_intercept else 0.0  # v[0] is the intercept, or pinned at 0
    pen = np.r_[1 - b, np.full(X.shape[1], alpha)]

    def nll(v):
        return -stats.norm.logcdf(s * (X @ v[1:] + b * v[0])).sum() + 0.5 * v @ (
            pen * v
        )

    def grad(v):
        u = s * (X @ v[1:] + b * v[0])
        lam = np.exp(stats.norm.logpdf(u) - stats.norm.logcdf(u))  # N(u)/Φ(u)
        return -np.r_[b * np.sum(s * lam), X.T @ (s * lam)] + pen * v

    xtol = 1e-13  # the root finder's relative last step
    root = optimize.root(
        grad, np.zeros(X.shape[1] + 1), method="hybr", options={"xtol": xtol}
    )
    assert root.success
    ref = root.x
    Phi, w, H, g_ours, _ = binary_fit_bounds(ours, X, y, alpha, kind="probit")
    g_round = gradient_rounding(Phi, w, *linear.probit_nll_terms(Phi @ w, y)[1:])
    if not fit_intercept:  # the pinned v[0] adds a unit curvature
        H = np.block(
            [[np.ones((1, 1)), np.zeros((1, len(w)))], [np.zeros((len(w), 1)), H]]
        )
    tol = (
        optimum_gap(H, g_ours, np.linalg.norm(g_round))
        + xtol * np.sqrt(len(ref)) * np.abs(ref).max()
    )
    np.testing.assert_allclose(ours.coef_[0], ref[1:], rtol=0, atol=tol)
    np.testing.assert_allclose(ours.intercept_, b * ref[:1], rtol=0, atol=tol)
    # Φ moves by at most N(0)·|Δa| ≤ 0.4·|φ|ᵀ|Δw| (+ the rounding of a)
    tol_p = 0.4 * (
        np.max(np.sum(np.abs(Phi), axis=1)) * tol
        + 2 * EPS * np.max(np.abs(Phi) @ np.abs(w))
    )
    np.testing.assert_allclose(
        ours.predict_proba(X)[:, 1],
        stats.norm.cdf(X @ ref[1:] + b * ref[0]),
        rtol=0,
        atol=tol_p,
    )
    bfgs = optimize.minimize(nll, np.zeros(X.shape[1] + 1), method="BFGS").x
    v_ours = np.r_[ours.intercept_ if fit_intercept else 0.0, ours.coef_[0]]
    nll_w, d1_w = linear.probit_nll_terms(Phi @ w, y)[:2]
    E_round = nll_rounding(Phi, np.abs(w) + np.abs(bfgs[-len(w) :]), nll_w, d1_w)
    assert nll(v_ours) <= nll(bfgs) + 2 * E_round  # no lower E, up to rounding


@pytest.mark.parametrize("alpha", [0.3, 3.0])
def test_softmax_matches_sklearn(wine, alpha):
    X, y = wine
    ours = SoftmaxRegression(alpha=alpha).fit(X, y)
    sk = sk_exact(alpha).fit(X, y)
    Phi, W, H, g_ours, g_sk, n_null = softmax_fit_bounds(ours, X, y, alpha)
    tol = optimum_gap(H, g_ours, g_sk, n_null=n_null)
    # a probability moves by at most ½|φ|ᵀ|Δw| (Σ_j |∂f_k/∂a_j| = 2f_k(1 − f_k))
    tol_p = 0.5 * np.max(np.sum(np.abs(Phi), axis=1)) * tol
    np.testing.assert_allclose(
        ours.predict_proba(X), sk.predict_proba(X), rtol=0, atol=tol_p
    )
    # penalised weights are identifiable: they sum to zero over the classes, as sklearn's do
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=0, atol=tol)
    K = len(ours.classes_)
    np.testing.assert_allclose(ours.coef_.sum(0), 0, rtol=0, atol=K * tol)
    # the intercepts are centred after the fit, b − mean(b), and then summed here: the mean's
    # K − 1 additions and division, K subtractions and K − 1 additions, at most 2K·EPS·Σ|b|
    np.testing.assert_allclose(
        ours.intercept_.sum(),
        0,
        rtol=0,
        atol=2 * K * EPS * np.abs(ours.intercept_).sum(),
    )
    assert ours.coef_.shape == (K, X.shape[1])


def test_softmax_unpenalised_and_two_classes():
    rng = np.random.default_rng(5)
    X, y = gaussian_classes(
        40, rng.normal(size=(3, 2)), np.eye(2) * 2, random_state=rng
    )
    ours = SoftmaxRegression().fit(X, y)
    Phi, _, H, g_ours, g_sk, n_null = softmax_fit_bounds(ours, X, y, 0.0)
    tol_p = (
        0.5
        * np.max(np.sum(np.abs(Phi), axis=1))
        * optimum_gap(H, g_ours, g_sk, n_null=n_null)
    )
    np.testing.assert_allclose(
        ours.predict_proba(X),
        sk_exact(0).fit(X, y).predict_proba(X),
        rtol=0,
        atol=tol_p,
    )
    # two classes: softmax with 2 vectors is logistic regression on v = w₁ − w₀; at the optimum
    # w₁ = −w₀ = v/2, so the prior ½α(‖w₀‖² + ‖w₁‖²) = ½(α/2)‖v‖². Each fit is within its
    # optimum_gap of its optimum; the softmax's counts twice in v.
    X2, y2 = overlapping(rng)
    soft, logi = (
        SoftmaxRegression(alpha=2.0).fit(X2, y2),
        LogisticRegression(alpha=1.0).fit(X2, y2),
    )
    Phi2, _, H_s, g_s, _, n_null_s = softmax_fit_bounds(soft, X2, y2, 2.0)
    _, _, H_l, g_l, _ = binary_fit_bounds(logi, X2, y2, 1.0)
    tol = 2 * optimum_gap(H_s, g_s, n_null=n_null_s) + optimum_gap(H_l, g_l)
    np.testing.assert_allclose(
        soft.coef_[1] - soft.coef_[0], logi.coef_[0], rtol=0, atol=tol
    )
    np.testing.assert_allclose(
        soft.predict_proba(X2),
        logi.predict_proba(X2),
        rtol=0,
        atol=0.25 * np.max(np.sum(np.abs(Phi2), axis=1)) * tol,
    )


@pytest.mark.parametrize("k", [2, 3])
def test_generative_matches_lda(wine, k):
    X, y = wine
    keep = y < k
    X, y = X[keep], y[keep]
    ours = GaussianGenerativeClassifier().fit(X, y)
    lda = LinearDiscriminantAnalysis(solver="lsqr", store_covariance=True).fit(X, y)
    N, D = X.shape
    # sums of N products (|Σ_ij| ≤ max Σ_ii) and of N values; one division for the priors
    np.testing.assert_allclose(
        ours.covariance_,
        lda.covariance_,
        rtol=0,
        atol=N * EPS * np.max(np.diag(ours.covariance_)),
    )
    np.testing.assert_allclose(
        ours.means_, lda.means_, rtol=0, atol=N * EPS * np.abs(X).max()
    )
    np.testing.assert_allclose(ours.priors_, lda.priors_, rtol=EPS, atol=0)
    # the weights solve with Σ: its relative perturbation (N + D)·EPS times κ(Σ), on the size of
    # Σ⁻¹μ_k and μ_kᵀΣ⁻¹μ_k (two-class weights are a difference of the classes')
    W_k = np.linalg.solve(ours.covariance_, ours.means_.T)
    tol = (
        (N + D)
        * EPS
        * np.linalg.cond(ours.covariance_)
        * np.max(np.abs(W_k).max(0) + np.sum(ours.means_.T * W_k, axis=0))
    )
    np.testing.assert_allclose(ours.coef_, lda.coef_, rtol=0, atol=tol)
    np.testing.assert_allclose(ours.intercept_, lda.intercept_, rtol=0, atol=tol)
    act_tol = tol * (1 + np.max(np.sum(np.abs(X), axis=1)))  # on each activation
    np.testing.assert_allclose(
        ours.predict_proba(X), lda.predict_proba(X), rtol=0, atol=0.5 * act_tol
    )
    # equal predictions: no point is within the activations' error of a boundary
    a = np.sort(np.atleast_2d(ours.decision_function(X).T).T, axis=1)
    assert (
        np.min(a[:, -1] - a[:, -2] if a.shape[1] > 1 else np.abs(a[:, 0])) > 2 * act_tol
    )
    np.testing.assert_array_equal(ours.predict(X), lda.predict(X))


def test_generative_is_bayes_theorem(rng):
    """predict_proba equals p(x|C_k)p(C_k)/Σ_j p(x|C_j)p(C_j) with the fitted Gaussians."""
    X, y = gaussian_classes(30, rng.normal(size=(4, 3)), np.eye(3), random_state=rng)
    m = GaussianGenerativeClassifier().fit(X, y)
    log_joint = np.column_stack(
        [
            np.log(p) + stats.multivariate_normal(mu, m.covariance_).logpdf(X)
            for p, mu in zip(m.priors_, m.means_)
        ]
    )
    joint = np.exp(log_joint)
    # both routes solve with Σ (relative D·EPS·κ(Σ)) and cancel terms as large as their parts:
    # SciPy's Mahalanobis distance and log-determinant (each at most |ln p(x, C_k)|, up to the
    # prior), and our x'w_k and μ_k'Σ⁻¹μ_k; softmax and normalising double that, as a relative error
    D = X.shape[1]
    W_k = np.linalg.solve(m.covariance_, m.means_.T)
    size = np.max(
        2 * np.abs(log_joint)
        + np.abs(X) @ np.abs(W_k)
        + np.sum(m.means_.T * W_k, axis=0)
        + np.abs(np.log(m.priors_))
    )
    rtol = 2 * D * EPS * np.linalg.cond(m.covariance_) * size
    np.testing.assert_allclose(
        m.predict_proba(X), joint / joint.sum(1, keepdims=True), rtol=rtol, atol=0
    )


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

SEPARABLE = [
    LogisticRegression(),
    LogisticRegression(solver="gd"),
    LogisticRegression(solver="sgd", random_state=0),
    ProbitRegression(),
    SoftmaxRegression(),
]


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
    (LogisticRegression(), X3, [1, 1, 1, 1], "only one class"),
    (ProbitRegression(), X3, [1, 1, 1, 1], "only one class"),
    (SoftmaxRegression(), X3, [1, 1, 1, 1], "only one class"),
    (GaussianGenerativeClassifier(), X3, [1, 1, 1, 1], "only one class"),
    (
        LogisticRegression(),
        [[0.0, np.nan], [1, 0], [2, 2], [3, 1]],
        [0, 1, 0, 1],
        "X contains NaN",
    ),
    (
        SoftmaxRegression(),
        [[0.0, np.inf], [1, 0], [2, 2], [3, 1]],
        [0, 1, 0, 1],
        "X contains infinity",
    ),
    (GaussianGenerativeClassifier(), X3, [0, np.nan, 0, 1], "y contains NaN"),
    (ProbitRegression(), X3, [0, np.inf, 0, 1], "y contains infinity"),
    (LogisticRegression(), X3, [0, 1, 0], "[Ii]nconsistent numbers of samples"),
    (
        GaussianGenerativeClassifier(),
        X3[:3],
        [0, 1, 0, 1],
        "[Ii]nconsistent numbers of samples",
    ),
    (
        LogisticRegression(solver="newton"),
        X3,
        [0, 1, 0, 1],
        "solver must be one of .*; got 'newton'",
    ),
    (LogisticRegression(alpha=-1.0), X3, [0, 1, 0, 1], "alpha must be .*>= 0"),
    (SoftmaxRegression(alpha=-0.1), X3, [0, 1, 0, 1], "alpha must be .*>= 0"),
    (ProbitRegression(alpha=np.nan), X3, [0, 1, 0, 1], "alpha must be .*finite"),
    (LogisticRegression(max_iter=0), X3, [0, 1, 0, 1], "max_iter must be .*>= 1"),
    (LogisticRegression(tol=0.0), X3, [0, 1, 0, 1], "tol must be .*> 0"),
    (
        LogisticRegression(solver="gd", learning_rate=-1.0),
        X3,
        [0, 1, 0, 1],
        "learning_rate must be .*> 0",
    ),
    (
        LogisticRegression(fit_intercept="yes"),
        X3,
        [0, 1, 0, 1],
        "fit_intercept must be True",
    ),
    (
        LogisticRegression(solver="sgd", random_state="x"),
        X3,
        [0, 1, 0, 1],
        "random_state",
    ),
    (LogisticRegression(), [1.0, 2.0, 3.0, 4.0], [0, 1, 0, 1], "X must be a 2-D array"),
    (
        LogisticRegression(solver="sgd", learning_rate=1e300, alpha=1.0, max_iter=3),
        X3,
        [0, 1, 0, 1],
        "diverged.*learning_rate is too large",
    ),
    (
        LogisticRegression(solver="gd", learning_rate=1e300, alpha=1.0, max_iter=3),
        X3,
        [0, 1, 0, 1],
        "diverged.*learning_rate is too large",
    ),
]


@pytest.mark.parametrize(
    "model, X, y, match",
    BAD_FIT,
    ids=[f"{type(m).__name__}-{i}" for i, (m, *_) in enumerate(BAD_FIT)],
)
def test_bad_fit_input(model, X, y, match):
    with pytest.raises(ValueError, match=match):
        model.fit(X, y)


@pytest.mark.parametrize("seed", range(6))
def test_generative_uses_a_pseudo_inverse_for_a_numerically_singular_covariance(seed):
    """N = 20 ≫ d: with a duplicated column (up to 1e-9 relative noise) Cholesky of Σ_ML may
    succeed on rounding, but coef_ would be arbitrary along the copies. fit warns and uses the
    pseudo-inverse: the activations are the model's without the copy, up to rounding (exact
    copy: the eigen-solve's error, eps·d·κ(R) with κ < 1e3 here, well inside 1e-12 of their
    size) or up to the copy's relative noise ε times their size (the ignored direction)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(20, 3)) * rng.uniform(0.1, 10, 3)
    y = np.arange(20) % 2
    reduced = GaussianGenerativeClassifier().fit(X, y).decision_function(X)
    size = 1 + np.max(np.abs(reduced))
    # a copy with relative noise ε keeps about ε² of its variance after regression on the
    # original: far below COLLINEAR_TOL for ε = 10⁻³·√COLLINEAR_TOL, far above for 10³·√ it
    below, above = 1e-3 * np.sqrt(COLLINEAR_TOL), 1e3 * np.sqrt(COLLINEAR_TOL)
    for copy, tol in (
        (X[:, 1], 1e-12),
        (X[:, 1] * (1 + below * rng.normal(size=20)), 10 * below),
    ):
        Xc = np.c_[X, copy]
        with pytest.warns(
            UserWarning, match=r"covariance of X is singular \(rank 3 < d = 4"
        ):
            model = GaussianGenerativeClassifier().fit(Xc, y)
        assert model.covariance_rank_ == 3
        np.testing.assert_allclose(
            model.decision_function(Xc), reduced, rtol=0, atol=tol * size
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = GaussianGenerativeClassifier().fit(
            np.c_[X, X[:, 1] * (1 + above * rng.normal(size=20))], y
        )
    assert model.covariance_rank_ == 4


@pytest.mark.parametrize("extra", ["constant", "collinear"])
def test_generative_fits_constant_and_collinear_features(extra):
    """A feature constant in every class (the digits' blank pixels) or a combination of others
    adds nothing: the activations are those without it (issue 25)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 3))
    y = np.argmax(X @ rng.normal(size=(3, 3)) + rng.normal(size=(60, 3)), axis=1)
    column = np.full(60, 4.0) if extra == "constant" else X[:, 0] - 2 * X[:, 2]
    reduced = GaussianGenerativeClassifier().fit(X, y)
    with pytest.warns(UserWarning, match="pseudo-inverse"):
        full = GaussianGenerativeClassifier().fit(np.c_[X, column], y)
    np.testing.assert_allclose(
        full.predict_proba(np.c_[X, column]),
        reduced.predict_proba(X),
        rtol=0,
        atol=1e-12,
    )


def test_generative_fits_more_features_than_samples():
    """p > N: Σ has rank N − K; the fit warns and predicts probabilities (as scikit-learn's
    LDA, it ignores the directions without within-class variance)."""
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(10, 40)), np.arange(10) % 2
    with pytest.warns(UserWarning, match=r"rank 8 < d = 40"):
        model = GaussianGenerativeClassifier().fit(X, y)
    proba = model.predict_proba(rng.normal(size=(5, 40)))
    assert np.all(np.isfinite(proba))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_generative_collinearity_test_ignores_units():
    """Raw breast-cancer feature variances span 10 orders of magnitude (smallest/largest
    Cholesky pivot 4e-10), yet none is collinear. The model is affine-equivariant, so raw or
    rescaled it must give the probabilities of LDA on the standardised features (scikit-learn's
    own lstsq solve on the rescaled features truncates small singular values and is off by 0.7)."""
    X, y = load_breast_cancer(return_X_y=True)
    Z = (X - X.mean(0)) / X.std(0)
    ref = LinearDiscriminantAnalysis(solver="lsqr").fit(Z, y).predict_proba(Z)
    # Cholesky's rounding is relative to each entry's scale, so the error is that of the
    # standardised problem: (N + D)·EPS·cond(correlation) on the size of Σ⁻¹μ_k and μ_kᵀΣ⁻¹μ_k,
    # a quarter of it times (1 + |z|₁) on a probability
    std = GaussianGenerativeClassifier().fit(Z, y)
    W_k = np.linalg.solve(std.covariance_, std.means_.T)
    tol_w = (
        sum(Z.shape)
        * EPS
        * np.linalg.cond(std.covariance_)
        * np.max(np.abs(W_k).max(0) + np.sum(std.means_.T * W_k, axis=0))
    )
    tol = 0.25 * tol_w * (1 + np.max(np.sum(np.abs(Z), axis=1)))
    for Xs in (X, X * np.logspace(-3, 3, X.shape[1])):
        ours = GaussianGenerativeClassifier().fit(Xs, y)
        np.testing.assert_allclose(ours.predict_proba(Xs), ref, rtol=0, atol=tol)
    # a solve that does depend on the units fails by far: scikit-learn's, on the rescaled features
    Xs = X * np.logspace(-3, 3, X.shape[1])
    sk_rescaled = LinearDiscriminantAnalysis(solver="lsqr").fit(Xs, y).predict_proba(Xs)
    assert np.max(np.abs(sk_rescaled - ref)) > 1e4 * tol


@pytest.mark.parametrize(
    "cls",
    [
        LogisticRegression,
        ProbitRegression,
        SoftmaxRegression,
        GaussianGenerativeClassifier,
    ],
)
def test_predict_before_fit_and_wrong_width(cls):
    with pytest.raises(NotFittedError, match="not fitted yet"):
        cls().predict(X3)
    with pytest.raises(ValueError, match="not fitted yet"):
        cls().predict_proba(X3)
    X, y = overlapping(np.random.default_rng(7))
    m = cls().fit(X, y)
    with pytest.raises(
        ValueError, match="X has 2 features, but .* is expecting 3 features"
    ):
        m.predict(X[:, :2])


@pytest.mark.parametrize(
    "X, match",
    [
        ([[0.0, np.nan]], "NaN"),
        ([[0.0, np.inf]], "NaN or infinite|infinity"),
        (np.ones((2, 2, 2)), "2-D"),
        ([1.0, 2.0], "2-D"),
        ("abc", "numeric"),
    ],
)
def test_design_matrix_rejects_bad_X(X, match):
    with pytest.raises(ValueError, match=f"X.*({match})"):
        linear.design_matrix(X)


def test_design_matrix_layout():
    X = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(linear.design_matrix(X), np.c_[np.ones(3), X])
    np.testing.assert_array_equal(linear.design_matrix(X, fit_intercept=False), X)


def _quadratic(x):
    return float(x @ x), 2 * x


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"learning_rate": -0.1}, "learning_rate"),
        ({"learning_rate": 0.0}, "learning_rate"),
        ({"tol": np.nan}, "tol"),
        ({"tol": -1.0}, "tol"),
        ({"max_iter": 2.5}, "max_iter"),
        ({"max_iter": -1}, "max_iter"),
    ],
)
def test_first_order_solvers_reject_bad_hyperparameters(kwargs, match):
    options = {"learning_rate": 0.1, "tol": 1e-6, "max_iter": 10, **kwargs}
    with pytest.raises(ValueError, match=match):
        linear.gradient_descent(_quadratic, np.ones(2), **options)
    with pytest.raises(ValueError, match=match):
        linear.sgd(lambda x, n, eta: None, _quadratic, np.ones(2), 3, **options)


@pytest.mark.parametrize("n_samples", [0, -2, 2.5])
def test_sgd_rejects_bad_n_samples(n_samples):
    with pytest.raises(ValueError, match="n_samples"):
        linear.sgd(
            lambda x, n, eta: None,
            _quadratic,
            np.ones(2),
            n_samples,
            learning_rate=0.1,
            tol=1e-6,
            max_iter=10,
        )


@pytest.mark.parametrize(
    "kwargs, match",
    [({"tol": -1e-8}, "tol"), ({"tol": "a"}, "tol"), ({"max_iter": 1.5}, "max_iter")],
)
def test_newton_rejects_bad_hyperparameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        linear.newton_minimize(
            lambda x: (float(x @ x), 2 * x, 2 * np.eye(2)), np.ones(2), **kwargs
        )


def test_sgd_stops_within_its_stated_accuracy():
    """solver="sgd" at its defaults stops at a mean gradient of tol = 1e-3 (issue 25: the
    docstring says so), i.e. within ‖w − w*‖ ≤ √M·tol/μ of the optimum, μ the smallest
    eigenvalue of the mean Hessian there (strong convexity; a factor 2 for its change along
    the segment, 1e-2 long here): the documentation promises this bound, not irls' 1e-8."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((400, 3))
    y = (X @ [1.0, -0.5, 0.3] + rng.logistic(size=400) > 0).astype(int)
    irls = LogisticRegression(alpha=1.0).fit(X, y)
    w_star = np.r_[irls.intercept_, irls.coef_.ravel()]
    Phi = linear.design_matrix(X)
    H = linear.logistic_objective(w_star, Phi, y, np.r_[0.0, np.ones(3)])[2]
    mu = np.linalg.eigvalsh(H / len(y))[0]
    bound = 2 * np.sqrt(Phi.shape[1]) * 1e-3 / mu
    for seed in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)  # it meets its tol
            sgd = LogisticRegression(alpha=1.0, solver="sgd", random_state=seed).fit(
                X, y
            )
        error = np.linalg.norm(np.r_[sgd.intercept_, sgd.coef_.ravel()] - w_star)
        assert error <= bound, (error, bound)
