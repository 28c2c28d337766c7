"""mlcourse.laplace against closed forms, quadrature, Monte Carlo, finite differences and
scikit-learn, and bad input. (probit_approximation: accuracy and properties here, basic cases
in test_foundation.py.)"""

import warnings

import numpy as np
import pytest
from scipy import integrate, special, stats
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression as SkLogistic

from mlcourse.datasets import gaussian_classes
from mlcourse.exceptions import ConvergenceWarning, NotFittedError
from mlcourse.laplace import (
    BayesianLogisticRegression,
    LaplaceResult,
    laplace_approximation,
    probit_approximation,
)
from mlcourse.linear import design_matrix
from mlcourse.utils.numdiff import (
    FD_STEP_FIRST,
    FD_STEP_SECOND,
    central_differences,
    numerical_gradient,
    numerical_hessian,
    numerical_jacobian,
)

EPS = np.finfo(float).eps


def logistic_gaussian(mu, var):
    s = np.sqrt(var)
    return integrate.quad(
        lambda a: special.expit(a) * stats.norm.pdf(a, mu, s),
        mu - 30 * s,
        mu + 30 * s,
        epsabs=1e-13,
    )[0]


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return (X - X.mean(0)) / X.std(0), y


def small_problem(seed=0, n=40):
    """One input, labels from σ(1.5x − 0.5): a posterior over (w₀, w₁) we can integrate."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-3, 3, n)
    return x[:, None], (rng.random(n) < special.expit(1.5 * x - 0.5)).astype(int)


# --- numerical derivatives ------------------------------------------------------------------


def test_numerical_derivatives(rng):
    """Against the analytic derivatives, to 3 × the central differences' error budget: with
    steps h = FD_STEP·(1 + |z|), truncation h²|f'''|/6 (first), h²|f''''|/12 (second, only
    the separable sin terms have third and fourth derivatives) plus rounding εF/h, 4εF/h², with
    F the size of f's terms; the Jacobian differences g = ∇f, whose terms are of size G."""
    B = rng.normal(size=(3, 3))
    P = B @ B.T + np.eye(3)

    def f(z):
        return -0.5 * z @ P @ z + np.sin(z).sum()

    z = rng.normal(size=3)
    h1, h2 = FD_STEP_FIRST * (1 + np.abs(z)), FD_STEP_SECOND * (1 + np.abs(z))
    F = 0.5 * np.abs(z) @ np.abs(P) @ np.abs(z) + np.abs(np.sin(z)).sum()
    G = np.abs(P) @ np.abs(z) + 1
    tol_grad = 3 * np.max(h1**2 / 6 * np.abs(np.cos(z)) + EPS * F / h1)
    tol_hess = 3 * np.max(h2**2 / 12 * np.abs(np.sin(z)) + 4 * EPS * F / h2**2)
    tol_jac = 3 * np.max(h1**2 / 6 * np.abs(np.sin(z)) + EPS * G / h1)
    np.testing.assert_allclose(
        numerical_gradient(f, z), -P @ z + np.cos(z), rtol=0, atol=tol_grad
    )
    H = -P - np.diag(np.sin(z))
    np.testing.assert_allclose(numerical_hessian(f, z), H, rtol=0, atol=tol_hess)
    np.testing.assert_allclose(
        numerical_jacobian(lambda v: -P @ v + np.cos(v), z), H, rtol=0, atol=tol_jac
    )


# --- laplace_approximation --------------------------------------------------------------------


@pytest.mark.parametrize("derivs", ["none", "grad", "both"])
def test_gaussian_is_exact(derivs, rng):
    """For a Gaussian f = c·N(m, S) the Laplace approximation is exact: mode m, covariance S,
    ln Z = ln c."""
    B = rng.normal(size=(3, 3))
    S = B @ B.T + 0.5 * np.eye(3)
    P, m, c = np.linalg.inv(S), rng.normal(size=3), 2.5
    dist = stats.multivariate_normal(m, S)
    kw = {"grad": lambda z: -P @ (z - m)} if derivs != "none" else {}
    if derivs == "both":
        kw["hess"] = lambda z: -P
    res = laplace_approximation(lambda z: np.log(c) + dist.logpdf(z), np.zeros(3), **kw)
    # ln f is quadratic, so central differences have no truncation error, only rounding: εF/h
    # for the gradient, 4εF/h² for a Hessian from second differences (εG/h from the given
    # gradient's), F and G the size of the terms. δA moves S = A⁻¹ by ‖S‖²·M·δA; a gradient
    # error δg moves the mode by ‖S‖·√M·δg; 3 × these (1e-10 with both derivatives given).
    M, norm_S = len(m), np.linalg.norm(S, 2)
    h1 = FD_STEP_FIRST * (1 + np.abs(m).max())
    h2 = FD_STEP_SECOND * (1 + np.abs(m).max())
    F = (
        abs(np.log(c))
        + 0.5 * np.abs(m) @ np.abs(P) @ np.abs(m)
        + abs(dist.logpdf(m))
        + M
    )
    G = np.abs(P).sum(1).max() * (1 + np.abs(m).max())
    dA = {"none": 4 * EPS * F / h2**2, "grad": EPS * G / h1, "both": 0.0}[derivs]
    tol = max(1e-10, 3 * norm_S**2 * M * dA)
    tol_mode = 1e-8 if derivs == "none" else 1e-10
    tol_mode = max(
        tol_mode, 3 * norm_S * np.sqrt(M) * EPS * (F if derivs == "none" else G) / h1
    )
    assert isinstance(res, LaplaceResult) and res.converged
    np.testing.assert_allclose(res.mode, m, rtol=0, atol=tol_mode)
    np.testing.assert_allclose(res.covariance, S, rtol=0, atol=tol)
    np.testing.assert_allclose(res.precision @ res.covariance, np.eye(3), atol=1e-10)
    L = res.cholesky  # A = LLᵀ, L lower-triangular
    assert np.array_equal(L, np.tril(L))
    np.testing.assert_allclose(L @ L.T, res.precision, rtol=1e-12, atol=1e-12)
    assert res.log_normalizer == pytest.approx(np.log(c), abs=tol)
    pts = rng.normal(size=(4, 3))
    np.testing.assert_allclose(res.logpdf(pts), dist.logpdf(pts), rtol=tol * 10)


@pytest.mark.parametrize("n", [2, 10, 50])
def test_stirling(n):
    """f(z) = zⁿe⁻ᶻ: mode n, A = 1/n, and Ẑ = √(2πn)nⁿe⁻ⁿ (Stirling), against n! within 1/(12n)."""
    res = laplace_approximation(
        lambda z: n * np.log(z) - z if z > 0 else -np.inf,
        1.0,
        grad=lambda z: n / z - 1,
        hess=lambda z: -n / z**2,
    )
    assert isinstance(res.mode, float) and isinstance(res.covariance, float)
    assert res.mode == pytest.approx(n, rel=1e-12) and res.covariance == pytest.approx(
        n
    )
    stirling = 0.5 * np.log(2 * np.pi * n) + n * np.log(n) - n
    assert res.log_normalizer == pytest.approx(stirling, rel=1e-12)
    gap = special.gammaln(n + 1) - res.log_normalizer
    # Stirling's series: ln n! − stirling = 1/(12n) − 1/(360n³) + …, the next term being
    # 1/(30n²) of the first; allow 3 times that
    assert gap == pytest.approx(1 / (12 * n), rel=3 / (30 * n**2))


def test_skewed_1d_against_quadrature():
    """Bishop's Fig. 4.14 density: derivatives of the result against the closed forms, and the
    Laplace Ẑ within 8 % of the quadrature value (its error for this skewed f is 7.6 %)."""

    def log_f(z):
        return -0.5 * z * z + special.log_expit(20 * z + 4)

    res = laplace_approximation(log_f, 0.0)
    u = 20 * res.mode + 4
    # 3 × the central differences' budgets (steps FD_STEP·(1 + |z|)): the gradient is off by
    # h1²|ln f'''|/6 + ε/h1 at the mode, A by h2²|ln f''''|/12 + 4ε/h2² (the terms of ln f
    # are below 1 there), with ln f''' = −20³s(1 − 2σ(u)), ln f'''' = −20⁴s(1 − 6s), s = σσ(−u)
    h1, h2 = FD_STEP_FIRST * (1 + abs(res.mode)), FD_STEP_SECOND * (1 + abs(res.mode))
    s = special.expit(u) * special.expit(-u)
    tol_grad = 3 * (h1**2 / 6 * abs(20**3 * s * (1 - 2 * special.expit(u))) + EPS / h1)
    tol_A = 3 * (h2**2 / 12 * abs(20**4 * s * (1 - 6 * s)) + 4 * EPS / h2**2)
    assert -res.mode + 20 * special.expit(-u) == pytest.approx(0, abs=tol_grad)
    assert res.precision == pytest.approx(1 + 400 * s, rel=0, abs=tol_A)
    Z = integrate.quad(lambda z: np.exp(log_f(z)), -np.inf, np.inf)[0]
    assert 1.0 < np.exp(res.log_normalizer) / Z < 1.08
    total = integrate.quad(lambda z: np.exp(res.logpdf(z)), -np.inf, np.inf)[0]
    assert total == pytest.approx(1, rel=1e-10)


def test_2d_evidence_close_to_dblquad():
    """A nearly Gaussian 2-D density (a Gaussian times a gentle sigmoid): Laplace ln Z within
    0.01 of numerical integration, and q's normaliser |A|^½/(2π)^(M/2) integrates to 1."""

    def log_f(z):
        return -0.5 * (z[0] ** 2 + 2 * z[1] ** 2 + z[0] * z[1]) + special.log_expit(
            0.5 * z[0] + 1
        )

    res = laplace_approximation(log_f, np.array([1.0, 1.0]))
    Z = integrate.dblquad(
        lambda y, x: np.exp(log_f(np.array([x, y]))), -10, 10, -10, 10
    )[0]
    assert res.log_normalizer == pytest.approx(np.log(Z), abs=0.01)
    q = integrate.dblquad(
        lambda y, x: np.exp(res.logpdf(np.array([x, y]))), -10, 10, -10, 10
    )[0]
    assert q == pytest.approx(1, rel=1e-8)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"x0": np.nan}, "x0 contains NaN"),
        ({"x0": np.zeros((2, 2))}, "x0 must be a 1-D array"),
        (
            {"x0": 5.0, "log_density": lambda z: -np.inf},
            "log_density\\(x0\\) must be finite",
        ),
        ({"log_density": 3.0}, "log_density must be callable"),
        ({"grad": lambda z: np.zeros(3)}, "grad must return shape \\(2,\\)"),
        (
            {"grad": lambda z: -z, "hess": lambda z: np.eye(3)},
            "hess must return shape \\(2, 2\\)",
        ),
        ({"grad": lambda z: np.full(2, np.nan)}, "grad returned NaN"),
        ({"log_density": lambda z: z @ z}, "not positive definite"),
    ],
)
def test_laplace_bad_input(kwargs, match):
    args = {"log_density": lambda z: -0.5 * z @ z, "x0": np.ones(2)} | kwargs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.raises(ValueError, match=match):
            laplace_approximation(**args)


@pytest.mark.parametrize(
    "log_density, x0",
    [
        (lambda z: np.log(z) - z, 1e-9),  # the step crosses z = 0
        (
            lambda z: -(z**2) if abs(z) < 1 else np.nan,
            0.9999999,
        ),  # NaN outside the support
        (lambda z: np.log(z).sum() - z.sum(), np.array([1.0, 1e-9])),
    ],
)
def test_finite_differences_leaving_the_support_at_x0(log_density, x0):
    """ln f(x0) is finite, but a finite-difference step from x0 leaves the support: an error
    naming x0 (this used to hang in the Newton ridge loop on a NaN Hessian)."""
    with pytest.raises(ValueError, match="log_density are not finite at x0"):
        laplace_approximation(log_density, x0)


def test_iterates_near_the_support_edge_are_stepped_back_from():
    """ln f(z) = −√(1 + z²) for z < ½, NaN elsewhere; mode 0, A = 1. Newton's full step from
    x0 = −0.49995^⅓ goes to z = −x0³ = 0.49995, where E = −ln f is lower (the Armijo test
    passes) and ln f finite, but a second-difference step (1.8e-4) crosses ½. That point must
    count as outside the support (the line search halves the step) instead of being accepted
    with a NaN Hessian, on which the Newton iteration used to hang."""

    def log_f(z):
        return -np.sqrt(1 + z * z) if z < 0.5 else np.nan

    x0 = -(0.49995 ** (1 / 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and no RuntimeWarning
        res = laplace_approximation(log_f, x0)
    assert res.converged and res.mode == pytest.approx(0, abs=1e-8)
    assert res.precision == pytest.approx(1, rel=1e-6)


def test_saddle_point_is_rejected():
    """ln f = −z₁² + z₂² is stationary at 0 but not a maximum."""
    with pytest.raises(ValueError, match="not positive definite"):
        laplace_approximation(
            lambda z: -(z[0] ** 2) + z[1] ** 2,
            np.zeros(2),
            grad=lambda z: np.array([-2 * z[0], 2 * z[1]]),
            hess=lambda z: np.diag([-2.0, 2.0]),
        )


# --- BayesianLogisticRegression ---------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.1, 1.0, 10.0])
def test_map_matches_sklearn(cancer, alpha):
    X, y = cancer
    ours = BayesianLogisticRegression(prior_precision=alpha).fit(X, y)
    sk_tol = 1e-12
    sk = SkLogistic(C=1 / alpha, solver="newton-cg", tol=sk_tol, max_iter=10_000).fit(
        X, y
    )
    # scikit-learn stops when every component of its gradient, averaged over the N points, is
    # below tol: summed, ‖∇‖₂ ≤ √M·N·tol, which moves the mode by at most ‖S_N‖₂√M·N·tol; our
    # Newton mode is exact up to ε·κ(S_N⁻¹)·max|w|. A probability σ(a) moves by at most ¼δa.
    eig = np.linalg.eigvalsh(ours.posterior_precision_)
    M, N = len(eig), len(y)
    tol_w = (
        np.sqrt(M) * N * sk_tol / eig[0]
        + EPS * eig[-1] / eig[0] * np.abs(ours.posterior_mean_).max()
    )
    tol_a = tol_w * (1 + np.abs(X).sum(1).max())  # δa = δw₀ + δwᵀx
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=0, atol=tol_w)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=0, atol=tol_w)
    np.testing.assert_allclose(
        ours.predict_proba(X, method="plugin"),
        sk.predict_proba(X),
        rtol=0,
        atol=tol_a / 4,
    )
    np.testing.assert_allclose(
        ours.posterior_mean_, np.r_[sk.intercept_, sk.coef_[0]], rtol=0, atol=tol_w
    )
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))


def test_map_without_intercept_matches_sklearn():
    """A proper prior on every weight (a column of ones in X): scikit-learn penalises them all.
    (An independent route; mlcourse.linear.LogisticRegression would share our objective.)"""
    X, y = small_problem(1)
    Phi = design_matrix(X)
    ours = BayesianLogisticRegression(prior_precision=0.5, fit_intercept=False).fit(
        Phi, y
    )
    ref = SkLogistic(
        C=1 / 0.5, fit_intercept=False, solver="newton-cg", tol=1e-12, max_iter=10_000
    ).fit(Phi, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-7, atol=1e-9)
    assert ours.intercept_.tolist() == [0.0]


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_posterior_precision_is_minus_hessian(fit_intercept):
    """S_N⁻¹ = −∇∇ ln p(w|t) at w_MAP: the log posterior written with scipy.stats, its gradient
    zero there (central differences) and its Hessian by nested central differences."""
    X, y = small_problem(2)
    alpha = 0.7
    m = BayesianLogisticRegression(
        prior_precision=alpha, fit_intercept=fit_intercept
    ).fit(X, y)
    Phi = design_matrix(X, fit_intercept)

    def log_post(w):
        prior_w = w[1:] if fit_intercept else w
        return (
            stats.bernoulli.logpmf(y, special.expit(Phi @ w)).sum()
            + stats.norm.logpdf(prior_w, scale=alpha**-0.5).sum()
        )

    w = m.posterior_mean_
    np.testing.assert_allclose(central_differences(log_post, w, 1e-5), 0, atol=1e-7)
    H = central_differences(lambda v: central_differences(log_post, v, 1e-4), w, 1e-4)
    np.testing.assert_allclose(m.posterior_precision_, -H, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(
        m.posterior_cov_ @ m.posterior_precision_, np.eye(len(w)), atol=1e-12
    )


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_log_evidence_by_numerical_integration(fit_intercept):
    """ln ∫ p(t|w) p(w) dw by 2-D quadrature on a grid around the mode (flat, unit-density prior
    on the intercept), against the Laplace value: close for N = 200 points (within 0.02), and
    exactly the Laplace formula ln f(w_MAP) + ln 2π − ½ ln|S_N⁻¹| written out with scipy."""
    X, y = small_problem(3, n=200)
    alpha = 0.5
    m = BayesianLogisticRegression(prior_precision=alpha, fit_intercept=fit_intercept)
    Xf = (
        X if fit_intercept else design_matrix(X)
    )  # without intercept: w = (w₀, w₁), both
    m.fit(Xf, y)  # under the prior
    Phi = design_matrix(X)

    def log_joint(W):
        act = W @ Phi.T
        ll = special.log_expit(np.where(y == 1, act, -act)).sum(-1)
        pen = W[..., 1:] if fit_intercept else W
        return ll + stats.norm.logpdf(pen, scale=alpha**-0.5).sum(-1)

    sd = np.sqrt(np.diag(m.posterior_cov_))
    axes = [
        np.linspace(c - 10 * s, c + 10 * s, 201) for c, s in zip(m.posterior_mean_, sd)
    ]
    W = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1)
    L = log_joint(W)
    Z = integrate.simpson(integrate.simpson(np.exp(L - L.max()), x=axes[1]), x=axes[0])
    exact = np.log(Z) + L.max()
    assert m.log_evidence_ == pytest.approx(exact, abs=0.02)
    assert m.log_evidence_ != pytest.approx(exact, abs=1e-4)  # it is an approximation
    formula = (
        log_joint(m.posterior_mean_)
        + np.log(2 * np.pi)
        - 0.5 * np.linalg.slogdet(m.posterior_precision_)[1]
    )
    assert m.log_evidence_ == pytest.approx(formula, rel=1e-12)


def test_log_evidence_by_importance_sampling():
    """A 4-weight problem: importance sampling from q(w) itself (an unbiased estimate of p(t)),
    10⁵ seeded draws. The Laplace value agrees within 0.05: its own error here is about 0.04,
    the IS standard error about 0.001."""
    rng = np.random.default_rng(4)
    X, y = gaussian_classes(
        60, [[-0.5, 0, 0.3], [0.5, 0.4, 0]], np.eye(3), random_state=rng
    )
    m = BayesianLogisticRegression(prior_precision=1.0).fit(X, y)
    q = stats.multivariate_normal(m.posterior_mean_, m.posterior_cov_)
    W = q.rvs(100_000, random_state=rng)
    act = W @ design_matrix(X).T
    log_w = (
        special.log_expit(np.where(y == 1, act, -act)).sum(1)
        + stats.norm.logpdf(W[:, 1:]).sum(1)
        - q.logpdf(W)
    )
    is_estimate = special.logsumexp(log_w) - np.log(len(W))
    assert m.log_evidence_ == pytest.approx(is_estimate, abs=0.05)


def _logistic_gaussian_gh(mu, var, n=300):
    """∫σ(a)N(a | mu, var)da by Gauss–Hermite, elementwise over broadcast mu, var."""
    x, w = np.polynomial.hermite.hermgauss(n)
    a = np.asarray(mu)[..., None] + np.sqrt(2 * np.asarray(var))[..., None] * x
    return special.expit(a) @ w / np.sqrt(np.pi)


def test_probit_approximation_error_over_a_grid():
    """The worst error is δ = max|σ(a) − Φ(λa)| = 0.0177 (approached as σ² → ∞), below 0.018."""
    mu, var = np.meshgrid(
        np.linspace(-25, 25, 201), np.r_[0.0, np.geomspace(1e-3, 60, 80)]
    )
    exact = _logistic_gaussian_gh(mu, var)
    for i in np.random.default_rng(0).choice(
        mu.size, 12, replace=False
    ):  # GH vs adaptive quad
        ref = (
            logistic_gaussian(mu.flat[i], var.flat[i])
            if var.flat[i] > 0
            else special.expit(mu.flat[i])
        )
        assert abs(exact.flat[i] - ref) < 1e-7
    err = np.abs(probit_approximation(mu, var) - exact)
    assert 0.016 < err.max() < 0.018  # 0.0168 at σ² = 60, μ = ±14 ≈ ±1.8σ
    # far out (σ² = 10⁴, μ/σ ∈ (0, 4]): the integral is Φ(μ/σ) plus a correction near a = 0
    s = 100.0
    for r in np.linspace(0.1, 4, 14):
        rest = integrate.quad(
            lambda a, r=r: (special.expit(a) - (a > 0)) * stats.norm.pdf(a, r * s, s),
            -40,
            40,
            points=[0.0],
            epsabs=1e-13,
        )[0]
        assert abs(probit_approximation(r * s, s**2) - special.ndtr(r) - rest) < 0.018


def test_probit_approximation_exact_cases_and_symmetry():
    rng = np.random.default_rng(1)
    mu, var = rng.normal(scale=5, size=50), rng.exponential(10, size=50)
    assert np.all(probit_approximation(0.0, var) == 0.5)  # exact at μ = 0
    # κ(0) = 1: mlcourse's sigmoid and SciPy's expit, two implementations, agree to an ulp or two
    np.testing.assert_allclose(
        probit_approximation(mu, 0.0), special.expit(mu), rtol=8 * EPS
    )
    np.testing.assert_allclose(
        probit_approximation(-mu, var),
        1 - probit_approximation(mu, var),
        rtol=0,
        atol=1e-15,
    )  # p(−μ) = 1 − p(μ)
    np.testing.assert_allclose(
        probit_approximation(mu, var),
        special.expit(mu / np.sqrt(1 + np.pi * var / 8)),
        rtol=1e-13,
    )


@pytest.mark.parametrize(
    "mean, var, match",
    [
        (0.0, np.nan, "var contains NaN"),
        (0.0, np.inf, "var contains (NaN or infinite|infinity)"),
        ("abc", 1.0, "mean must be numeric"),
        (0.0, [1.0, "x"], "var must be numeric"),
    ],
)
def test_probit_approximation_bad_input(mean, var, match):
    with pytest.raises(ValueError, match=match):
        probit_approximation(mean, var)


def test_predictive_against_quadrature_and_monte_carlo():
    X, y = small_problem(5)
    m = BayesianLogisticRegression(prior_precision=0.3).fit(X, y)
    X_new = np.array([[-5.0], [-1.0], [0.3], [2.0], [7.0]])
    mean, var = m.predict_activation(X_new)
    Phi = design_matrix(X_new)
    np.testing.assert_allclose(mean, Phi @ m.posterior_mean_, rtol=1e-12)
    np.testing.assert_allclose(
        var, np.einsum("ni,ij,nj->n", Phi, m.posterior_cov_, Phi), rtol=1e-10
    )
    exact = np.array([logistic_gaussian(mu, v) for mu, v in zip(mean, var)])
    probit = m.predict_proba(X_new)
    # wiring only (the default method is probit_approximation of predict_activation); the
    # independent checks are the quadrature and Monte Carlo comparisons that follow
    np.testing.assert_allclose(
        probit[:, 1], probit_approximation(mean, var), rtol=1e-14
    )
    # the probit approximation's error is below δ = max|σ(a) − Φ(λa)| = 0.0177 for every mean
    # and variance (test_probit_approximation_error_over_a_grid)
    np.testing.assert_allclose(probit[:, 1], exact, atol=0.02)
    # σ(−a) + σ(a): two roundings of numbers ≤ 1 and one of their sum, a few ε
    np.testing.assert_allclose(probit.sum(1), 1, rtol=1e-14)
    mc = m.predict_proba(X_new, method="monte_carlo", n_samples=200_000, random_state=0)
    np.testing.assert_allclose(mc[:, 1], exact, atol=5 * 0.5 / np.sqrt(200_000))
    again = m.predict_proba(
        X_new, method="monte_carlo", n_samples=200_000, random_state=0
    )
    np.testing.assert_array_equal(mc, again)
    np.testing.assert_allclose(
        m.predict_proba(X_new, method="plugin")[:, 1], special.expit(mean), rtol=1e-14
    )


def test_monte_carlo_draws_have_the_posterior_mean():
    """The draws behind method="monte_carlo" are centred on m_N: at φ = ε e_i,
    σ(εw_i) = ½ + εw_i/4 + O(ε³), so 4(p − ½)/ε estimates E_q[w_i] = m_i."""
    X, y = small_problem(6)
    m = BayesianLogisticRegression(prior_precision=1.0, fit_intercept=False).fit(
        design_matrix(X), y
    )
    eps = 1e-3
    phi = np.array([[eps, 0.0], [0.0, eps]])
    p = m.predict_proba(phi, method="monte_carlo", n_samples=100_000, random_state=1)[
        :, 1
    ]
    # E[σ(ε w_i)] = ½ + ε m_i/4 − ε³E[w_i³]/48 + …: recovers the posterior mean to within 5
    # standard errors plus the bias ε²|E w_i³|/12, E w³ = m³ + 3m·var for w ~ N(m, var)
    var = np.diag(m.posterior_cov_)
    se = np.sqrt(var / 100_000)
    mu = m.posterior_mean_
    bias = eps**2 / 12 * np.abs(mu**3 + 3 * mu * var)
    np.testing.assert_allclose(
        (p - 0.5) * 4 / eps, mu, rtol=0, atol=5 * se.max() + bias.max()
    )


def test_moderation_keeps_decisions_and_shrinks_confidence():
    X, y = gaussian_classes(20, [[-1, 0], [1, 0.5]], np.eye(2), random_state=7)
    m = BayesianLogisticRegression(prior_precision=0.1).fit(X, y)
    grid = np.random.default_rng(8).uniform(-10, 10, size=(500, 2))
    p_map = m.predict_proba(grid, method="plugin")[:, 1]
    p = m.predict_proba(grid)[:, 1]
    np.testing.assert_array_equal(np.sign(p - 0.5), np.sign(p_map - 0.5))
    assert np.all(np.abs(p - 0.5) <= np.abs(p_map - 0.5) + 1e-15)
    np.testing.assert_array_equal(
        m.predict(grid), (m.decision_function(grid) > 0).astype(int)
    )


def test_labels_refit_and_clone():
    X, y = small_problem(9)
    names = np.where(y == 1, "yes", "no")
    m = BayesianLogisticRegression(prior_precision=2.0).fit(X, names)
    assert m.classes_.tolist() == ["no", "yes"] and set(m.predict(X)) <= {"no", "yes"}
    ref = BayesianLogisticRegression(prior_precision=2.0).fit(X, y)
    np.testing.assert_allclose(m.predict_proba(X), ref.predict_proba(X), rtol=1e-12)
    m.set_params(prior_precision=20.0).fit(X, y)  # refit starts fresh
    assert np.linalg.norm(m.coef_) < np.linalg.norm(ref.coef_)
    c = clone(m)
    assert c.get_params() == m.get_params() and not hasattr(c, "posterior_mean_")
    assert repr(c) == "BayesianLogisticRegression(prior_precision=20.0)"


def test_learned_state_is_public_and_refit_starts_fresh():
    """Every learned attribute ends in "_" (so _reset() clears it), including the Cholesky
    factor used for σ_a² and the Monte Carlo draws: L Lᵀ = S_N⁻¹."""
    X, y = small_problem(10)
    m = BayesianLogisticRegression(prior_precision=1.0).fit(X, y)
    assert [k for k in vars(m) if k.startswith("_")] == []
    L = m.posterior_precision_cholesky_
    np.testing.assert_array_equal(L, np.tril(L))
    np.testing.assert_allclose(L @ L.T, m.posterior_precision_, rtol=1e-12)
    m.fit(np.c_[X, X**2], y)  # refit with another width
    assert m.posterior_precision_cholesky_.shape == (3, 3)
    m._reset()
    assert not hasattr(m, "posterior_precision_cholesky_")


def test_separable_data_still_have_a_posterior():
    """The prior keeps the mode finite on separable data (flat intercept included)."""
    X = np.r_[np.linspace(-3, -1, 10), np.linspace(1, 3, 10)][:, None]
    y = np.r_[np.zeros(10), np.ones(10)]
    m = BayesianLogisticRegression(prior_precision=1.0).fit(X, y)
    assert np.all(np.isfinite(m.posterior_cov_)) and np.isfinite(m.log_evidence_)
    assert m.score(X, y) == 1.0


@pytest.mark.parametrize(
    "params, match",
    [
        ({"prior_precision": 0.0}, "prior_precision must be .*> 0"),
        ({"prior_precision": -1.0}, "prior_precision must be .*> 0"),
        ({"prior_precision": np.nan}, "prior_precision must be .*finite"),
        ({"prior_precision": "1"}, "prior_precision must be .*real number"),
        ({"fit_intercept": "yes"}, "fit_intercept must be True or False"),
    ],
)
def test_bad_hyperparameters(params, match):
    X, y = small_problem()
    with pytest.raises(ValueError, match=match):
        BayesianLogisticRegression(**params).fit(X, y)


def test_bad_data_and_calls():
    X, y = small_problem()
    with pytest.raises(ValueError, match="exactly 2"):
        BayesianLogisticRegression().fit(X, np.arange(len(y)) % 3)
    with pytest.raises(ValueError, match="only one class"):
        BayesianLogisticRegression().fit(X, np.ones(len(y)))
    with pytest.raises(ValueError, match="X contains NaN"):
        BayesianLogisticRegression().fit(np.where(X > 2, np.nan, X), y)
    with pytest.raises(ValueError, match="y contains NaN"):
        BayesianLogisticRegression().fit(X, np.where(y == 1, np.nan, 0.0))
    with pytest.raises(ValueError, match="[Ii]nconsistent numbers of samples"):
        BayesianLogisticRegression().fit(X, y[:-1])
    with pytest.raises(NotFittedError):
        BayesianLogisticRegression().predict_proba(X)
    m = BayesianLogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features"):
        m.predict_proba(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="method must be one of"):
        m.predict_proba(X, method="laplace")
    with pytest.raises(ValueError, match="n_samples must be .*>= 1"):
        m.predict_proba(X, method="monte_carlo", n_samples=0)
    with pytest.raises(ValueError, match="n_samples must be an integer"):
        m.predict_proba(X, method="monte_carlo", n_samples=10.5)
    with pytest.raises(ValueError, match="random_state"):
        m.predict_proba(X, method="monte_carlo", random_state="seed")
    with pytest.raises(ValueError, match="X contains infinity"):
        m.predict_activation(np.full((2, 1), np.inf))
