"""mlcourse.rvm: the identities of lecture 001, the evidence and its derivatives, both algorithms,
Tipping's sinc results, agreement with scikit-learn's ARDRegression, and bad input."""

import warnings

import numpy as np
import pytest
from scipy import optimize, stats
from sklearn.linear_model import ARDRegression

from mlcourse import datasets, rvm
from mlcourse.exceptions import (
    ConvergenceWarning,
    InvalidParameterError,
    NotFittedError,
)
from mlcourse.kernels import linear_spline, rbf
from mlcourse.rvm import _evidence

# Both loops climb the same evidence, EM from every basis function and fast from none, and stop at
# local maxima. On the sinc problems below distinct maxima lie up to about 4 nats apart (the linear
# spline on [10, 30]: 302.2 against EM's 305.6; Tipping's noise-free Gaussian-kernel fit: 616.4
# against 621.1), and either loop can end higher. LOCAL_MAXIMA_NATS = 5 allows for that, and
# catches the failure it was set for: the alignment test stopped the spline fits 10⁴ nats low.
LOCAL_MAXIMA_NATS = 5.0
SIGMA_SPLINE = (
    0.01  # Tipping's noise-free sinc: the noise standard deviation is fixed at this
)


def random_problem(rng, n=30, m=8, n_out=2):
    """Random Φ (n, m), t, α (with `n_out` basis functions out of the model) and β."""
    Phi = rng.standard_normal((n, m))
    t = Phi[:, :3] @ rng.standard_normal(3) + 0.3 * rng.standard_normal(n)
    alpha = rng.uniform(0.2, 3.0, m)
    alpha[rng.choice(m, n_out, replace=False)] = np.inf
    return Phi, t, alpha, float(rng.uniform(2.0, 10.0))


def direct_posterior(Phi, t, alpha, beta):
    """Function-space route: condition the joint Gaussian of (w, t), C = β⁻¹I + ΦA⁻¹Φᵀ (N × N)."""
    act = np.isfinite(alpha)
    P, Ainv = Phi[:, act], np.diag(1 / alpha[act])
    C = np.eye(len(t)) / beta + P @ Ainv @ P.T
    K = Ainv @ P.T @ np.linalg.inv(C)
    return K @ t, Ainv - K @ P @ Ainv, C


# --- the identities of lecture 001 -------------------------------------------------------------


def test_matrix_identities(rng):
    N, M = 7, 4
    A = rng.standard_normal((N, N)) + N * np.eye(N)
    B, C = rng.standard_normal((N, M)), rng.standard_normal((M, N))
    D = rng.standard_normal((M, M)) + M * np.eye(M)
    Ai = np.linalg.inv(A)
    lhs = np.linalg.inv(A + B @ np.linalg.inv(D) @ C)  # (C.7)
    np.testing.assert_allclose(
        lhs, Ai - Ai @ B @ np.linalg.inv(D + C @ Ai @ B) @ C @ Ai, rtol=1e-10
    )
    A2, B2 = (
        rng.standard_normal((N, M)),
        rng.standard_normal((N, M)),
    )  # (C.14): I_N vs I_M
    assert np.linalg.det(np.eye(N) + A2 @ B2.T) == pytest.approx(
        np.linalg.det(np.eye(M) + A2.T @ B2)
    )
    a, b = rng.standard_normal(N), rng.standard_normal(N)  # (C.15)
    assert np.linalg.det(np.eye(N) + np.outer(a, b)) == pytest.approx(1 + a @ b)


def test_gaussian_identities_marginal_and_conditional(rng):
    """(2.115)-(2.116) against conditioning the joint Gaussian of (x, y) by its Schur complement."""
    dx, dy = 3, 4
    mu, b = rng.standard_normal(dx), rng.standard_normal(dy)
    R = rng.standard_normal((dx, dx))
    Lam = R @ R.T + np.eye(dx)
    R = rng.standard_normal((dy, dy))
    L = R @ R.T + np.eye(dy)
    A = rng.standard_normal((dy, dx))
    cov_x = np.linalg.inv(Lam)
    cov_y = np.linalg.inv(L) + A @ cov_x @ A.T  # (2.115)
    joint_xy = cov_x @ A.T
    y = rng.standard_normal(dy)
    Sigma = np.linalg.inv(Lam + A.T @ L @ A)  # (2.116)
    mean_116 = Sigma @ (A.T @ L @ (y - b) + Lam @ mu)
    gain = joint_xy @ np.linalg.inv(cov_y)
    np.testing.assert_allclose(mean_116, mu + gain @ (y - A @ mu - b), rtol=1e-10)
    np.testing.assert_allclose(Sigma, cov_x - gain @ joint_xy.T, rtol=1e-10, atol=1e-12)


# --- posterior and evidence ---------------------------------------------------------------------


def rounding_bound(Phi, t, alpha, beta, C):
    """δ = Nε·κ: the relative error of either route, backward stable (Cholesky of A + βΦᵀΦ,
    inverse of C) with κ the larger of the two condition numbers."""
    act = np.isfinite(alpha)
    H = np.diag(alpha[act]) + beta * Phi[:, act].T @ Phi[:, act]
    return len(t) * np.finfo(float).eps * max(np.linalg.cond(C), np.linalg.cond(H))


@pytest.mark.parametrize("seed", range(5))
def test_posterior_matches_function_space_route(seed):
    """Both routes agree to their rounding: m to δ‖m‖, and Σ = A⁻¹ − A⁻¹ΦᵀC⁻¹ΦA⁻¹, a difference
    of terms of size ‖A⁻¹‖, to δ‖A⁻¹‖ (δ from :func:`rounding_bound`, about 1e-12 here)."""
    rng = np.random.default_rng(seed)
    Phi, t, alpha, beta = random_problem(rng)
    post = rvm.posterior(Phi, t, alpha, beta)
    m, S, C = direct_posterior(Phi, t, alpha, beta)
    delta = rounding_bound(Phi, t, alpha, beta, C)
    a_inv = 1 / alpha[np.isfinite(alpha)].min()
    np.testing.assert_allclose(post.mean, m, rtol=0, atol=delta * np.linalg.norm(m))
    np.testing.assert_allclose(post.cov, S, rtol=0, atol=delta * a_inv)
    np.testing.assert_allclose(post.var, np.diag(S), rtol=0, atol=delta * a_inv)


@pytest.mark.parametrize("seed", range(5))
def test_log_evidence_decomposed_equals_direct_and_scipy(seed):
    rng = np.random.default_rng(seed)
    Phi, t, alpha, beta = random_problem(rng)
    _, _, C = direct_posterior(Phi, t, alpha, beta)
    ref = stats.multivariate_normal(np.zeros(len(t)), C).logpdf(t)
    assert rvm.log_evidence(Phi, t, alpha, beta) == pytest.approx(ref, rel=1e-10)
    assert rvm.log_evidence_direct(Phi, t, alpha, beta) == pytest.approx(ref, rel=1e-10)


def test_per_sample_precisions(rng):
    """β as a vector (the diagonal B the RVM classifier needs): same formulas with B for βI."""
    Phi, t, alpha, _ = random_problem(rng)
    B = rng.uniform(0.5, 5.0, len(t))
    act = np.isfinite(alpha)
    P = Phi[:, act]
    C = np.diag(1 / B) + P @ np.diag(1 / alpha[act]) @ P.T
    Sigma = np.linalg.inv(np.diag(alpha[act]) + P.T @ np.diag(B) @ P)
    post = rvm.posterior(Phi, t, alpha, B)
    np.testing.assert_allclose(post.cov, Sigma, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(post.mean, Sigma @ P.T @ (B * t), rtol=1e-9)
    ref = stats.multivariate_normal(np.zeros(len(t)), C).logpdf(t)
    assert rvm.log_evidence(Phi, t, alpha, B) == pytest.approx(ref, rel=1e-10)
    s, q, S, Q = rvm.sparsity_quality(Phi, t, alpha, B)
    Ci = np.linalg.inv(C)
    np.testing.assert_allclose(S, np.einsum("ni,nm,mi->i", Phi, Ci, Phi), rtol=1e-8)
    np.testing.assert_allclose(Q, Phi.T @ Ci @ t, rtol=1e-8)


@pytest.mark.parametrize("seed", range(4))
def test_evidence_gradient_matches_finite_differences(seed):
    rng = np.random.default_rng(seed)
    Phi, t, alpha, beta = random_problem(rng)
    d_alpha, d_beta = rvm.evidence_gradient(Phi, t, alpha, beta)
    for i in np.flatnonzero(np.isfinite(alpha)):
        h = 1e-5 * alpha[i]
        up, dn = alpha.copy(), alpha.copy()
        up[i] += h
        dn[i] -= h
        fd = (
            rvm.log_evidence(Phi, t, up, beta) - rvm.log_evidence(Phi, t, dn, beta)
        ) / (2 * h)
        assert d_alpha[i] == pytest.approx(fd, rel=1e-5, abs=1e-8)
    h = 1e-5 * beta
    fd = (
        rvm.log_evidence(Phi, t, alpha, beta + h)
        - rvm.log_evidence(Phi, t, alpha, beta - h)
    ) / (2 * h)
    assert d_beta == pytest.approx(fd, rel=1e-5, abs=1e-8)
    assert np.all(d_alpha[~np.isfinite(alpha)] == 0)


def test_reestimate_is_the_stationary_point_of_the_gradient(rng):
    """α ← γ/m², β⁻¹ ← ‖t − Φm‖²/(N − Σγ) leave α, β unchanged exactly where the gradient is 0."""
    Phi, t, _, _ = random_problem(rng, n=60, m=6, n_out=0)
    fit = rvm.fit_em(Phi, t, 1.0, tol=1e-10, max_iter=20000)
    assert fit.converged
    a_new, b_new, gamma = rvm.reestimate(Phi, t, fit.alpha, fit.beta)
    act = fit.active
    np.testing.assert_allclose(a_new[act], fit.alpha[act], rtol=1e-7)
    assert b_new == pytest.approx(fit.beta, rel=1e-7)
    _, S, _ = direct_posterior(
        Phi, t, fit.alpha, fit.beta
    )  # γ = 1 − αΣᵢᵢ, function space
    np.testing.assert_allclose(gamma[act], 1 - fit.alpha[act] * np.diag(S), rtol=1e-8)
    assert np.all((gamma[act] > 0) & (gamma[act] < 1))
    d_alpha, d_beta = rvm.evidence_gradient(Phi, t, fit.alpha, fit.beta)
    np.testing.assert_allclose(d_alpha[act] * fit.alpha[act], 0, atol=1e-6)
    assert d_beta * fit.beta == pytest.approx(0, abs=1e-6)


def test_reestimate_returns_gamma_unclipped():
    """γ = 1 − αΣᵢᵢ as computed: a huge α (a weight being pruned) gives γ ≈ 0, never clipped to
    exactly 0, and Σγ = tr(I − AΣ) holds without clipping."""
    rng = np.random.default_rng(5)
    Phi, t, alpha, beta = random_problem(rng, n_out=0)
    alpha[2] = 1e9
    _, _, gamma = rvm.reestimate(Phi, t, alpha, beta)
    _, S, _ = direct_posterior(Phi, t, alpha, beta)
    np.testing.assert_allclose(gamma, 1 - alpha * np.diag(S), rtol=1e-6, atol=1e-12)
    assert 0 < gamma[2] < 1e-6
    assert gamma.sum() == pytest.approx(
        np.trace(np.eye(len(alpha)) - np.diag(alpha) @ S), rel=1e-10
    )


@pytest.mark.parametrize("alpha", [1e-10, 1e-3])
def test_reestimate_caps_beta(alpha):
    """Φ = I and a weak prior: m = t/(1 + α/β), so the residual, and with it β⁻¹ = ‖r‖²/(N − Σγ)
    ≈ α²‖t‖²/(Nα), all but vanish; β is capped at 1/(NOISE_FLOOR·var t) exactly. With a
    stronger prior the update is the plain (7.88), below the cap."""
    t = np.array([1.0, 2.0, 1.5, 1.2, 0.8])
    _, beta, gamma = rvm.reestimate(np.eye(5), t, np.full(5, alpha), 1.0)
    r = t * alpha / (1 + alpha)
    plain = (5 - gamma.sum()) / (r @ r)
    cap = 1 / (rvm.NOISE_FLOOR * np.var(t))
    assert (plain > cap) == (alpha == 1e-10)
    assert beta == pytest.approx(min(plain, cap), rel=1e-8)


def test_reestimate_and_fit_em_cap_beta_alike_for_zero_targets():
    """t = 0 has no scale: both apply β ≤ 1/NOISE_FLOOR (one β update), finite and warning-free."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, beta, _ = rvm.reestimate(np.eye(3), np.zeros(3), np.ones(3), 1.0)
        fit = rvm.fit_em(np.eye(3), np.zeros(3), 1.0, max_iter=1)
    assert beta == fit.beta == 1 / rvm.NOISE_FLOOR


def test_reestimate_prunes_without_dividing_by_zero():
    Phi = np.c_[np.ones(5), np.zeros(5)]  # the second weight has m = 0 exactly
    t = np.array([1.0, 2.0, 1.5, 1.2, 0.8])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, b, g = rvm.reestimate(Phi, t, np.array([1.0, 1.0]), 2.0)
    assert np.isfinite(a[0]) and a[1] == np.inf and g[1] == 0 and np.isfinite(b)


# --- the fast algorithm's building blocks ------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_sparsity_quality_against_covariance_without_i(seed):
    rng = np.random.default_rng(seed)
    Phi, t, alpha, beta = random_problem(rng)
    s, q, S, Q = rvm.sparsity_quality(Phi, t, alpha, beta)
    _, _, C = direct_posterior(Phi, t, alpha, beta)
    Ci = np.linalg.inv(C)
    np.testing.assert_allclose(S, np.einsum("ni,nm,mi->i", Phi, Ci, Phi), rtol=1e-8)
    np.testing.assert_allclose(Q, Phi.T @ Ci @ t, rtol=1e-8)
    for i in range(Phi.shape[1]):
        a = alpha.copy()
        a[i] = np.inf
        _, _, C_i = direct_posterior(Phi, t, a, beta)
        Cii = np.linalg.inv(C_i)
        assert s[i] == pytest.approx(Phi[:, i] @ Cii @ Phi[:, i], rel=1e-8)
        assert q[i] == pytest.approx(Phi[:, i] @ Cii @ t, rel=1e-8)


@pytest.mark.parametrize("seed", range(3))
def test_evidence_splits_into_alpha_marginal(seed):
    """ln p(t | α) − ln p(t | α with αᵢ = ∞) = ℓ(αᵢ) for every αᵢ (Bishop 7.94-7.97)."""
    rng = np.random.default_rng(seed)
    Phi, t, alpha, beta = random_problem(rng)
    s, q, _, _ = rvm.sparsity_quality(Phi, t, alpha, beta)
    for i in range(Phi.shape[1]):
        without = alpha.copy()
        without[i] = np.inf
        base = rvm.log_evidence(Phi, t, without, beta)
        for ai in (0.05, 1.0, 30.0):
            a = alpha.copy()
            a[i] = ai
            assert rvm.log_evidence(Phi, t, a, beta) - base == pytest.approx(
                rvm.alpha_marginal(ai, s[i], q[i]), rel=1e-7, abs=1e-9
            )


@pytest.mark.parametrize("s, q", [(1.0, 2.0), (0.3, 1.1), (2.0, 5.0)])
def test_optimal_alpha_maximises_alpha_marginal(s, q):
    res = optimize.minimize_scalar(
        lambda la: -rvm.alpha_marginal(np.exp(la), s, q),
        bounds=(-20, 20),
        method="bounded",
        options={"xatol": 1e-10},
    )
    assert rvm.optimal_alpha(s, q) == pytest.approx(np.exp(res.x), rel=1e-5)


def test_optimal_alpha_is_infinite_without_relevance():
    assert rvm.optimal_alpha(2.0, 1.0) == np.inf  # q² < s
    grid = np.logspace(-6, 8, 50)
    assert np.all(
        np.diff(rvm.alpha_marginal(grid, 2.0, 1.0)) > 0
    )  # increases towards α = ∞
    assert rvm.alpha_marginal(np.inf, 2.0, 1.0) == 0.0


# --- the two loops ------------------------------------------------------------------------------


def sinc_problem(n=100, noise=0.1, seed=0, gamma=1 / 9):
    X, t = datasets.sinc_data(n, noise, random_state=seed)
    return X, t, np.c_[rbf(X, gamma=gamma), np.ones(n)]


def test_em_and_fast_find_the_same_optimum_on_a_linear_problem():
    """A sparse linear model: both loops reach the same evidence maximum, and it is at least as
    high as the one scikit-learn's ARDRegression (the same model and updates) stops at."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((100, 20))
    w = np.zeros(20)
    w[[1, 5, 12]] = [2.0, -3.0, 1.5]
    t = X @ w + 0.5 * rng.standard_normal(100)
    em = rvm.fit_em(X, t, 1.0, tol=1e-10, max_iter=20000)
    fast = rvm.fit_sequential(X, t, 1.0, tol=1e-10)
    assert em.converged and fast.converged
    np.testing.assert_array_equal(em.active, fast.active)
    # Set by the loops' stopping rules: EM stops when its step moves every ln αᵢ by less than tol,
    # fast when its best change does, and along this problem's flattest ridge the distance left
    # is up to about 1e4 such steps, 1e-6 in ln αᵢ. A weight moves by at most |mᵢ| (≤ 3 here)
    # times that: atol 3e-6 allows for it (seen: 2.5e-8 to 2e-7 depending on where rounding
    # lets each loop stop, under the BLAS kernels of tools/tolerance_margins.py). ln p differs by
    # 1e-13 (quadratic in that distance).
    np.testing.assert_allclose(em.mean, fast.mean, rtol=0, atol=3e-6)
    assert em.log_evidence == pytest.approx(fast.log_evidence, abs=1e-9)
    ard = ARDRegression(
        fit_intercept=False, tol=1e-10, max_iter=10000, threshold_lambda=1e10
    ).fit(X, t)
    at_ard = rvm.log_evidence(X, t, ard.lambda_, ard.alpha_)
    assert fast.log_evidence >= at_ard - 1e-6
    big = np.isin(np.arange(20), [1, 5, 12])
    # ARDRegression keeps every weight (λ never reaches threshold_lambda = 1e10 here) and stops on
    # its own coefficient tolerance; its three large weights agree with ours to about 2e-4.
    np.testing.assert_allclose(
        fast.mean[np.isin(fast.active, [1, 5, 12])], ard.coef_[big], rtol=2e-3
    )


@pytest.mark.parametrize("loop", [rvm.fit_em, rvm.fit_sequential])
def test_loops_raise_the_evidence_and_end_stationary(loop):
    X, t, Phi = sinc_problem()
    fit = loop(Phi, t, 100 / np.var(t))
    assert fit.converged
    h = np.array(fit.history)
    assert np.all(np.diff(h) > -1e-8 * np.abs(h[:-1]).max())
    assert fit.log_evidence == pytest.approx(
        rvm.log_evidence_direct(Phi, t, fit.alpha, fit.beta), rel=1e-9
    )
    d_alpha, d_beta = rvm.evidence_gradient(Phi, t, fit.alpha, fit.beta)
    assert np.abs(d_alpha * np.where(np.isfinite(fit.alpha), fit.alpha, 0)).max() < 1e-2
    assert abs(d_beta * fit.beta) < 1e-2


def test_fast_and_em_reach_evidence_maxima_of_the_same_height():
    for seed in range(3):
        _, t, Phi = sinc_problem(seed=seed)
        em = rvm.fit_em(Phi, t, 100 / np.var(t))
        fast = rvm.fit_sequential(Phi, t, 100 / np.var(t))
        assert abs(em.log_evidence - fast.log_evidence) < 2.0  # nats, of ~80
        assert abs(len(em.active) - len(fast.active)) <= 2


@pytest.mark.parametrize("seed", range(4))
def test_each_optimum_is_a_fixed_point_of_the_other_loop(seed):
    """From their own starts the loops may stop at different local maxima (seed 0: ~1 nat apart),
    but EM started at fast's optimum, and fast started at EM's, stay there.

    Where two neighbouring kernels share a weight (seed 2: x = 3.74 and 3.94) the evidence has a
    ridge along which their αᵢ trade off: fast at its default tol = 1e-3 stops on it when its
    best change moves an ln αᵢ by less than that, 1e-4 nats short, so it runs to tol = 1e-4
    here; EM crawls along the ridge without converging. What the data determine does not move:
    the basis functions, ln p (EM gains less than 1e-5 nats in 2,000 iterations) and the
    fitted curve (it moves by less than 1% of the noise σ; 0.4% on seed 2)."""
    _, t, Phi = sinc_problem(seed=seed)
    b0 = 100 / np.var(t)
    em, fast = rvm.fit_em(Phi, t, b0), rvm.fit_sequential(Phi, t, b0, tol=1e-4)
    em2 = rvm.fit_em(Phi, t, fast.beta, alpha0=fast.alpha, tol=1e-8, max_iter=2000)
    np.testing.assert_array_equal(em2.active, fast.active)
    assert -1e-9 < em2.log_evidence - fast.log_evidence < 1e-5  # 1e-9: ln p's rounding
    moved = Phi[:, em2.active] @ em2.mean - Phi[:, fast.active] @ fast.mean
    assert np.abs(moved).max() < 0.01 / np.sqrt(fast.beta)
    fast2 = rvm.fit_sequential(Phi, t, em.beta, alpha0=em.alpha, alignment_max=1.0)
    assert fast2.converged
    np.testing.assert_array_equal(fast2.active, em.active)
    assert fast2.log_evidence == pytest.approx(em.log_evidence, abs=1e-5)


def test_a_non_stationary_start_moves():
    """The fixed-point test above can fail: from fast's optimum with one α off by a factor 10,
    EM moves it back and raises the evidence by far more than its 1e-5 tolerance."""
    _, t, Phi = sinc_problem()
    fast = rvm.fit_sequential(Phi, t, 100 / np.var(t))
    alpha = fast.alpha.copy()
    alpha[fast.active[0]] *= 10
    start = rvm.log_evidence(Phi, t, alpha, fast.beta)
    em2 = rvm.fit_em(Phi, t, fast.beta, alpha0=alpha, tol=1e-8, max_iter=20000)
    assert em2.log_evidence - start > 1e-2


def test_alpha0_is_in_the_units_of_phi():
    """Scaling column j of Φ by c_j and its α by c_j² leaves C = β⁻¹I + Σ φⱼφⱼᵀ/αⱼ unchanged:
    one iteration from the scaled start gives the same evidence and the scaled α."""
    _, t, Phi = sinc_problem()
    fast = rvm.fit_sequential(Phi, t, 100 / np.var(t))
    alpha = fast.alpha.copy()
    alpha[fast.active] *= np.random.default_rng(2).uniform(
        0.3, 3, len(fast.active)
    )  # off the optimum
    c = np.random.default_rng(1).uniform(0.1, 10, Phi.shape[1])
    assert rvm.log_evidence(Phi * c, t, alpha * c**2, fast.beta) == pytest.approx(
        rvm.log_evidence(Phi, t, alpha, fast.beta), rel=1e-10
    )
    em1 = rvm.fit_em(Phi, t, fast.beta, alpha0=alpha, max_iter=1)
    em2 = rvm.fit_em(Phi * c, t, fast.beta, alpha0=alpha * c**2, max_iter=1)
    assert em2.history[0] == pytest.approx(
        rvm.log_evidence(Phi, t, alpha, fast.beta), rel=1e-10
    )
    assert em2.log_evidence == pytest.approx(em1.log_evidence, rel=1e-10)
    np.testing.assert_allclose(em2.alpha / c**2, em1.alpha, rtol=1e-8)


def test_fast_records_add_reestimate_and_delete():
    _, t, Phi = sinc_problem()
    fast = rvm.fit_sequential(Phi, t, 100 / np.var(t))
    counts = {
        k: fast.actions.count(k) for k in ("add", "re-estimate", "delete", "none")
    }
    assert fast.converged and len(fast.actions) == fast.n_iter - 1  # the last one stops
    assert counts["add"] > 0 and counts["re-estimate"] > 0 and counts["delete"] > 0
    assert counts["add"] - counts["delete"] == len(fast.active)
    assert set(fast.actions) <= {"add", "re-estimate", "delete"}
    assert rvm.fit_em(Phi, t, 1.0, max_iter=3).actions == []


def test_fast_uses_far_fewer_basis_function_updates():
    _, t, Phi = sinc_problem(n=150)
    em = rvm.fit_em(Phi, t, 100 / np.var(t))
    fast = rvm.fit_sequential(Phi, t, 100 / np.var(t))
    # EM updates every surviving α each iteration; fast changes one
    assert fast.n_iter < em.n_iter
    assert len(fast.active) < 15


# --- the estimator and Tipping's (2001) sinc results ---------------------------------------------


def test_sinc_noise_free_linear_spline():
    """Tipping (2001) §4.1: 100 noise-free points, noise fixed at σ = 0.01 -> 9 RVs, largest error
    0.0070. Both loops keep 9 ± 1 relevance vectors, and their error stays within four posterior
    standard deviations of the mean (φᵀΣφ, the weights' uncertainty, noise left out) on 1000
    points: the model's own account of how far off it may be. Ours reach 2.4 of them (largest
    errors 0.0086 and 0.0071); the alignment test's failure on [0, 20] was about 100 off."""
    X, t = datasets.sinc_data(100)
    Xt = np.linspace(-10, 10, 1000)[:, None]
    for method in ("em", "fast"):
        m = rvm.RVMRegressor(
            kernel="linear_spline", noise_variance=SIGMA_SPLINE**2, method=method
        ).fit(X, t)
        mean, sd = m.predict(Xt, return_std=True)
        sd_mean = np.sqrt(sd**2 - m.noise_variance_)
        assert abs(len(m.coef_) - 9) <= 1
        assert np.all(np.abs(mean - datasets.sinc(Xt[:, 0])) < 4 * sd_mean)
        assert m.noise_variance_ == SIGMA_SPLINE**2


def sinc_table_1(gamma, n_sets=20):
    """Tipping's Table 1 setting, averaged over `n_sets` seeded data sets (the book's): mean and
    standard error of the relevance-vector count (bias not counted) and of the RMS error."""
    X = datasets.sinc_data(100)[0]
    Xt = np.linspace(-10, 10, 1000)[:, None]
    rows = []
    for seed in range(n_sets):
        t = datasets.sinc_data(100, 0.1, random_state=100 + seed)[1]
        m = rvm.RVMRegressor(gamma=gamma).fit(X, t)
        rows.append(
            (
                len(m.coef_),
                np.sqrt(np.mean((m.predict(Xt) - datasets.sinc(Xt[:, 0])) ** 2)),
                np.sqrt(m.noise_variance_),
            )
        )
    rows = np.array(rows)
    return rows.mean(0), rows.std(0, ddof=1) / np.sqrt(n_sets)


def test_sinc_gaussian_noise():
    """Tipping (2001) Table 1: σ = 0.1 -> 6.7 RVs and RMS error 0.0326 on average. With kernel
    width r = 2 both are reproduced within three standard errors over the 20 draws (0.17 and
    0.0016); with r = 3, the width of Tipping's software, the error is, but the count (4.9) is
    eleven standard errors lower. The noise std is estimated within 10 % on both."""
    (n2, err2, noise2), (se_n2, se_err2, _) = sinc_table_1(1 / 4)
    (_, err3, noise3), (_, se_err3, _) = sinc_table_1(1 / 9)
    assert abs(n2 - 6.7) <= 3 * se_n2 and abs(err2 - 0.0326) <= 3 * se_err2
    assert abs(err3 - 0.0326) <= 3 * se_err3
    assert abs(noise2 - 0.1) <= 0.01 and abs(noise3 - 0.1) <= 0.01


@pytest.mark.parametrize("gamma", [1 / 9, 1 / 4, 1.0])
def test_sinc_noise_free_with_estimated_noise(gamma):
    """Tipping's noise-free sinc with the noise estimated: β stops at the cap 1/(NOISE_FLOOR·var t)
    (the noise variance is exactly NOISE_FLOOR·var t) instead of running off to rounding level,
    and both loops converge cleanly (no warning, every α > 0, finite evidence). At Tipping's
    width they reach about the same evidence."""
    X, t = datasets.sinc_data(100)
    fits = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in ("fast", "em"):
            m = rvm.RVMRegressor(gamma=gamma, method=method).fit(X, t)
            assert m.converged_ and np.isfinite(m.log_evidence_)
            assert np.all(m.alpha_ > 0) and m.intercept_alpha_ > 0
            assert m.noise_variance_ == pytest.approx(
                rvm.NOISE_FLOOR * np.var(t), rel=1e-6
            )
            assert len(m.coef_) < 40
            assert np.abs(m.predict(X) - t).max() < 1e-3
            fits[method] = m
    if gamma == 1 / 9:  # distinct local maxima (EM's has adjacent pairs, fast's none)
        assert (
            abs(fits["fast"].log_evidence_ - fits["em"].log_evidence_)
            < LOCAL_MAXIMA_NATS
        )


def test_sparsity_factor_keeps_its_digits_near_the_span():
    """sᵢ = φᵢᵀC⁻¹φᵢ for φ₂ = (1, δ, 0, 0) next to φ₁ = (1, 0, 0, 0), which is in the model with a
    well-determined weight: s₂ = βδ² + 1/(β⁻¹ + 1/α₁), the parts outside and inside the span.
    At β = 1e14, δ = 1e-8, α₁ = 1e-6 that is 0.01 + 1e-6, which φᵀBφ − ‖WΦᵀBφ‖² gets by
    subtracting numbers of size β = 1e14 (their rounding alone is 0.01: no digit left). The
    square-root form adds the two parts, each computed to a few ε; 1e-12 relative is 1e4 ε."""
    beta, delta, a1 = 1e14, 1e-8, 1e-6
    Phi = np.zeros((4, 2))
    Phi[0] = 1.0
    Phi[1, 1] = delta
    t = np.array([1.0, 0.3, -0.2, 0.1])
    s, q, _, _ = rvm.sparsity_quality(Phi, t, np.array([a1, np.inf]), beta)
    inside = 1 / (1 / beta + 1 / a1)
    assert s[1] == pytest.approx(beta * delta**2 + inside, rel=1e-12)
    assert q[1] == pytest.approx(beta * delta * t[1] + inside * t[0], rel=1e-12)


@pytest.mark.parametrize("beta", [1e10, 1e14])
def test_fast_at_a_fixed_beta_far_beyond_the_cap(beta):
    """At a fixed β far beyond the cap (noise 1e-5 and 1e-7 of the targets' scale) sᵢ, qᵢ keep
    their digits, so the predicted gains hold: the loop converges and its history never falls by
    more than the rounding of ln p itself, MAX_DROP·(|ln p| + βN) on the loop's unit-RMS targets
    (ln p sums terms as large as βN). The estimator passes the fixed noise through unchanged."""
    X, t = datasets.sinc_data(100)
    Phi = np.c_[rbf(X, gamma=1 / 9), np.ones(100)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = rvm.fit_sequential(Phi, t, beta, fix_beta=True, max_iter=2000)
        m = rvm.RVMRegressor(gamma=1 / 9, noise_variance=1 / beta).fit(X, t)
    c2 = np.mean(t**2)  # the loop's target scale c²
    h = np.array(fit.history) + 50 * np.log(c2)  # ln p on unit-RMS targets (+ N ln c)
    assert fit.converged
    assert np.all(
        np.diff(h) >= -_evidence._MAX_DROP * (np.abs(h[:-1]) + beta * c2 * len(t))
    )
    assert fit.actions.count("add") - fit.actions.count("delete") == len(fit.active)
    assert m.converged_ and m.log_evidence_ == pytest.approx(
        fit.log_evidence, rel=1e-12
    )


def test_fast_undoes_changes_that_lower_the_evidence(monkeypatch):
    """The safeguard for gains that do not hold: with every sᵢ off by up to 25 % (as if digits had
    been lost) some predicted gains are wrong and their changes lower ln p. The loop undoes them,
    so its history never falls by more than rounding (MAX_DROP; unit-RMS targets as above), and
    the undone changes are not recorded."""
    X, t = datasets.sinc_data(100, 0.1, random_state=0)
    Phi = np.c_[rbf(X, gamma=1 / 9), np.ones(100)]
    inner, rng = _evidence._factors, np.random.default_rng(0)

    def off(*args):
        s, q, S, Q = inner(*args)
        return s * rng.uniform(0.8, 1.25, len(s)), q, S, Q

    monkeypatch.setattr(_evidence, "_factors", off)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = rvm.fit_sequential(Phi, t, 100 / np.var(t), max_iter=300)
    c2 = np.mean(t**2)
    h = np.array(fit.history) + 50 * np.log(c2)
    assert np.all(
        np.diff(h) >= -_evidence._MAX_DROP * (np.abs(h[:-1]) + fit.beta * c2 * len(t))
    )
    assert len(fit.actions) < fit.n_iter - 1  # some changes were undone
    assert fit.actions.count("add") - fit.actions.count("delete") == len(fit.active)


def test_predict_mean_and_std(rng):
    X, t, Phi = sinc_problem()
    m = rvm.RVMRegressor(gamma=1 / 9).fit(X, t)
    Xt = rng.uniform(-12, 12, (50, 1))
    mean, std = m.predict(Xt, return_std=True)
    np.testing.assert_allclose(mean, m.predict(Xt))
    has_b = np.isfinite(m.intercept_alpha_)  # the bias kept, or pruned
    phi = np.c_[rbf(Xt, m.relevance_vectors_, gamma=1 / 9), np.ones((50, int(has_b)))]
    np.testing.assert_allclose(
        mean, phi @ np.r_[m.coef_, [m.intercept_] * int(has_b)], rtol=1e-12
    )
    var = m.noise_variance_ + np.einsum("ij,jk,ik->i", phi, m.sigma_, phi)
    np.testing.assert_allclose(std**2, var, rtol=1e-10)
    # independently: the function-space posterior on the full design with the fitted α, β
    alpha = np.full(101, np.inf)
    alpha[m.relevance_indices_], alpha[100] = m.alpha_, m.intercept_alpha_
    m_dir, S_dir, _ = direct_posterior(Phi, t, alpha, 1 / m.noise_variance_)
    np.testing.assert_allclose(mean, phi @ m_dir, rtol=1e-8, atol=1e-10)
    var_dir = m.noise_variance_ + np.einsum("ij,jk,ik->i", phi, S_dir, phi)
    np.testing.assert_allclose(std**2, var_dir, rtol=1e-8)
    np.testing.assert_array_equal(m.relevance_vectors_, X[m.relevance_indices_])
    assert np.all(np.isfinite(m.alpha_)) and m.alpha_.shape == m.coef_.shape


@pytest.mark.parametrize("c", [1e3, 1e-150, 1e150])
def test_scale_invariance(c):
    """Scaling the targets by c scales the weights by c, the noise variance by c², shifts ln p by
    −N ln c, and keeps the relevance vectors (also near the ends of the floating-point range)."""
    X, t, _ = sinc_problem()
    a = rvm.RVMRegressor(gamma=1 / 9).fit(X, t)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b = rvm.RVMRegressor(gamma=1 / 9).fit(X, c * t)
    np.testing.assert_array_equal(a.relevance_indices_, b.relevance_indices_)
    np.testing.assert_allclose(b.coef_ / c, a.coef_, rtol=1e-6)
    assert b.noise_variance_ / c**2 == pytest.approx(a.noise_variance_, rel=1e-6)
    assert b.log_evidence_ == pytest.approx(a.log_evidence_ - 100 * np.log(c), rel=1e-8)


def test_alignment_max_is_passed_to_the_fast_loop():
    """On 400 noisy sinc points neighbours correlate above ALIGNMENT_MAX, and the test holds back
    pairs of them: with it off (alignment_max = 1) the loop takes several times as many
    iterations, re-estimating such pairs, for about the same evidence."""
    X, t = datasets.sinc_data(400, 0.1, random_state=0)
    Phi = np.c_[rbf(X, gamma=1 / 9), np.ones(400)]
    m = rvm.RVMRegressor(gamma=1 / 9, alignment_max=1.0).fit(X, t)
    ref = rvm.fit_sequential(Phi, t, 100 / np.var(t), alignment_max=1.0)
    assert (
        m.log_evidence_ == pytest.approx(ref.log_evidence, rel=1e-12)
        and m.n_iter_ == ref.n_iter
    )
    default = rvm.RVMRegressor(gamma=1 / 9).fit(X, t)
    assert m.n_iter_ > 3 * default.n_iter_
    assert abs(m.log_evidence_ - default.log_evidence_) < LOCAL_MAXIMA_NATS


SPLINE_RANGES = {
    "[-10, 10]": (1.0, 0.0),
    "[0, 20]": (1.0, 10.0),
    "[10, 30]": (1.0, 20.0),
    "[0, 10]": (0.5, 5.0),
    "[30, 50]": (1.0, 40.0),
    "[100, 120]": (1.0, 110.0),
}


@pytest.mark.parametrize("a, b", SPLINE_RANGES.values(), ids=SPLINE_RANGES.keys())
def test_linear_spline_sinc_wherever_the_inputs_sit(a, b):
    """Tipping's noise-free sinc (100 points, no bias, noise fixed at σ = 0.01) with the inputs
    moved to a·x + b. For x ≥ 0 the kernel is a covariance, and its columns nearly collinear
    (on [10, 30] two pairs in three correlate above 0.999, on [100, 120] all, and neighbours
    there to 1 − 1e-9).
    Both loops reach evidence maxima within LOCAL_MAXIMA_NATS of each other, and fits within the
    noise they were given: EM's largest error on 1001 points below 2σ, fast's at most σ above
    EM's. (Before, fast stopped 1.2e4 nats low on [0, 20] with a largest error of 0.26, and
    EM did not converge on [100, 120], where ΦᵀΦ has no digits left.)"""
    X, t = datasets.sinc_data(100)
    Xt = np.linspace(-10, 10, 1001)[:, None]
    fits = {}
    for method in ("fast", "em"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            m = rvm.RVMRegressor(
                kernel="linear_spline",
                bias=False,
                noise_variance=SIGMA_SPLINE**2,
                method=method,
                max_iter=20000,
            ).fit(a * X + b, t)
        fits[method] = (
            m.log_evidence_,
            np.abs(m.predict(a * Xt + b) - datasets.sinc(Xt[:, 0])).max(),
        )
    (ev_fast, err_fast), (ev_em, err_em) = fits["fast"], fits["em"]
    assert abs(ev_fast - ev_em) < LOCAL_MAXIMA_NATS
    assert err_em < 2 * SIGMA_SPLINE and err_fast < err_em + SIGMA_SPLINE


@pytest.mark.parametrize(
    "a, b", [(1.0, 10.0), (1.0, 1000.0), (0.01, 0.0), (100.0, -5.0)]
)
def test_rbf_sinc_under_shifts_and_scalings(a, b):
    """x ↦ ax + b with γ ↦ γ/a² leaves every kernel value, so Φ, the same up to rounding (the
    shifted differences keep all but log10(|b|/spacing) ≈ 4 of their digits): both loops reach
    the evidence they reach on the original inputs to 1e-8 relative (1e-12 in Φ, times the
    conditioning of the posterior, below 1e4 here), fast within LOCAL_MAXIMA_NATS of EM."""
    X, t = datasets.sinc_data(100, 0.1, random_state=0)
    ev = {}
    for method in ("fast", "em"):
        ref = rvm.RVMRegressor(gamma=1 / 9, method=method).fit(X, t)
        m = rvm.RVMRegressor(gamma=1 / 9 / a**2, method=method).fit(a * X + b, t)
        assert m.log_evidence_ == pytest.approx(ref.log_evidence_, rel=1e-8)
        np.testing.assert_array_equal(m.relevance_indices_, ref.relevance_indices_)
        ev[method] = m.log_evidence_
    assert abs(ev["fast"] - ev["em"]) < LOCAL_MAXIMA_NATS


@pytest.mark.parametrize("gamma", [1 / 4, 1 / 25, 1 / 100])
@pytest.mark.parametrize("noise_variance", [None, 0.01])
def test_fast_reaches_em_on_wide_and_narrow_rbf_kernels(gamma, noise_variance):
    """The RBF width r = γ^-½ from 2 to 10 on the noisy sinc over [-10, 10], the noise estimated
    or fixed at its true 0.1²: fast's evidence is no more than LOCAL_MAXIMA_NATS below EM's.
    (On the widest, with the noise fixed, fast stopped 171 nats below EM while it made the change
    of largest gain; with additions first it ends about 230 nats above EM.) Not tested: a kernel as
    wide as the data (r = 20), where both loops stop at poor maxima far apart (noise fixed: fast
    −753, EM −455; the noise estimated, both read the signal as noise)."""
    X, t = datasets.sinc_data(100, 0.1, random_state=0)
    ev = {}
    for method in ("fast", "em"):
        with warnings.catch_warnings():
            warnings.simplefilter(
                "ignore", ConvergenceWarning
            )  # EM crawls on the widest
            ev[method] = (
                rvm.RVMRegressor(
                    gamma=gamma, noise_variance=noise_variance, method=method
                )
                .fit(X, t)
                .log_evidence_
            )
    assert ev["fast"] > ev["em"] - LOCAL_MAXIMA_NATS


@pytest.mark.parametrize("method", ["fast", "em"])
def test_no_signal_predicts_the_mean(method):
    rng = np.random.default_rng(3)
    X = rng.uniform(-5, 5, (80, 1))
    t = 2.0 + rng.standard_normal(80)
    m = rvm.RVMRegressor(gamma=1.0, method=method).fit(X, t)
    pred = m.predict(np.linspace(-5, 5, 7)[:, None])
    assert np.all(np.abs(pred - t.mean()) < 3 / np.sqrt(80))
    assert len(m.coef_) <= 2


@pytest.mark.parametrize("method", ["fast", "em"])
def test_everything_pruned_still_predicts(method):
    X = np.linspace(0, 1, 20)[:, None]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = rvm.RVMRegressor(method=method).fit(X, np.zeros(20))
        mean, std = m.predict(X, return_std=True)
    assert len(m.coef_) == 0 and m.intercept_ == 0.0 and m.intercept_alpha_ == np.inf
    np.testing.assert_array_equal(mean, 0.0)
    assert np.all(np.isfinite(std))


@pytest.mark.parametrize("method", ["fast", "em"])
def test_duplicated_inputs(method):
    X, t = datasets.sinc_data(60, 0.05, random_state=1)
    X2, t2 = (
        np.r_[X, X],
        np.r_[t, t + 0.05 * np.random.default_rng(2).standard_normal(60)],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = rvm.RVMRegressor(gamma=1 / 9, method=method).fit(X2, t2)
    assert m.converged_ and len(m.coef_) < 20
    assert np.all(np.isfinite(m.predict(X)))


def test_gamma_is_ignored_by_kernels_that_do_not_use_it():
    """gamma is validated whatever the kernel (as every hyperparameter), but a kernel without
    it ignores its value."""
    X, t = datasets.sinc_data(100)
    with pytest.raises(InvalidParameterError, match="gamma must be .*> 0; got -1.0"):
        rvm.RVMRegressor(kernel="linear_spline", gamma=-1.0).fit(X, t)
    m = rvm.RVMRegressor(kernel="linear_spline", gamma=7.0, noise_variance=1e-4).fit(
        X, t
    )
    ref = rvm.RVMRegressor(kernel="linear_spline", noise_variance=1e-4).fit(X, t)
    np.testing.assert_array_equal(m.predict(X), ref.predict(X))


def test_bias_false_callable_and_non_positive_definite_kernel():
    X, t = datasets.sinc_data(100)
    assert np.linalg.eigvalsh(linear_spline(X)).min() < 0  # not a Mercer kernel
    m = rvm.RVMRegressor(
        kernel=lambda A, B: linear_spline(A, B), bias=False, noise_variance=1e-4
    ).fit(X, t)
    assert m.intercept_ == 0.0 and m.intercept_alpha_ == np.inf
    ref = rvm.RVMRegressor(kernel="linear_spline", bias=False, noise_variance=1e-4).fit(
        X, t
    )
    np.testing.assert_allclose(m.predict(X), ref.predict(X), rtol=1e-12)


def test_refit_starts_fresh_and_warns_when_not_converged():
    X, t, _ = sinc_problem()
    m = rvm.RVMRegressor(gamma=1 / 9, method="em", max_iter=3)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        m.fit(X, t)
    assert not m.converged_ and m.n_iter_ == 3
    m.set_params(max_iter=5000).fit(X[:50], t[:50])
    assert m.converged_ and np.all(m.relevance_indices_ < 50)


# --- bad input ----------------------------------------------------------------------------------


X_OK = np.linspace(-1, 1, 10)[:, None]
Y_OK = np.sin(3 * X_OK[:, 0])


@pytest.mark.parametrize(
    "params, X, y, match",
    [
        ({}, np.r_[X_OK[:-1], [[np.nan]]], Y_OK, "X contains NaN"),
        ({}, X_OK, np.r_[Y_OK[:-1], np.nan], "y contains NaN"),
        ({}, X_OK, Y_OK[:-1], "[Ii]nconsistent numbers of samples"),
        ({}, X_OK[:, 0], Y_OK, "X must be a 2-D array"),
        ({"gamma": -1.0}, X_OK, Y_OK, "gamma must be .*> 0"),
        ({"gamma": 0.0}, X_OK, Y_OK, "gamma must be .*> 0"),
        ({"kernel": "poly"}, X_OK, Y_OK, "kernel must be one of .*; got 'poly'"),
        ({"method": "newton"}, X_OK, Y_OK, "method must be one of .*; got 'newton'"),
        ({"noise_variance": -0.1}, X_OK, Y_OK, "noise_variance must be .*> 0"),
        ({"noise_variance": 0.0}, X_OK, Y_OK, "noise_variance must be .*> 0"),
        ({"max_iter": 0}, X_OK, Y_OK, "max_iter must be .*>= 1"),
        ({"max_iter": 2.5}, X_OK, Y_OK, "max_iter must be an integer"),
        ({"tol": -1e-3}, X_OK, Y_OK, "tol must be .*>= 0"),
        ({"bias": "yes"}, X_OK, Y_OK, "bias must be True or False"),
        ({"kernel": lambda A, B: np.ones((2, 2))}, X_OK, Y_OK, "kernel must return"),
        (
            {"kernel": lambda A, B: np.full((len(A), len(B)), np.nan)},
            X_OK,
            Y_OK,
            "kernel must return",
        ),
        ({"kernel": "linear_spline"}, np.c_[X_OK, X_OK], Y_OK, "1-D inputs"),
        ({"alignment_max": -0.5}, X_OK, Y_OK, "alignment_max must be .*>= 0"),
        ({}, X_OK, 1e160 * Y_OK, "y is too large or too small"),
        ({}, X_OK, 1e-200 * Y_OK, "y is too large or too small"),
        (
            {"noise_variance": 1e-300},
            X_OK,
            1e-200 * Y_OK,
            "y is too large or too small",
        ),
        (
            {"noise_variance": 1.0, "method": "em"},
            X_OK,
            1e160 * Y_OK,
            "y is too large or too small",
        ),
    ],
)
def test_bad_input(params, X, y, match):
    with pytest.raises(ValueError, match=match):
        rvm.RVMRegressor(**params).fit(X, y)


def test_predict_before_fit_and_wrong_width():
    with pytest.raises(NotFittedError, match="not fitted"):
        rvm.RVMRegressor().predict(X_OK)
    m = rvm.RVMRegressor().fit(X_OK, Y_OK)
    with pytest.raises(ValueError, match="X has 2 features"):
        m.predict(np.c_[X_OK, X_OK])
    with pytest.raises(ValueError, match="X contains infinity"):
        m.predict(np.r_[X_OK, [[np.inf]]])


PHI_OK, T_OK = np.c_[np.ones(5), np.arange(5.0)], np.array([1.0, 2.0, 1.5, 1.2, 0.8])


@pytest.mark.parametrize(
    "func",
    [
        rvm.posterior,
        rvm.log_evidence,
        rvm.log_evidence_direct,
        rvm.evidence_gradient,
        rvm.reestimate,
        rvm.sparsity_quality,
    ],
)
@pytest.mark.parametrize(
    "Phi, t, alpha, beta, match",
    [
        (np.r_[PHI_OK[:4], [[1.0, np.nan]]], T_OK, np.ones(2), 1.0, "Phi contains NaN"),
        (
            np.r_[PHI_OK[:4], [[1.0, np.inf]]],
            T_OK,
            np.ones(2),
            1.0,
            "Phi contains infinity",
        ),
        (PHI_OK, np.r_[T_OK[:4], np.nan], np.ones(2), 1.0, "t contains NaN"),
        (PHI_OK, T_OK, np.array([1.0, np.nan]), 1.0, "alpha must be positive"),
        (PHI_OK, T_OK, np.array([1.0, 0.0]), 1.0, "alpha must be positive"),
        (PHI_OK, T_OK, np.ones(2), np.nan, "beta must be positive and finite"),
        (PHI_OK, T_OK, np.ones(2), 0.0, "beta must be positive and finite"),
        (PHI_OK, T_OK, np.ones(2), -1.0, "beta must be positive and finite"),
        (PHI_OK, T_OK, np.ones(2), np.inf, "beta must be positive and finite"),
        (
            PHI_OK,
            T_OK,
            np.ones(2),
            np.r_[np.ones(4), np.nan],
            "beta must be positive and finite",
        ),
    ],
)
def test_functional_api_rejects_nan_and_non_positive(func, Phi, t, alpha, beta, match):
    with pytest.raises(ValueError, match=match):
        func(Phi, t, alpha, beta)


@pytest.mark.parametrize("loop", [rvm.fit_em, rvm.fit_sequential])
@pytest.mark.parametrize(
    "Phi, t, beta0, kwargs, match",
    [
        (PHI_OK, T_OK, 0.0, {}, "beta0 must be .*> 0"),
        (PHI_OK, T_OK, -1.0, {}, "beta0 must be .*> 0"),
        (PHI_OK, T_OK, np.nan, {}, "beta0 must be .*finite"),
        (PHI_OK, T_OK, np.inf, {}, "beta0 must be .*finite"),
        (PHI_OK, T_OK, "1", {}, "beta0 must be .*real number"),
        (np.r_[PHI_OK[:4], [[1.0, np.nan]]], T_OK, 1.0, {}, "Phi contains NaN"),
        (PHI_OK, np.r_[T_OK[:4], np.nan], 1.0, {}, "t contains NaN"),
        (PHI_OK, T_OK[:4], 1.0, {}, "[Ii]nconsistent numbers of samples"),
        (PHI_OK[:, 0], T_OK, 1.0, {}, "Phi must be a 2-D array"),
        (PHI_OK, T_OK, 1.0, {"max_iter": 0}, "max_iter must be .*>= 1"),
        (PHI_OK, T_OK, 1.0, {"tol": -1.0}, "tol must be .*>= 0"),
        (PHI_OK, T_OK, 1.0, {"fix_beta": "no"}, "fix_beta must be True or False"),
        (
            PHI_OK,
            T_OK,
            1.0,
            {"alpha0": np.ones(3)},
            r"alpha0 must be a scalar or have shape \(2,\)",
        ),
        (
            PHI_OK,
            T_OK,
            1.0,
            {"alpha0": np.array([1.0, np.nan])},
            "alpha0 must be positive",
        ),
        (
            PHI_OK,
            T_OK,
            1.0,
            {"alpha0": np.array([1.0, -1.0])},
            "alpha0 must be positive",
        ),
    ],
)
def test_loops_reject_bad_input(loop, Phi, t, beta0, kwargs, match):
    with pytest.raises(ValueError, match=match):
        loop(Phi, t, beta0, **kwargs)


@pytest.mark.parametrize("loop", [rvm.fit_em, rvm.fit_sequential])
@pytest.mark.parametrize("scale", [1e160, 1e-200])
def test_loops_reject_targets_whose_scale_floating_point_cannot_hold(loop, scale):
    """The loops rescale by the squared RMS of t: a ValueError, not an OverflowError or inf."""
    with pytest.raises(ValueError, match="t is too large or too small"):
        loop(PHI_OK, scale * T_OK, 1.0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"alpha0": 0.0}, "alpha0 must be .*> 0"),
        ({"alpha0": np.nan}, "alpha0 must be .*finite"),
    ],
)
def test_fit_em_rejects_bad_scalar_alpha0(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rvm.fit_em(PHI_OK, T_OK, 1.0, **kwargs)


def test_fit_sequential_rejects_bad_alignment_max():
    with pytest.raises(ValueError, match="alignment_max must be .*>= 0"):
        rvm.fit_sequential(PHI_OK, T_OK, 1.0, alignment_max=-0.5)
    with pytest.raises(
        ValueError, match=r"alignment_max must be .*>= 0 \(or inf\); got nan"
    ):
        rvm.fit_sequential(PHI_OK, T_OK, 1.0, alignment_max=np.nan)


@pytest.mark.parametrize(
    "args, match",
    [
        ((1.0, np.nan, 1.0), "s must be .*finite and >= 0"),
        ((1.0, -1.0, 1.0), "s must be .*finite and >= 0"),
        ((1.0, 1.0, np.nan), "q must be .*finite"),
        ((np.nan, 1.0, 1.0), "alpha must be positive"),
        ((0.0, 1.0, 1.0), "alpha must be positive"),
    ],
)
def test_alpha_marginal_and_optimal_alpha_reject_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        rvm.alpha_marginal(*args)
    if not match.startswith("alpha"):
        with pytest.raises(ValueError, match=match):
            rvm.optimal_alpha(*args[1:])


def test_functional_api_rejects_bad_shapes():
    Phi, t = np.ones((5, 2)), np.ones(5)
    with pytest.raises(ValueError, match="Phi must be"):
        rvm.posterior(Phi, t[:4], np.ones(2), 1.0)
    with pytest.raises(ValueError, match="beta must be a scalar"):
        rvm.posterior(Phi, t, np.ones(2), np.ones(4))
    with pytest.raises(ValueError, match="positive"):
        rvm.log_evidence(Phi, t, np.array([1.0, -1.0]), 1.0)


# --- the data generator -------------------------------------------------------------------------


def test_sinc_data():
    X, t = datasets.sinc_data(100)
    np.testing.assert_allclose(X[:, 0], np.linspace(-10, 10, 100))
    np.testing.assert_allclose(t, np.sin(X[:, 0]) / X[:, 0], rtol=1e-12, atol=1e-15)
    assert datasets.sinc(0.0) == 1.0
    X1, t1 = datasets.sinc_data(500, 0.1, random_state=0)
    X2, t2 = datasets.sinc_data(500, 0.1, random_state=0)
    np.testing.assert_array_equal(t1, t2)
    assert np.std(t1 - datasets.sinc(X1[:, 0])) == pytest.approx(0.1, rel=0.1)
    Xr, _ = datasets.sinc_data(50, grid=False, random_state=0, low=0, high=2)
    assert Xr.min() >= 0 and Xr.max() < 2 and not np.all(np.diff(Xr[:, 0]) > 0)
    with pytest.raises(ValueError, match="noise_std must be .*>= 0"):
        datasets.sinc_data(10, -0.1)
    with pytest.raises(ValueError, match="high must be greater than low"):
        datasets.sinc_data(10, low=1, high=1)


# --- the fast loop's default fit, wherever the inputs sit -------------------------------------
# A basis function with α = inf is left out, so a maximum of the evidence without the bias is also
# reachable with it (α_bias = inf): the best fit with the bias is at least as good. Both loops stop
# at local maxima, so the fast fit with the bias must come within LOCAL_MAXIMA_NATS of the one
# without (before, on [80, 100] and [100, 120] it stopped 6e4 nats lower with the bias alone).


@pytest.mark.parametrize("a, b", SPLINE_RANGES.values(), ids=SPLINE_RANGES.keys())
def test_fast_with_the_bias_is_no_worse_than_without(a, b):
    X, t = datasets.sinc_data(100)
    ev = {
        bias: rvm.RVMRegressor(
            kernel="linear_spline", bias=bias, noise_variance=SIGMA_SPLINE**2
        )
        .fit(a * X + b, t)
        .log_evidence_
        for bias in (False, True)
    }
    assert ev[True] > ev[False] - LOCAL_MAXIMA_NATS


def test_the_bias_is_not_the_first_addition_unless_nothing_else_gains():
    """On [80, 100] the bias alone is a local maximum of the evidence (every kernel column then has
    θ = q² − s < 0); `not_first` keeps it out of the empty model. With only the bias gaining
    (a kernel that is 0 on the data), it still enters."""
    X, t = datasets.sinc_data(100)
    Phi = np.c_[linear_spline(X + 90), np.ones(len(t))]
    beta = SIGMA_SPLINE**-2
    trapped = rvm.fit_sequential(Phi, t, beta, fix_beta=True)
    fit = rvm.fit_sequential(Phi, t, beta, fix_beta=True, not_first=[len(t)])
    np.testing.assert_array_equal(trapped.active, [len(t)])
    assert fit.log_evidence > trapped.log_evidence + 1e4
    lone = rvm.fit_sequential(
        np.c_[np.zeros((len(t), 3)), np.ones(len(t))], t, 1.0, not_first=[3]
    )
    np.testing.assert_array_equal(lone.active, [3])


@pytest.mark.parametrize("cols", [[21], [-1], [0.5], ["a"]])
def test_fit_sequential_rejects_bad_not_first(cols):
    X, t = datasets.sinc_data(20)
    with pytest.raises(ValueError, match="not_first"):
        rvm.fit_sequential(np.c_[rbf(X), np.ones(20)], t, 1.0, not_first=cols)


@pytest.mark.parametrize("shift", [0.0, 110.0])
def test_span_downdated_norms_match_recomputed_ones(shift):
    """_Span downdates ‖pᵢ‖² and pᵢᵀt in O(K) (‖pᵢ‖² − rowᵢ²) and recomputes a column from P once it
    has lost NORM_RECOMPUTE of its last exact value. Each downdate adds at most about 2ε·ref of
    error and the value stays above NORM_RECOMPUTE·ref, so after n updates the relative error is
    below 4nε/NORM_RECOMPUTE; pᵢᵀt likewise, relative to ‖pᵢ‖‖t⊥‖. Linear-spline columns on
    [100, 120] (all correlating above 0.999) lose most of their norm at the first addition."""
    X, t = datasets.sinc_data(60)
    B = linear_spline(X + shift)
    B, u = B / np.linalg.norm(B, axis=0), t / np.linalg.norm(t)
    span = _evidence._Span(B, u)
    moves = [("add", j) for j in (5, 30, 55, 17, 42)] + [
        ("delete", 30),
        ("add", 0),
        ("delete", 5),
    ]
    for n, (kind, j) in enumerate(moves, start=1):
        getattr(span, kind)(j)
        P = span.P[:, :-1]
        pn, pt, tn = (
            np.einsum("ij,ij->j", P, P),
            P.T @ span.P[:, -1],
            span.P[:, -1] @ span.P[:, -1],
        )
        rel = 4 * n * np.finfo(float).eps / _evidence._NORM_RECOMPUTE
        out = np.setdiff1d(np.arange(B.shape[1]), span.act)  # the model's own pᵢ are ~0
        np.testing.assert_allclose(span.pn[out], pn[out], rtol=rel)
        np.testing.assert_array_less(
            np.abs(span.pt[out] - pt[out]), rel * np.sqrt(pn[out] * tn)
        )
        assert span.tn == pytest.approx(tn, rel=rel)


# The evidence maximised over β as well is at least its maximum at any fixed β, so a fit that
# estimates the noise should come within LOCAL_MAXIMA_NATS of the fit with the noise fixed at its
# true level. Before issue 12 was closed, three of these stopped far below: where the inputs make
# every column nearly constant (linear spline on [80, 100]) the loop idled at one basis function
# while β was held and the first β update read the signal as noise (σ = 0.35, 340 nats below;
# EM does the same); on the wide kernel (γ = 1/100) it re-estimated a few basis functions into a
# local maximum 400 nats below (see fit_sequential's Notes: the held noise, additions first).
ESTIMATED_NOISE = {
    "rbf r=3": ("rbf", 1 / 9, 100, 0.1, 0.0, False),
    "spline [0, 20]": ("linear_spline", 1.0, 100, SIGMA_SPLINE, 10.0, False),
    "spline [30, 50]": ("linear_spline", 1.0, 100, SIGMA_SPLINE, 40.0, False),
    "spline [80, 100]": ("linear_spline", 1.0, 100, SIGMA_SPLINE, 90.0, False),
    "spline [80, 100] + bias": ("linear_spline", 1.0, 100, SIGMA_SPLINE, 90.0, True),
    "spline [100, 120] + bias": ("linear_spline", 1.0, 100, SIGMA_SPLINE, 110.0, True),
    "rbf r=10, N=500": ("rbf", 1 / 100, 500, 0.1, 0.0, True),
}


def test_held_noise_is_lowered_only_where_nothing_gains():
    """On the noise-free spline over [80, 100] nothing gains at the starting noise once one basis
    function is in: the held noise variance is lowered HOLD_STEP-fold (recorded as "lower noise")
    until additions gain again. On the noisy sinc the starting noise is never idle."""
    X, t = datasets.sinc_data(100)
    fit = rvm.fit_sequential(linear_spline(X + 90), t, 100 / np.var(t))
    assert (
        1 <= fit.actions.count("lower noise") <= 4
    )  # at most 4 steps to the noise floor
    assert fit.actions.count("add") > 5 and fit.log_evidence > 500
    _, t_noisy, Phi = sinc_problem()
    assert (
        "lower noise"
        not in rvm.fit_sequential(Phi, t_noisy, 100 / np.var(t_noisy)).actions
    )


@pytest.mark.parametrize(
    "kernel, gamma, n, sigma, shift, bias",
    ESTIMATED_NOISE.values(),
    ids=ESTIMATED_NOISE.keys(),
)
def test_fast_with_estimated_noise_is_no_worse_than_with_the_true_noise(
    kernel, gamma, n, sigma, shift, bias
):
    X, t = datasets.sinc_data(n, sigma if kernel == "rbf" else 0.0, random_state=0)
    ev = {
        nv: rvm.RVMRegressor(kernel=kernel, gamma=gamma, bias=bias, noise_variance=nv)
        .fit(X + shift, t)
        .log_evidence_
        for nv in (None, sigma**2)
    }
    assert ev[None] > ev[sigma**2] - LOCAL_MAXIMA_NATS


def test_tall_design_rows_keep_the_gram_matrix():
    """_rows replaces a tall [B, t] (N > K + 1) by the R of its Householder QR, which is the exact
    R of [B, t] + E with |Eⱼ| ≤ γ‖xⱼ‖, γ ≈ NKε (Higham, Thm 19.4, constant taken as 1); so
    |(XᵀX − RᵀR)ᵢⱼ| ≤ 2γ‖xᵢ‖‖xⱼ‖ (E's second-order term is below rounding). Wide or square
    designs come back unchanged."""
    rng = np.random.default_rng(4)
    B, t = rng.standard_normal((300, 40)), rng.standard_normal(300)
    Bs, ts = _evidence._rows(B, t)
    assert Bs.shape == (41, 40) and ts.shape == (41,)
    X, Xs = np.c_[B, t], np.c_[Bs, ts]
    norms = np.linalg.norm(X, axis=0)
    gamma = X.size * np.finfo(float).eps
    np.testing.assert_array_less(
        np.abs(X.T @ X - Xs.T @ Xs), 2 * gamma * np.outer(norms, norms)
    )
    np.testing.assert_array_equal(Xs, np.triu(Xs))  # R: upper triangular, exactly
    wide = rng.standard_normal((30, 29)), rng.standard_normal(30)
    assert all(a is b for a, b in zip(_evidence._rows(*wide), wide))


@pytest.mark.parametrize("n, m, seed", [(1000, 100, 2), (200, 30, 3), (150, 60, 5)])
def test_fast_on_tall_rows_takes_the_same_path(monkeypatch, n, m, seed):
    """The fast loop on a tall design (rotated onto K + 1 rows by _rows) against the same loop on
    all N rows: the same changes and the same model. ln p agrees to its own rounding,
    _MAX_DROP·(|ln p| + βN) on unit-RMS targets. The rotation is the exact one of [B, t] + E,
    |Eⱼ| ≤ γ‖xⱼ‖ with γ = N(K + 1)ε (Householder QR, Higham Thm 19.4, constant taken as 1), and
    each side's own products on N rows add about Nε each: relative data error g = (N(K + 1) + 2N)ε.
    So m agrees to g κ_D ‖m‖, κ_D the condition number of the diagonally scaled precision
    D⁻¹(A + βΦᵀΦ)D⁻¹ at the result, and ln αᵢ to δ(2 + (2qᵢ² + sᵢ)/θᵢ) (from αᵢ = sᵢ²/θᵢ,
    θᵢ = qᵢ² − sᵢ, with sᵢ, qᵢ relatively off by δ); sᵢ, qᵢ come from solves with the span's
    factor T, TᵀT = I + GGᵀ, whose condition number is √κ_A, κ_A that of A^{-½}(A + βΦᵀΦ)A^{-½}:
    δ = g √κ_A."""
    rng = np.random.default_rng(seed)
    w = np.zeros(m)
    w[rng.choice(m, 10, replace=False)] = rng.choice([-1, 1], 10) * rng.uniform(
        1, 2, 10
    )
    Phi = rng.standard_normal((n, m))
    t = Phi @ w + 0.1 * rng.standard_normal(n)
    fast = rvm.fit_sequential(Phi, t, 100 / np.var(t))
    monkeypatch.setattr(_evidence, "_rows", lambda B, t: (B, t))
    full = rvm.fit_sequential(Phi, t, 100 / np.var(t))
    assert fast.actions == full.actions
    np.testing.assert_array_equal(fast.active, full.active)
    c2 = np.mean(t**2)
    ev_tol = _evidence._MAX_DROP * (abs(full.log_evidence) + full.beta * c2 * n)
    assert abs(fast.log_evidence - full.log_evidence) <= ev_tol
    act = full.active
    H = np.diag(full.alpha[act]) + full.beta * Phi[:, act].T @ Phi[:, act]
    eps, d, a = np.finfo(float).eps, np.sqrt(np.diag(H)), np.sqrt(full.alpha[act])
    g = (n * (m + 1) + 2 * n) * eps
    np.testing.assert_array_less(
        np.abs(fast.mean - full.mean),
        g * np.linalg.cond(H / np.outer(d, d)) * np.linalg.norm(full.mean),
    )
    delta = g * np.sqrt(np.linalg.cond(H / np.outer(a, a)))
    s, q, _, _ = rvm.sparsity_quality(Phi, t, full.alpha, full.beta)
    theta = q[act] ** 2 - s[act]
    np.testing.assert_array_less(
        np.abs(np.log(fast.alpha[act] / full.alpha[act])),
        delta * (2 + (2 * q[act] ** 2 + s[act]) / theta),
    )
