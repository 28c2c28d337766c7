"""mlcourse.pca against scikit-learn, SciPy and the lectures' examples, and on bad input."""

import numpy as np
import pytest
from scipy import stats
from sklearn.decomposition import PCA as SkPCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from mlcourse.pca import PCA, fisher_criterion, fisher_direction, profile_likelihood

METHODS = ["eig", "svd", "dual"]


def spread_data(rng, n, d, rank=None):
    """Data of rank r with variances from 100 down to 1, geometrically spaced: neighbours differ by
    at least 9 %, so every component is determined to ~1e-12 by all three routes (the eig route
    loses accuracy only for variances near eps·λ_max) and no near-ties need special care."""
    r = min(n - 1, d) if rank is None else rank
    scales = 10 * 0.1 ** (np.arange(r) / max(r - 1, 1))
    basis = np.linalg.qr(rng.standard_normal((d, r)))[0]
    Z = rng.standard_normal((n, r))
    Z = np.linalg.qr(Z - Z.mean(0))[0] * np.sqrt(n - 1)      # exactly uncorrelated scores
    return Z * scales @ basis.T + rng.normal(size=d)


def align(A, B):
    """Flip the rows of A to match the signs of B (components are defined up to sign)."""
    return A * np.sign(np.sum(A * B, axis=1))[:, None]


# --- agreement with scikit-learn ----------------------------------------------------------------

@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n, d, k", [(200, 12, 5), (30, 80, 10), (50, 50, 49)])
def test_matches_sklearn(method, n, d, k, rng):
    X = spread_data(rng, n, d)
    ours = PCA(k, method=method).fit(X)
    sk = SkPCA(k, svd_solver="full").fit(X)
    np.testing.assert_allclose(align(ours.components_, sk.components_), sk.components_, atol=1e-9)
    np.testing.assert_allclose(ours.explained_variance_, sk.explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(ours.explained_variance_ratio_, sk.explained_variance_ratio_,
                               rtol=1e-10)
    np.testing.assert_allclose(ours.singular_values_, sk.singular_values_, rtol=1e-10)
    np.testing.assert_allclose(ours.mean_, sk.mean_, rtol=1e-14)
    signs = np.sign(np.sum(ours.components_ * sk.components_, axis=1))
    np.testing.assert_allclose(ours.transform(X) * signs, sk.transform(X), atol=1e-9)
    Z = sk.transform(X)
    np.testing.assert_allclose(ours.inverse_transform(Z * signs), sk.inverse_transform(Z),
                               atol=1e-9)


@pytest.mark.parametrize("method", METHODS)
def test_whitening_matches_sklearn_and_has_identity_covariance(method, rng):
    X = spread_data(rng, 60, 15)
    ours = PCA(6, method=method, whiten=True).fit(X)
    sk = SkPCA(6, svd_solver="full", whiten=True).fit(X)
    Z = ours.transform(X)
    np.testing.assert_allclose(Z.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(np.cov(Z, rowvar=False), np.eye(6), atol=1e-10)
    signs = np.sign(np.sum(ours.components_ * sk.components_, axis=1))
    np.testing.assert_allclose(Z * signs, sk.transform(X), atol=1e-9)
    np.testing.assert_allclose(ours.inverse_transform(Z), sk.inverse_transform(sk.transform(X)),
                               atol=1e-9)


def test_sign_convention_is_sklearns(rng):
    X = spread_data(rng, 100, 8)
    for method in METHODS:
        comps = PCA(method=method).fit(X).components_
        top = comps[np.arange(len(comps)), np.argmax(np.abs(comps), axis=1)]
        assert np.all(top > 0)
        np.testing.assert_allclose(comps, SkPCA(svd_solver="full").fit(X).components_[:len(comps)],
                                   atol=1e-9)


def test_three_routes_agree_on_wide_data(rng):
    X = spread_data(rng, 25, 300)
    fits = [PCA(method=m).fit(X) for m in METHODS]
    assert [f.n_components_ for f in fits] == [25, 25, 24]      # dual keeps non-zero variances
    for f in fits[:2]:
        np.testing.assert_allclose(f.components_[:24], fits[2].components_, atol=1e-9)
        np.testing.assert_allclose(f.explained_variance_[:24], fits[2].explained_variance_,
                                   rtol=1e-9)
    assert fits[0].explained_variance_[24] < 1e-12 * fits[0].explained_variance_[0]


def test_lecture_004_eigen_example():
    # points on the line t·(1, 2) with var(t) = 1: sample covariance exactly [[1, 2], [2, 4]]
    t = np.array([-1.5, -0.5, 0.5, 1.5])
    t = t / t.std(ddof=1)
    X = np.outer(t, [1.0, 2.0])
    np.testing.assert_allclose(np.cov(X, rowvar=False), [[1, 2], [2, 4]], rtol=1e-14)
    pca = PCA(method="eig").fit(X)
    np.testing.assert_allclose(pca.explained_variance_, [5, 0], atol=1e-14)
    np.testing.assert_allclose(pca.components_, np.array([[1, 2], [2, -1]]) / np.sqrt(5),
                               atol=1e-14)
    with pytest.raises(ValueError, match="Component 2 of X has numerically zero variance"):
        PCA(method="eig", whiten=True).fit(X)
    dual = PCA(method="dual").fit(X)                 # keeps only the non-zero variance
    np.testing.assert_allclose(dual.components_, [[1 / np.sqrt(5), 2 / np.sqrt(5)]], atol=1e-14)


@pytest.mark.parametrize("method", METHODS)
def test_min_error_is_sum_of_discarded_eigenvalues(method, rng):
    X = spread_data(rng, 40, 10)
    lam = np.linalg.eigvalsh(np.cov(X, rowvar=False, bias=True))[::-1]   # eigenvalues of S (1/N)
    for m in range(1, 10):
        pca = PCA(m, method=method).fit(X)
        J = np.mean(np.sum((X - pca.inverse_transform(pca.transform(X))) ** 2, axis=1))
        assert J == pytest.approx(lam[m:].sum(), rel=1e-9)


@pytest.mark.parametrize("whiten", [False, True])
@pytest.mark.parametrize("method", METHODS)
def test_fit_transform_matches_sklearn(method, whiten, rng):
    X = spread_data(rng, 50, 12)
    ours = PCA(5, method=method, whiten=whiten)
    Z = ours.fit_transform(X)
    Z_sk = SkPCA(5, svd_solver="full", whiten=whiten).fit_transform(X)
    signs = np.sign(np.sum(Z * Z_sk, axis=0))                  # each column up to sign
    np.testing.assert_allclose(Z * signs, Z_sk, atol=1e-9)
    np.testing.assert_allclose(Z, ours.transform(X), atol=1e-12)


def test_svd_route_whitens_variances_the_eig_route_cannot_resolve(rng):
    # singular values 1 … 1e-10: λ_5/λ_1 = 1e-20 is below the eig route's rounding level
    # eps·max(N, D) ≈ 4e-14, far above the svd route's (eps·max(N, D))²·‖X‖²_F/λ_1 ≈ 2e-27
    left = rng.standard_normal((200, 5))
    left = np.linalg.qr(left - left.mean(axis=0))[0]              # orthonormal, centred columns
    X = left * np.array([1, 1e-2, 1e-4, 1e-6, 1e-10]) @ np.linalg.qr(rng.standard_normal((5, 5)))[0]
    with pytest.raises(ValueError, match=r"Component 5 of X has numerically zero variance .*"
                                         r"the 'eig' route"):
        PCA(method="eig", whiten=True).fit(X)
    Z = PCA(method="svd", whiten=True).fit_transform(X)
    np.testing.assert_allclose(np.cov(Z, rowvar=False), np.eye(5), atol=1e-5)


@pytest.mark.parametrize("method", ["eig", "svd"])
def test_whitening_refuses_exactly_beyond_the_rank_despite_a_large_mean(method, rng):
    # centring rounds x_n − x̄ at eps·|x_n|, far above eps·σ_1 here: the tolerance must allow it
    for r in (1, 2, 4):
        X = rng.standard_normal((60, r)) @ rng.standard_normal((r, 30)) + 50 * rng.normal(size=30)
        with pytest.raises(ValueError, match=f"Component {r + 1} of X has numerically zero"):
            PCA(method=method, whiten=True).fit(X)
        assert PCA(r, method=method, whiten=True).fit(X).n_components_ == r


@pytest.mark.parametrize("method", METHODS)
def test_any_failed_fit_or_refit_leaves_the_estimator_unfitted(method):
    X_line = np.outer(np.arange(6.0), [1.0, 2.0, 3.0])           # rank 1 after centring
    params = {"method": method, "n_components": 2, "whiten": method != "dual"}
    pca = PCA(**params)
    with pytest.raises(ValueError, match="numerically zero variance"):
        pca.fit(X_line)
    assert not any(name.endswith("_") for name in vars(pca))
    with pytest.raises(ValueError, match="not fitted yet"):
        pca.transform(X_line)
    # a good fit, then a refit that fails: in the decomposition (no variance) or in validation
    failures = [({}, np.ones((4, 3)), "X has no variance"),
                ({"n_components": 50}, X_line, "n_components=50 is larger than the data allow"),
                ({"method": "nope"}, X_line, "method"),
                ({}, np.full((6, 3), np.nan), "X")]
    for bad_params, X_bad, message in failures:
        pca.set_params(**{**params, "n_components": 1}).fit(X_line)
        assert pca.n_components_ == 1
        with pytest.raises(ValueError, match=message):
            pca.set_params(**bad_params).fit(X_bad)
        assert not any(name.endswith("_") for name in vars(pca))
        with pytest.raises(ValueError, match="not fitted yet"):
            pca.transform(X_line)


def test_refit_starts_fresh_and_params(rng):
    pca = PCA(3, method="svd")
    pca.fit(spread_data(rng, 50, 6))
    pca.set_params(n_components=2).fit(spread_data(rng, 30, 4))
    assert pca.components_.shape == (2, 4) and pca.n_features_in_ == 4
    assert pca.get_params() == {"method": "svd", "n_components": 2, "whiten": False}
    assert repr(pca) == "PCA(method='svd', n_components=2)"


# --- profile likelihood ---------------------------------------------------------------------------

def test_profile_likelihood_is_sum_of_gaussian_log_densities(rng):
    lam = np.sort(rng.gamma(1.0, size=15))[::-1]
    ll, best = profile_likelihood(lam)
    p = lam.size
    direct = []
    for L in range(1, p):
        head, tail = lam[:L], lam[L:]
        sigma = np.sqrt((np.sum((head - head.mean()) ** 2) + np.sum((tail - tail.mean()) ** 2)) / p)
        direct.append(stats.norm.logpdf(head, head.mean(), sigma).sum()
                      + stats.norm.logpdf(tail, tail.mean(), sigma).sum())
    np.testing.assert_allclose(ll, direct, rtol=1e-12)
    assert best == np.argmax(direct) + 1          # the split with the largest direct likelihood


def test_profile_likelihood_finds_the_gap_and_ignores_order_and_scale(rng):
    lam = np.r_[10 + rng.normal(0, 0.3, 4), 1 + rng.normal(0, 0.3, 11)]
    ll, best = profile_likelihood(lam)
    assert best == 4
    ll2, best2 = profile_likelihood(rng.permutation(lam) * 1e3)
    assert best2 == 4
    np.testing.assert_allclose(ll2 - ll, -15 * np.log(1e3), rtol=1e-12)


def test_profile_likelihood_accepts_rounding_of_a_zero_eigenvalue():
    _, best = profile_likelihood([9.0, 8.0, 1.0, 0.5, -1e-16])        # eigh's rounding of 0
    assert best == 2


def test_profile_likelihood_exact_two_groups():
    ll, best = profile_likelihood([5.0, 5.0, 1.0, 1.0, 1.0])
    assert best == 2 and ll[1] == np.inf and np.isfinite(ll[[0, 2, 3]]).all()


@pytest.mark.parametrize("values, match", [
    ([3.0, 1.0], "at least 3 sample"),
    ([[3.0, 2.0, 1.0]], "eigenvalues must be a 1-D array"),
    ([3.0, np.nan, 1.0], "eigenvalues contains NaN"),
    ([3.0, np.inf, 1.0], "eigenvalues contains infinite"),
    ([2.0, 2.0, 2.0, 2.0], "all equal"),
    ([-1.0, -2.0, -5.0, -6.0], r"eigenvalues must be non-negative \(variances\); got -6"),
    ([5.0, 3.0, 1.0, -1e-3], "eigenvalues must be non-negative"),
])
def test_profile_likelihood_rejects_bad_input(values, match):
    with pytest.raises(ValueError, match=match):
        profile_likelihood(values)


# --- Fisher's discriminant ------------------------------------------------------------------------

def two_classes(rng, n=80):
    cov = np.array([[4.0, 1.9], [1.9, 1.0]])
    X = np.vstack([rng.multivariate_normal([0, 0], cov, n), rng.multivariate_normal([1, -1], cov, n)])
    return np.c_[X, rng.normal(size=(2 * n, 2))], np.repeat(["a", "b"], n)


def test_fisher_direction_matches_sklearn_lda(rng):
    X, y = two_classes(rng)
    w = fisher_direction(X, y)
    coef = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y).coef_[0]
    np.testing.assert_allclose(w, coef / np.linalg.norm(coef), atol=1e-10)
    assert np.linalg.norm(w) == pytest.approx(1.0)
    assert w @ (X[y == "b"].mean(0) - X[y == "a"].mean(0)) > 0


def test_fisher_direction_maximises_the_criterion(rng):
    X, y = two_classes(rng)
    w = fisher_direction(X, y)
    others = rng.standard_normal((2000, X.shape[1]))
    best = fisher_criterion(X, y, w)
    assert isinstance(best, float)
    assert np.all(fisher_criterion(X, y, others) <= best * (1 + 1e-12))
    assert fisher_criterion(X, y, 3.7 * w) == pytest.approx(best, rel=1e-12)
    assert best > fisher_criterion(X, y, PCA(1).fit(X).components_[0])


@pytest.mark.parametrize("X, y, match", [
    (np.ones((4, 2)) * [[1], [2], [3], [4]], [0, 0, 1, 1], "within-class scatter S_W of X is singular"),
    (np.eye(3), [0, 1, 2], "this model needs exactly 2"),
    (np.eye(3), [0, 1], "X has 3, y has 2"),
    ([[0.0, np.nan], [1, 2], [3, 4]], [0, 1, 1], "X contains NaN"),
    ([1.0, 2.0, 3.0], [0, 1, 1], "X must be a 2-D array"),
])
def test_fisher_direction_rejects_bad_input(X, y, match):
    with pytest.raises(ValueError, match=match):
        fisher_direction(X, y)


def test_fisher_criterion_rejects_bad_w(rng):
    X, y = two_classes(rng)
    with pytest.raises(ValueError, match="w has 3 entries per direction; X has 4"):
        fisher_criterion(X, y, [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="zero within-class variance"):
        fisher_criterion(X, y, np.zeros(4))


# --- bad input ----------------------------------------------------------------------------------

GOOD = np.arange(12.0).reshape(4, 3) ** 1.5


@pytest.mark.parametrize("X, params, match", [
    (GOOD, {"n_components": 4}, r"n_components=4 is larger than the data allow: at most 3"),
    (GOOD.T, {"n_components": 4}, r"at most 3 \(min\(n_samples, n_features\)\)"),
    (GOOD, {"n_components": 4, "method": "dual"}, r"at most 3 \(N − 1"),
    (GOOD.T, {"n_components": 3, "method": "dual"}, r"at most 2 \(N − 1"),
    (GOOD, {"n_components": 0}, "n_components must be >= 1"),
    (GOOD, {"n_components": 1.5}, "n_components must be an integer"),
    (GOOD, {"method": "power"}, "Unknown method 'power'; choose one of 'eig', 'svd', 'dual'"),
    (GOOD, {"whiten": "yes"}, "whiten must be True or False"),
    (np.where(GOOD > 20, np.nan, GOOD), {}, "X contains NaN"),
    (np.where(GOOD > 20, np.inf, GOOD), {}, "X contains infinite"),
    (GOOD[:, 0], {}, r"X must be a 2-D array.*X.reshape\(-1, 1\)"),
    (GOOD[:1], {}, "X must have at least 2 sample"),
    ([["a", "b"], ["c", "d"]], {}, "X must be numeric"),
])
def test_pca_rejects_bad_input(X, params, match):
    with pytest.raises(ValueError, match=match):
        PCA(**params).fit(X)


def test_dual_route_rejects_components_without_variance():
    X = np.c_[GOOD[:, :2], GOOD[:, :2] @ [1.0, 2.0]]   # centred rank 2 < min(N − 1, D) = 3
    with pytest.raises(ValueError, match=r"Component 3 of X has numerically zero variance \(at "
                                         r"most .* = eps·max\(N, D\)·σ₁²/\(N − 1\), σ₁ the largest "
                                         r"singular value of the centred X; the rounding "
                                         r"level of the 'dual' route\) and cannot be mapped back "
                                         r"by the dual route"):
        PCA(3, method="dual").fit(X)
    assert PCA(method="dual").fit(X).n_components_ == 2


@pytest.mark.parametrize("params, what", [({"method": "dual"}, "mapped back by the dual route"),
                                           ({"method": "dual", "n_components": 2}, "mapped back"),
                                           ({"whiten": True}, "whitened"),
                                           ({"whiten": True, "method": "svd"}, "whitened")])
def test_constant_X_has_no_component_to_whiten_or_map_back(params, what):
    for X in (np.ones((5, 10)), np.full((6, 3), 2.5)):
        with pytest.raises(ValueError, match=f"X has no variance \\(all its rows are equal\\), "
                                             f"so no component can be {what}"):
            PCA(**params).fit(X)
    assert PCA().fit(np.ones((5, 10))).explained_variance_ratio_.sum() == 0   # plain PCA: fine


def test_transform_before_fit_and_wrong_width():
    pca = PCA(2)
    with pytest.raises(ValueError, match="not fitted yet"):
        pca.transform(GOOD)
    pca.fit(GOOD)
    with pytest.raises(ValueError, match="X has 2 features; this PCA expects 3"):
        pca.transform(GOOD[:, :2])
    with pytest.raises(ValueError, match="Z has 3 features; this PCA expects 2"):
        pca.inverse_transform(GOOD)


def test_plot_image_grid():
    import matplotlib.pyplot as plt

    from mlcourse.plotting import plot_image_grid
    ax = plot_image_grid(np.arange(5 * 6.0).reshape(5, 6), (2, 3), ncols=3, row_labels=["a", "b"])
    mosaic = ax.get_images()[0].get_array()
    assert mosaic.shape == (2 * 2 + 1, 3 * 3 + 2)
    np.testing.assert_array_equal(mosaic[3:5, 4:7], [[24, 25, 26], [27, 28, 29]])  # image 4
    assert np.ma.is_masked(mosaic[2, 0]) or np.isnan(mosaic[2, 0])              # the gap
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    with pytest.raises(ValueError, match=r"images must have shape \(n, 6\)"):
        plot_image_grid(np.zeros((5, 5)), (2, 3))
    plt.close("all")
