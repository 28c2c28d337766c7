"""The latent-variable models (PPCA, supervised PCA, PLS, CCA, kernel PCA) against their
identities, scikit-learn, SciPy, finite differences and Monte Carlo, and on bad input.

Tolerances. A decomposition of data X (N × p) is exact for data changed by about
ρ = 10·eps·max(N, p, 10) relative (the rule of test_pca.py, ``rounding``); a quantity computed from
it is off by ρ times its condition number, which each test names. EM and scikit-learn's iterative
solvers stop at a tolerance; those tests bound the remaining error from the iteration's own
convergence rate.
"""

import warnings

import numpy as np
import pytest
from scipy import linalg, optimize, stats
from sklearn import cross_decomposition as skcd
from sklearn import decomposition as skd
from sklearn.datasets import load_linnerud, make_circles
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcourse.decomposition import (
    CCA,
    PCA,
    PPCA,
    KernelPCA,
    PLSRegression,
    SupervisedPCA,
    ppca_bic,
    ppca_evidence,
    ppca_max_log_likelihood,
)
from mlcourse.exceptions import ConvergenceWarning

EPS = np.finfo(float).eps


def rounding(X):
    """10·eps·max(N, p, 10): the relative rounding error of a decomposition of X."""
    return 10 * EPS * max(*np.shape(X), 10)


def low_rank_data(rng, n=300, p=6, r=2, noise=0.3):
    """x = Wz + μ + ε with distinct latent scales, so the top r eigenvalues are well separated."""
    W = rng.standard_normal((p, r)) * np.linspace(3.0, 1.5, r)
    return (
        rng.standard_normal((n, r)) @ W.T
        + rng.normal(size=p)
        + noise * rng.standard_normal((n, p))
    )


def scatter(X):
    """S with divisor N (the lecture's likelihood needs it) and its eigenvalues, decreasing."""
    Xc = X - X.mean(0)
    S = Xc.T @ Xc / len(X)
    return S, np.linalg.eigvalsh(S)[::-1]


def neg_log_lik(W, sigma2, S, n):
    """J = (N/2){p ln 2π + ln|C| + tr(C⁻¹S)}, C = WWᵀ + σ²I (lecture 002), by Cholesky."""
    p = S.shape[0]
    C = W @ W.T + sigma2 * np.eye(p)
    L = linalg.cho_factor(C, lower=True)
    return (
        n
        / 2
        * (
            p * np.log(2 * np.pi)
            + 2 * np.log(np.diag(L[0])).sum()
            + np.trace(linalg.cho_solve(L, S))
        )
    )


def em_gap_bound(history):
    """A bound on the log-likelihood EM still lacks when it stops: EM converges linearly, the
    increases Δ_k shrinking by a rate ρ ≈ Δ_k/Δ_(k−1) < 1, so the rest is Δ_last·ρ/(1 − ρ); the
    largest rate over the last iterations guards against a slowly varying one, and the factor 2
    against a tail that is geometric only asymptotically."""
    d = np.diff(history)
    rate = np.max(d[-10:] / d[-11:-1])
    assert 0 < rate < 1
    return 2 * d[-1] * rate / (1 - rate) + 10 * EPS * abs(history[-1])


# --- PPCA: the model and its posterior ------------------------------------------------------------


def test_ppca_log_likelihood_is_the_marginal_gaussian(rng):
    X = low_rank_data(rng)
    model = PPCA(2).fit(X)
    C = model.components_ @ model.components_.T + model.noise_variance_ * np.eye(
        X.shape[1]
    )
    direct = stats.multivariate_normal(model.mean_, C).logpdf(X)
    # Woodbury and determinant lemma vs a Cholesky of C: rounding × cond(C) in each term
    cond = np.linalg.cond(C)
    np.testing.assert_allclose(model.score_samples(X), direct, rtol=rounding(X) * cond)
    np.testing.assert_allclose(
        model.get_covariance(), C, rtol=0, atol=rounding(X) * C.max()
    )


def test_ppca_joint_covariance_by_monte_carlo(rng):
    """[x; z] ~ N([μ; 0], [[WWᵀ + σ²I, W], [Wᵀ, I]]): the sampled covariance of the generated
    pairs within 5 standard errors (the standard error of a sample covariance entry is
    √((Σ_ii Σ_jj + Σ_ij²)/n))."""
    model = PPCA(2).fit(low_rank_data(rng))
    W, s2 = model.components_, model.noise_variance_
    p, r = W.shape
    n = 20000
    z = rng.standard_normal((n, r))
    x = z @ W.T + model.mean_ + np.sqrt(s2) * rng.standard_normal((n, p))
    joint = np.block([[W @ W.T + s2 * np.eye(p), W], [W.T, np.eye(r)]])
    sampled = np.cov(np.column_stack([x, z]), rowvar=False)
    d = np.diag(joint)
    se = np.sqrt((np.outer(d, d) + joint**2) / n)
    assert np.all(np.abs(sampled - joint) < 5 * se)
    drawn = model.sample(n, random_state=1)
    se_x = se[:p, :p]
    assert np.all(np.abs(np.cov(drawn, rowvar=False) - joint[:p, :p]) < 5 * se_x)
    # a wrong model (σ² left out of the covariance) fails the same test
    assert not np.all(np.abs(np.cov(drawn, rowvar=False) - W @ W.T) < 5 * se_x)


def test_ppca_posterior_by_conditioning_both_ways(rng):
    """E[z | x] = Wᵀ C⁻¹(x − μ) (the p × p form) = M⁻¹Wᵀ(x − μ)/σ² (r × r, Woodbury), and
    Σ_z = I − WᵀC⁻¹W = M⁻¹ with the lecture's M = I + WᵀW/σ² (σ², not τ²)."""
    X = low_rank_data(rng)
    model = PPCA(2).fit(X)
    W, s2 = model.components_, model.noise_variance_
    C = model.get_covariance()
    E = X - model.mean_
    p_form = linalg.solve(C, E.T, assume_a="pos").T @ W
    cov_p = np.eye(2) - W.T @ linalg.solve(C, W, assume_a="pos")
    M = np.eye(2) + W.T @ W / s2
    tol = rounding(X) * np.linalg.cond(C)
    np.testing.assert_allclose(
        model.transform(X), p_form, rtol=0, atol=tol * np.abs(p_form).max()
    )
    np.testing.assert_allclose(linalg.solve(M, np.eye(2)), cov_p, rtol=0, atol=tol)
    post = model._posterior(X)
    np.testing.assert_allclose(post.cov, cov_p, rtol=0, atol=tol)


# --- PPCA: the maximum-likelihood solution -------------------------------------------------------


def test_ppca_closed_form_is_the_lecture_solution(rng):
    X = low_rank_data(rng)
    n, p = X.shape
    r = 2
    S, lam = scatter(X)
    model = PPCA(r).fit(X)
    W, s2 = model.components_, model.noise_variance_
    tol = rounding(X) * lam[0] / (lam[r - 1] - lam[r])  # eigenvector sensitivity
    np.testing.assert_allclose(
        s2, lam[r:].mean(), rtol=rounding(X) * lam[0] / lam[r:].mean()
    )
    np.testing.assert_allclose(
        np.linalg.norm(W, axis=0) ** 2, lam[:r] - s2, rtol=0, atol=rounding(X) * lam[0]
    )
    np.testing.assert_allclose(
        model.mean_, X.mean(0), rtol=0, atol=rounding(X) * np.abs(X).max()
    )
    C = model.get_covariance()
    # ln|WWᵀ + σ²I| = Σ_{i≤r} ln λ_i + (p − r) ln σ², and tr(C⁻¹S) = r + Σ_{i>r} λ_i/σ² = p
    logdet = np.linalg.slogdet(C)[1]
    np.testing.assert_allclose(
        logdet, np.log(lam[:r]).sum() + (p - r) * np.log(s2), rtol=0, atol=p * tol
    )
    np.testing.assert_allclose(
        np.trace(linalg.solve(C, S, assume_a="pos")),
        p,
        rtol=0,
        atol=p * tol * lam[0] / s2,
    )
    # the divisor N − 1 for S would move σ² by σ²/N, far beyond the tolerance
    assert abs(s2 * n / (n - 1) - lam[r:].mean()) > rounding(X) * lam[0]


def test_ppca_ml_conditions_and_rotation(rng):
    X = low_rank_data(rng)
    n, p = X.shape
    S, lam = scatter(X)
    model = PPCA(2).fit(X)
    W, s2 = model.components_, model.noise_variance_

    def grad_W(W, s2):
        """∇_W J = N C⁻¹(C − S)C⁻¹W (lecture 002 writes it without the factor N)."""
        C = W @ W.T + s2 * np.eye(p)
        A = linalg.solve(C, W, assume_a="pos")
        return n * linalg.solve(C, (C - S) @ A, assume_a="pos")

    # the formula against central differences at a point that is not the optimum: error h²·J'''
    V = W + 0.1 * rng.standard_normal(W.shape)
    h = 1e-5
    fd = np.zeros_like(V)
    for idx in np.ndindex(*V.shape):
        D = np.zeros_like(V)
        D[idx] = h
        fd[idx] = (neg_log_lik(V + D, s2, S, n) - neg_log_lik(V - D, s2, S, n)) / (
            2 * h
        )
    g = grad_W(V, s2)
    J = neg_log_lik(V, s2, S, n)
    np.testing.assert_allclose(
        fd, g, rtol=0, atol=1e2 * (h**2 * np.abs(g).max() + EPS * abs(J) / h)
    )
    # at the solution C − S vanishes on span(W) up to the eigensolver's rounding ρ·λ_1
    bound = n * np.linalg.norm(W) * rounding(X) * lam[0] / s2**2
    assert np.abs(grad_W(W, s2)).max() < bound < 1e-6 * np.abs(g).max()
    # ∂J/∂σ = N{(p − r)/σ − Σ_{i>r} λ_i/σ³} = 0: central difference, error ≲ h²J''' + eps|J|/h
    sigma = np.sqrt(s2)
    hs = 1e-4 * sigma
    dJ = (
        neg_log_lik(W, (sigma + hs) ** 2, S, n)
        - neg_log_lik(W, (sigma - hs) ** 2, S, n)
    ) / (2 * hs)
    J0 = neg_log_lik(W, s2, S, n)
    assert abs(dJ) < 10 * (n * p * hs**2 / sigma**3 + EPS * abs(J0) / hs)
    # …while moving σ by 1 % gives a derivative far beyond that bound
    dJ_off = (
        neg_log_lik(W, (1.01 * sigma + hs) ** 2, S, n)
        - neg_log_lik(W, (1.01 * sigma - hs) ** 2, S, n)
    ) / (2 * hs)
    assert abs(dJ_off) > 100 * (n * p * hs**2 / sigma**3 + EPS * abs(J0) / hs)
    # W R has the same likelihood for any orthogonal R
    R = np.linalg.qr(rng.standard_normal((2, 2)))[0]
    np.testing.assert_allclose(neg_log_lik(W @ R, s2, S, n), J0, rtol=rounding(X) * p)


def test_ppca_score_matches_sklearn_after_the_divisor(rng):
    """scikit-learn's PCA(r).score is the PPCA likelihood fitted with S of divisor N − 1:
    C_sk = c·C, c = N/(N − 1). At the maximum tr(C⁻¹S) = p, so
    score_sk − score = −(p/2)(ln c + 1/c − 1)."""
    X = low_rank_data(rng, n=120)
    n, p = X.shape
    model = PPCA(3).fit(X)
    sk = skd.PCA(3, svd_solver="full").fit(X)
    c = n / (n - 1)
    cond = np.linalg.cond(model.get_covariance())
    np.testing.assert_allclose(
        sk.get_covariance(),
        c * model.get_covariance(),
        rtol=0,
        atol=rounding(X) * cond * np.abs(sk.get_covariance()).max(),
    )
    expected = model.score(X) - p / 2 * (np.log(c) + 1 / c - 1)
    np.testing.assert_allclose(sk.score(X), expected, rtol=rounding(X) * cond)
    assert abs(sk.score(X) - model.score(X)) > 100 * rounding(X) * cond * abs(
        model.score(X)
    )


def test_ppca_max_log_likelihood_from_the_spectrum(rng):
    X = low_rank_data(rng)
    n, p = X.shape
    _, lam = scatter(X)
    ll = ppca_max_log_likelihood(lam, n)
    models = [PPCA(r).fit(X) for r in range(1, p)]
    fitted = [m.score(X) * n for m in models]  # through the posterior, sample by sample
    np.testing.assert_allclose(ll, fitted, rtol=rounding(X) * lam[0] / lam[-1])
    # the closed form's own value, from its spectrum (closed_form's docstring)
    history = [m.log_likelihood_history_[0] * n for m in models]
    np.testing.assert_allclose(history, fitted, rtol=rounding(X) * lam[0] / lam[-1])
    bic, best_bic = ppca_bic(lam, n)
    ev, best_ev = ppca_evidence(lam, n)
    assert best_bic == best_ev == 2  # the generating rank
    sk = skd.PCA("mle", svd_solver="full").fit(X)
    assert sk.n_components_ == best_ev


def test_ppca_evidence_matches_sklearn_mle_choice_on_several_ranks(rng):
    for r in (1, 3, 4):
        X = low_rank_data(rng, n=400, p=8, r=r, noise=0.2)
        _, lam = scatter(X)
        assert ppca_evidence(lam, len(X))[1] == skd.PCA("mle").fit(X).n_components_ == r


# --- PPCA: EM and missing values ----------------------------------------------------------------


def test_ppca_em_reaches_the_closed_form(rng):
    # EM's rate approaches 1 as σ²/λ_r → 0 (0.99 on low_rank_data's default noise): a noise
    # level near the signal keeps the test short and the rate estimate steady
    X = low_rank_data(rng, noise=1.0)
    closed = PPCA(2).fit(X)
    em = PPCA(2, method="em", tol=1e-10, max_iter=5000, random_state=0).fit(X)
    hist = np.array(em.log_likelihood_history_)
    assert np.all(np.diff(hist) >= -10 * EPS * abs(hist[-1]))  # EM never lowers it
    gap = closed.score(X) - em.score(X)
    assert -10 * EPS * abs(closed.score(X)) <= gap <= em_gap_bound(hist)
    # W up to rotation: the canonical rotation lines EM's W up with the closed form's; a
    # quadratic maximum turns a likelihood gap g into parameter error ~ √(2g/curvature), the
    # curvature per sample being at least of order 1/λ_1²
    lam1 = scatter(X)[1][0]
    tol = np.sqrt(2 * em_gap_bound(hist)) * lam1 + rounding(X) * lam1
    np.testing.assert_allclose(em.components_, closed.components_, rtol=0, atol=tol)
    assert em.n_iter_ > 1


def test_ppca_em_seeded_start_is_reproducible(rng):
    X = low_rank_data(rng, noise=1.0)
    a = PPCA(2, method="em", random_state=3).fit(X)
    b = PPCA(2, method="em", random_state=3).fit(X)
    np.testing.assert_array_equal(a.components_, b.components_)


def test_ppca_em_with_missing_values(rng):
    X = low_rank_data(rng, n=400, noise=1.0)
    mask = rng.random(X.shape) < 0.2
    Xm = np.where(mask, np.nan, X)
    model = PPCA(2, method="em", tol=1e-9, max_iter=5000, random_state=0).fit(Xm)
    hist = np.array(model.log_likelihood_history_)
    assert np.all(np.diff(hist) >= -10 * EPS * abs(hist[-1]))
    # the likelihood of each row is that of its observed entries: a SciPy marginal
    C = model.get_covariance()
    direct = np.array(
        [
            stats.multivariate_normal(model.mean_[o], C[np.ix_(o, o)]).logpdf(x[o])
            for x, o in zip(Xm, ~mask)
        ]
    )
    np.testing.assert_allclose(
        model.score_samples(Xm), direct, rtol=rounding(X) * np.linalg.cond(C)
    )
    # filling in by E[x | x_O] beats the column means (the data have rank-2 structure)
    filled = model.inverse_transform(model.transform(Xm))
    col_mean = np.nanmean(Xm, axis=0)
    err_em = np.sqrt(np.mean((filled - X)[mask] ** 2))
    err_mean = np.sqrt(np.mean((np.broadcast_to(col_mean, X.shape) - X)[mask] ** 2))
    assert err_em < 0.5 * err_mean
    # and the fitted σ² is near the complete-data one: within 5 standard errors of an average
    # of about N·(p − r) squared residuals (relative s.e. √(2/(N(p − r)·0.8)))
    full = PPCA(2).fit(X)
    se = np.sqrt(2 / (0.8 * X.shape[0] * (X.shape[1] - 2)))
    assert abs(model.noise_variance_ / full.noise_variance_ - 1) < 5 * se


def test_ppca_em_warns_at_max_iter(rng):
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        PPCA(2, method="em", max_iter=2, random_state=0).fit(low_rank_data(rng))


def test_ppca_noise_floor_when_r_reaches_the_rank(rng):
    X = rng.standard_normal((50, 2)) @ rng.standard_normal((2, 5))  # rank 2, 5 features
    model = PPCA(2).fit(X)
    S, lam = scatter(X)
    assert 0 < model.noise_variance_ <= rounding(X) * lam.sum()
    assert np.all(np.isfinite(model.score_samples(X)))
    assert np.isfinite(model.log_likelihood_history_[0])


# --- supervised PCA ------------------------------------------------------------------------------


@pytest.fixture
def factor_data(rng):
    n, p, r = 500, 6, 2
    Wx = rng.standard_normal((p, r)) * [2.0, 1.0]
    wt = np.array([1.5, -1.0])
    Z = rng.standard_normal((n, r))
    X = Z @ Wx.T + 0.5 * rng.standard_normal((n, p))
    t = Z @ wt + 3.0 + 0.3 * rng.standard_normal(n)
    return X, t


def test_supervised_pca_two_forms_of_the_prediction(factor_data):
    X, t = factor_data
    model = SupervisedPCA(2, random_state=0).fit(X, t)
    Wx, wt = model.x_components_, model.y_components_
    sx2, st2 = model.x_noise_variance_, model.y_noise_variance_
    p = X.shape[1]
    Cxx = Wx @ Wx.T + sx2 * np.eye(p)
    E = X - model.x_mean_
    mean_p = model.y_mean_ + E @ linalg.solve(Cxx, Wx @ wt, assume_a="pos")
    var_p = st2 + wt @ wt - wt @ Wx.T @ linalg.solve(Cxx, Wx @ wt, assume_a="pos")
    mean, std = model.predict(X, return_std=True)
    tol = rounding(X) * np.linalg.cond(Cxx)
    np.testing.assert_allclose(mean, mean_p, rtol=0, atol=tol * np.abs(mean).max())
    np.testing.assert_allclose(std**2, var_p, rtol=tol * (wt @ wt) / var_p)
    np.testing.assert_allclose(model.predict(X), mean)


def test_supervised_pca_em_and_monte_carlo(factor_data, rng):
    X, t = factor_data
    model = SupervisedPCA(2, tol=1e-9, random_state=0).fit(X, t)
    hist = np.array(model.log_likelihood_history_)
    assert np.all(np.diff(hist) >= -10 * EPS * abs(hist[-1]))
    # draw (z, x, t) from the fitted model: t − E(t | x) has the predicted variance, and is
    # uncorrelated with x (5 standard errors; the s.e. of a sample variance is v·√(2/n))
    n = 20000
    Wx, wt = model.x_components_, model.y_components_
    z = rng.standard_normal((n, 2))
    x = (
        z @ Wx.T
        + model.x_mean_
        + np.sqrt(model.x_noise_variance_) * rng.standard_normal((n, X.shape[1]))
    )
    tt = (
        z @ wt
        + model.y_mean_
        + np.sqrt(model.y_noise_variance_) * rng.standard_normal(n)
    )
    mean, std = model.predict(x, return_std=True)
    resid = tt - mean
    v = std[0] ** 2
    assert abs(resid.var() - v) < 5 * v * np.sqrt(2 / n)
    corr = np.corrcoef(np.column_stack([resid, x]), rowvar=False)[0, 1:]
    assert np.all(np.abs(corr) < 5 / np.sqrt(n))
    # the fitted noise levels are the generating ones within 5 standard errors of a variance
    # estimated from N (t) or N(p − r) (x) squared residuals, relative s.e. √(2/count)
    n, p = X.shape
    assert abs(model.y_noise_variance_ / 0.09 - 1) < 5 * np.sqrt(2 / n)
    assert abs(model.x_noise_variance_ / 0.25 - 1) < 5 * np.sqrt(2 / (n * (p - 2)))


# --- PLS -----------------------------------------------------------------------------------------


def power_method_bound(X, Y, scale, r, tol):
    """What scikit-learn's NIPALS may still be off by: it stops when the change of the weights,
    squared, is below `tol`, and the power method's error is that change times ρ/(1 − ρ), ρ the
    ratio of the top two squared singular values of XᵀY (largest over the deflated blocks; the
    undeflated ratio bounds them in these tests' data), plus rounding."""
    Xs = (X - X.mean(0)) / (X.std(0, ddof=1) if scale else 1)
    Ys = (Y - Y.mean(0)) / (Y.std(0, ddof=1) if scale else 1)
    s = np.linalg.svd(Xs.T @ Ys, compute_uv=False)
    rho = (s[1] / s[0]) ** 2 if len(s) > 1 else 0.0
    return np.sqrt(tol) * rho / (1 - rho) + rounding(X) * np.linalg.cond(Xs) ** 2


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("multi", [True, False])
def test_pls_matches_sklearn(scale, multi):
    data = load_linnerud()
    X, Y = data.data, data.target if multi else data.target[:, 0]
    r = 2
    ours = PLSRegression(r, scale=scale).fit(X, Y)
    sk = skcd.PLSRegression(r, scale=scale, tol=1e-26, max_iter=100000).fit(X, Y)
    bound = max(
        power_method_bound(X, np.reshape(Y, (len(X), -1)), scale, r, 1e-26), 1e-12
    )
    for name in ["x_weights_", "x_loadings_", "y_loadings_", "x_rotations_"]:
        np.testing.assert_allclose(
            getattr(ours, name),
            getattr(sk, name),
            rtol=0,
            atol=bound * 100,
            err_msg=name,
        )
    for name in ["x_scores_", "coef_"]:
        a, b = getattr(ours, name), getattr(sk, name)
        np.testing.assert_allclose(
            a, b, rtol=0, atol=bound * 100 * np.abs(b).max(), err_msg=name
        )
    pred = sk.predict(X)
    np.testing.assert_allclose(
        ours.predict(X), pred, rtol=0, atol=bound * 100 * np.abs(pred).max()
    )
    np.testing.assert_allclose(
        ours.transform(X),
        sk.transform(X),
        rtol=0,
        atol=bound * 100 * np.abs(sk.x_scores_).max(),
    )
    assert bound * 100 < 1e-8  # the 1e-8


def test_pls_with_all_components_is_least_squares(rng):
    X = rng.standard_normal((40, 4))
    y = X @ [1.0, -2.0, 0.5, 0.0] + 0.1 * rng.standard_normal(40)
    model = PLSRegression(4, scale=False).fit(X, y)
    A = np.column_stack([X, np.ones(len(X))])
    beta = np.linalg.lstsq(A, y, rcond=None)[0]
    np.testing.assert_allclose(
        model.predict(X),
        A @ beta,
        rtol=0,
        atol=rounding(X) * np.linalg.cond(A) ** 2 * np.abs(y).max(),
    )


# --- CCA -----------------------------------------------------------------------------------------


def test_cca_scalar_target_is_r_squared(rng):
    X = rng.standard_normal((80, 3))
    t = X @ [1.0, 0.5, -0.3] + rng.standard_normal(80)
    model = CCA(1).fit(X, t)
    Xc, tc = X - X.mean(0), t - t.mean()
    C = np.cov(np.column_stack([X, t]), rowvar=False)
    rho2 = C[3, :3] @ linalg.solve(C[:3, :3], C[:3, 3], assume_a="pos") / C[3, 3]
    beta = np.linalg.lstsq(Xc, tc, rcond=None)[0]
    r2 = 1 - np.sum((tc - Xc @ beta) ** 2) / np.sum(tc**2)
    tol = rounding(X) * np.linalg.cond(Xc) ** 2
    np.testing.assert_allclose(model.canonical_correlations_[0] ** 2, rho2, rtol=tol)
    np.testing.assert_allclose(rho2, r2, rtol=tol)


def test_cca_matches_sklearn_and_direct_maximisation():
    data = load_linnerud()
    X, Y = data.data, data.target
    model = CCA(3).fit(X, Y)
    rho = model.canonical_correlations_
    # the scores: unit variance, and the i-th pair correlated by ρ_i, the others not at all
    U, V = model.transform(X, Y)
    n = len(X)
    cond = np.linalg.cond(X - X.mean(0)) * np.linalg.cond(Y - Y.mean(0))
    tol = rounding(X) * cond
    np.testing.assert_allclose(U.T @ U / (n - 1), np.eye(3), rtol=0, atol=tol)
    np.testing.assert_allclose(U.T @ V / (n - 1), np.diag(rho), rtol=0, atol=tol)
    # scikit-learn's CCA iterates (NIPALS, mode B); its score correlations converge to ρ at the
    # power method's rate: bounded as for PLS, with ρ = (ρ_2/ρ_1)²
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = skcd.CCA(2, tol=1e-26, max_iter=100000).fit(X, Y)
    Us, Vs = sk.transform(X, Y)
    sk_rho = [np.corrcoef(Us[:, i], Vs[:, i])[0, 1] for i in range(2)]
    rate = (rho[1] / rho[0]) ** 2
    np.testing.assert_allclose(
        rho[:2], sk_rho, rtol=0, atol=1e-13 * rate / (1 - rate) + tol
    )

    # ρ_1 = max over a, b of corr(Xa, Yb): BFGS from several starts; its gradient tolerance
    # 1e-10 leaves the maximum off by O(1e-10²) — we allow 1e-8 for the flat directions
    def neg_corr(v):
        a, b = v[:3], v[3:]
        return -np.corrcoef(X @ a, Y @ b)[0, 1]

    best = min(
        optimize.minimize(
            neg_corr,
            np.random.default_rng(s).standard_normal(6),
            method="BFGS",
            options={"gtol": 1e-10},
        ).fun
        for s in range(5)
    )
    np.testing.assert_allclose(-best, rho[0], rtol=0, atol=1e-8)


@pytest.mark.parametrize("extra", ["constant", "duplicated", "collinear"])
def test_cca_fits_a_singular_covariance_by_the_pseudo_inverse(rng, extra):
    """A redundant column (issue 25) changes neither the canonical correlations nor the scores:
    CCA works in the column space of the centred X. Both routes (QR without the column, the
    SVD pseudo-inverse with it) are backward stable, so they agree to eps times the condition
    number of the whitening (κ < 10 here) and the size of the data, well within 1e-12."""
    X = rng.standard_normal((40, 3))
    Y = X @ rng.standard_normal((3, 2)) + rng.standard_normal((40, 2))
    column = {
        "constant": np.full(40, 3.0),
        "duplicated": X[:, 1],
        "collinear": X[:, 0] - 2 * X[:, 2],
    }[extra]
    reduced, full = CCA(2).fit(X, Y), CCA(2).fit(np.column_stack([X, column]), Y)
    np.testing.assert_allclose(
        full.canonical_correlations_, reduced.canonical_correlations_, atol=1e-12
    )
    # the same pairs of scores, up to the sign of each pair (the sign rule reads the largest
    # entry of x_weights_, which a split weight can change)
    U, V = full.transform(np.column_stack([X, column]), Y)
    U0, V0 = reduced.transform(X, Y)
    signs = np.sign(np.sum(U * U0, axis=0))
    np.testing.assert_allclose(U * signs, U0, atol=1e-12)
    np.testing.assert_allclose(V * signs, V0, atol=1e-12)
    # the minimum-norm directions: nothing on a constant column, an even split on a copy
    if extra == "constant":
        np.testing.assert_allclose(full.x_weights_[3], 0.0, atol=1e-12)
    if extra == "duplicated":
        np.testing.assert_allclose(full.x_weights_[1], full.x_weights_[3], atol=1e-12)


def test_cca_with_more_columns_than_samples_correlates_perfectly(rng):
    """p ≥ N − 1: the centred X spans every centred vector, so any y is matched exactly."""
    cca = CCA(1).fit(rng.standard_normal((10, 20)), rng.standard_normal(10))
    np.testing.assert_allclose(cca.canonical_correlations_, 1.0, atol=1e-12)
    assert cca.x_weights_.shape == (20, 1)


def test_cca_refuses_a_block_without_variance(rng):
    X = rng.standard_normal((30, 3))
    with pytest.raises(ValueError, match="y has no variance"):
        CCA(1).fit(X, np.full(30, 2.0))
    with pytest.raises(ValueError, match="X has no variance"):
        CCA(1).fit(np.ones((30, 2)), X)
    with pytest.raises(
        ValueError, match=r"n_components=2 is larger than the data allow"
    ):
        CCA(2).fit(np.column_stack([X[:, 0], 2 * X[:, 0]]), X[:, :2])


# --- kernel PCA ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [150, 400])  # dense and ARPACK branches
def test_kernel_pca_matches_sklearn(n):
    X, _ = make_circles(n, factor=0.3, noise=0.05, random_state=0)
    ours = KernelPCA(4, gamma=2.0).fit(X)
    sk = skd.KernelPCA(4, kernel="rbf", gamma=2.0, eigen_solver="dense").fit(X)
    lam = ours.eigenvalues_
    gaps = np.minimum(
        np.r_[np.inf, lam[:-1] - lam[1:]], np.r_[lam[:-1] - lam[1:], np.inf]
    )
    tol = rounding(np.zeros((n, n))) * n * lam[0]  # ‖K̃‖ ≤ N·max k
    np.testing.assert_allclose(lam, sk.eigenvalues_, rtol=0, atol=tol)
    vec_tol = tol / gaps.min()
    signs = np.sign(np.sum(ours.eigenvectors_ * sk.eigenvectors_, axis=0))
    np.testing.assert_allclose(
        ours.eigenvectors_ * signs, sk.eigenvectors_, rtol=0, atol=vec_tol
    )
    Xt = make_circles(50, factor=0.3, noise=0.05, random_state=1)[0]
    np.testing.assert_allclose(
        ours.transform(Xt) * signs,
        sk.transform(Xt),
        rtol=0,
        atol=vec_tol * np.sqrt(n * lam[0]),
    )
    np.testing.assert_allclose(
        ours.fit_transform(X) * signs,
        sk.fit_transform(X),
        rtol=0,
        atol=vec_tol * np.sqrt(lam[0]),
    )


def test_linear_kernel_pca_is_pca(rng):
    X = rng.standard_normal((60, 5)) * [5.0, 3.0, 2.0, 1.0, 0.5]
    n = len(X)
    kp = KernelPCA(3, kernel="linear").fit(X)
    pca = PCA(3).fit(X)
    np.testing.assert_allclose(
        kp.eigenvalues_, pca.explained_variance_ * (n - 1), rtol=rounding(X) * 25
    )
    signs = np.sign(np.sum(kp.transform(X) * pca.transform(X), axis=0))
    tol = rounding(X) * 25 / 0.5 * np.abs(X).max() * 10
    np.testing.assert_allclose(
        kp.transform(X) * signs, pca.transform(X), rtol=0, atol=tol
    )


def test_kernel_pca_separates_circles():
    X, y = make_circles(300, factor=0.3, noise=0.05, random_state=0)
    z = KernelPCA(1, gamma=2.0).fit_transform(X)[:, 0]
    # a threshold on the first kernel component separates the two rings…
    assert min(z[y == 0].max(), z[y == 1].max()) < max(z[y == 0].min(), z[y == 1].min())
    # …and none on the first principal component does
    u = PCA(1).fit_transform(X)[:, 0]
    assert not min(u[y == 0].max(), u[y == 1].max()) < max(
        u[y == 0].min(), u[y == 1].min()
    )


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, match",
    [
        (
            {"n_components": 6},
            "n_components=6 is larger than the data allow: at most 5",
        ),
        ({"n_components": 0}, "n_components"),
        ({"n_components": 2, "method": "svd"}, "method"),
        ({"n_components": 2, "tol": -1.0}, "tol"),
    ],
)
def test_ppca_rejects_bad_hyperparameters(params, match, rng):
    with pytest.raises(ValueError, match=match):
        PPCA(**params).fit(low_rank_data(rng))


def test_ppca_rejects_bad_data(rng):
    X = low_rank_data(rng)
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        PPCA(2).fit(Xn)
    Xr = X.copy()
    Xr[5] = np.nan
    with pytest.raises(ValueError, match="row"):
        PPCA(2, method="em").fit(Xr)
    Xc = X.copy()
    Xc[:, 2] = np.nan
    with pytest.raises(ValueError, match="column"):
        PPCA(2, method="em").fit(Xc)
    with pytest.raises(ValueError, match="no variance"):
        PPCA(2).fit(np.ones((10, 4)))


@pytest.mark.parametrize("est", [SupervisedPCA(2), PLSRegression(2), CCA(1)])
def test_length_mismatch_names_the_arrays(est, rng):
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        est.fit(rng.standard_normal((20, 4)), rng.standard_normal(19))


def test_pls_cca_kernel_pca_reject_too_many_components(rng):
    X = rng.standard_normal((20, 3))
    with pytest.raises(
        ValueError, match="n_components=4 is larger than the data allow: at most"
    ):
        PLSRegression(4).fit(X, rng.standard_normal(20))
    with pytest.raises(
        ValueError, match="n_components=3 is larger than the data allow: at most"
    ):
        CCA(3).fit(X, rng.standard_normal((20, 2)))
    with pytest.raises(
        ValueError,
        match=r"n_components=21 is larger than the data allow: at most 20 \(n_samples=20",
    ):
        KernelPCA(21).fit(X)
    with pytest.raises(ValueError, match="gamma"):
        KernelPCA(2, gamma=-1.0).fit(X)


def test_transform_before_fit_raises(rng):
    from sklearn.exceptions import NotFittedError as SkNotFitted

    from mlcourse.exceptions import NotFittedError

    for est in [PPCA(2), SupervisedPCA(2), PLSRegression(2), CCA(1), KernelPCA(2)]:
        with pytest.raises(NotFittedError):
            est.transform(rng.standard_normal((5, 4)))
        with pytest.raises(SkNotFitted):
            est.transform(rng.standard_normal((5, 4)))


# --- scikit-learn's estimator checks -------------------------------------------------------------


@parametrize_with_checks(
    [
        PPCA(1),
        PPCA(1, method="em", random_state=0),
        SupervisedPCA(1, random_state=0),
        PLSRegression(1),
        CCA(1),
        KernelPCA(2),
        KernelPCA(2, kernel="linear"),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# --- scores for scikit-learn's model selection ------------------------------------------------


def test_cca_and_kernel_pca_scores_on_the_training_data(rng):
    """CCA.score = the mean canonical correlation and KernelPCA.score = Σ_{i≤r} λ_i / tr K̃ on the
    training data (rounding of the scores' sums, relative ε·N·κ)."""
    X, Y = rng.standard_normal((50, 3)), rng.standard_normal((50, 2))
    Y[:, 0] += X[:, 0]
    cca = CCA(2).fit(X, Y)
    tol = rounding(X) * np.linalg.cond(X - X.mean(0)) * np.linalg.cond(Y - Y.mean(0))
    np.testing.assert_allclose(
        cca.score(X, Y), cca.canonical_correlations_.mean(), rtol=tol
    )
    kp = KernelPCA(3, gamma=0.5).fit(X)
    K = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    H = np.eye(50) - 1 / 50
    trace = np.trace(H @ K @ H)
    np.testing.assert_allclose(
        kp.score(X),
        kp.eigenvalues_.sum() / trace,
        rtol=rounding(K) * 50 * kp.eigenvalues_[0] / kp.eigenvalues_[-1],
    )
    assert 0 < kp.score(rng.standard_normal((20, 3))) < 1


# --- issue 25: degenerate targets, callable kernels, rounding-level eigenvalues ------------------


@pytest.mark.parametrize(
    "est", [SupervisedPCA(1, random_state=0), PLSRegression(1), PLSRegression(2)]
)
@pytest.mark.parametrize("rounding", [False, True])
def test_constant_y_is_named_and_nothing_leaks(est, rounding, rng):
    """A constant y (a cross-validation fold can have one) raises a ValueError that says so,
    with no RuntimeWarning from a 0/0 on the way (warnings are errors here); also when the
    values differ only in the last bit (0.3 and 0.1 · 3)."""
    X = rng.standard_normal((30, 3))
    y = np.full(30, 0.3)
    if rounding:
        y[::7] = 0.1 * 3  # 0.30000000000000004
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"y is constant \(every value "):
            est.fit(X, y)


def test_pls_names_how_many_components_the_data_support(rng):
    """X with orthogonal centred columns and y its first column: the first component is that
    column and leaves a y residual of rounding, so n_components=2 is refused with 'use
    n_components <= 1'; an X of rank 1 likewise (the old message said '<= 1' for 1 too)."""
    A = rng.standard_normal((30, 3))
    X = linalg.qr(A - A.mean(axis=0), mode="economic")[0] * [3.0, 2.0, 1.0]
    y = X[:, 0]
    with pytest.raises(ValueError, match=r"n_components=2 is too many") as info:
        PLSRegression(2, scale=False).fit(X, y)
    assert "after 1 component(s) the residual of y" in str(info.value)
    assert "n_components <= 1" in str(info.value)
    with pytest.raises(ValueError, match=r"X is numerically zero.*n_components <= 1"):
        PLSRegression(2).fit(np.outer(rng.standard_normal(30), [1.0, 2.0]), y)


def test_kernel_pca_calls_a_callable_kernel_with_two_arguments(rng):
    """The one kernel interface (issue 25): a callable k(A, B) with no default for B."""
    X = rng.standard_normal((25, 2))

    def k(A, B):  # exp(−γ‖a − b‖²), γ = 0.5
        return np.exp(-0.5 * ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=-1))

    ours = KernelPCA(3, kernel=k).fit(X)
    named = KernelPCA(3, kernel="rbf", gamma=0.5).fit(X)
    # the same matrix by two routes (direct differences, and ‖a‖² + ‖b‖² − 2aᵀb): entries
    # agree to a few eps, eigenvectors to that over the eigen-gap (> 0.1 here)
    np.testing.assert_allclose(ours.eigenvalues_, named.eigenvalues_, rtol=1e-12)
    np.testing.assert_allclose(ours.transform(X), named.transform(X), atol=1e-10)


def test_kernel_pca_clips_rounding_level_eigenvalues(rng):
    """A linear kernel of rank 2 data: eigenvalues 3 and 4 of K̃ are rounding (≤ eps·N·λ₁),
    set to 0 as scikit-learn does, so transform gives exact zeros there instead of noise
    divided by √(1e-15)."""
    X = rng.standard_normal((20, 2)) @ rng.standard_normal((2, 4))
    kpca = KernelPCA(4, kernel="linear").fit(X)
    assert kpca.eigenvalues_[0] > kpca.eigenvalues_[1] > 0
    np.testing.assert_array_equal(kpca.eigenvalues_[2:], 0.0)
    np.testing.assert_array_equal(kpca.transform(X)[:, 2:], 0.0)
    sk = skd.KernelPCA(4, kernel="linear").fit(X)
    np.testing.assert_allclose(kpca.eigenvalues_[:2], sk.eigenvalues_[:2], rtol=1e-10)
    np.testing.assert_array_equal(sk.eigenvalues_[2:], 0.0)  # scikit-learn clips too
