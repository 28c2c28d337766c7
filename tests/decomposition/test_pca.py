"""mlcourse.pca against scikit-learn, SciPy and the lectures' examples, and on bad input.

Tolerances come from the numerics (as in book/pca.ipynb): every route is backward stable, exact
for data or a scatter matrix changed by about eps·max(N, D) relative; the tests allow
rounding(X) = 10·eps·max(N, D, 10), the 10s for the constant factors that the error bounds leave
out. See ``route_tolerances``.
"""

from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats
from sklearn.decomposition import PCA as SkPCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from mlcourse.checks import EPS, relative_rounding
from mlcourse.linear import fisher_criterion, fisher_direction
from mlcourse.pca import PCA, profile_likelihood

METHODS = ["eig", "svd", "dual"]


def rounding(X):
    """10·eps·max(N, D, 10), the relative rounding error of a decomposition of X:
    mlcourse.checks.relative_rounding of its shape, as in the chapter."""
    return relative_rounding(*np.shape(X))


def route_tolerances(X, k):
    """Bounds on the difference of two computations of a k-component PCA of X (two routes, or a
    route and scikit-learn), each twice the bound on one computation.

    Every route is exact for the scatter XcᵀXc changed by at most d = rounding(X)·σ_1² (σ_i the
    singular values of the centred X): each σ_i² moves by at most d, each unit component by
    d / gap_i (Davis–Kahan, gap_i the distance from σ_i² to the nearest other σ_j²), which the
    dual route's map back, u = Xcᵀv/σ, multiplies by up to σ_1/σ_k. A projection on a component
    is off by the largest centred point, r, times that; a reconstruction depends only on the
    span of the k components, each row off by at most r·√k times it. Whitening divides by
    σ_k/√(N − 1), and its identity covariance holds to d/σ_k² (the decomposition is consistent with
    the scatter it was computed from) plus the rounding of the centred data, rounding(X)·max|x|,
    in each whitened coordinate.
    """
    n = len(X)
    Xc = X - X.mean(axis=0)
    s2 = np.r_[np.linalg.svd(Xc, compute_uv=False) ** 2, 0.0]  # σ_i², then a zero
    level = rounding(X)
    d = level * s2[0]
    gap = np.minimum(np.r_[np.inf, s2[: k - 1] - s2[1:k]], s2[:k] - s2[1 : k + 1])
    comp = 2 * d / gap.min() * np.sqrt(s2[0] / s2[k - 1])
    r = np.linalg.norm(Xc, axis=1).max()
    proj = np.sqrt(k) * r * comp + level * np.abs(X).max()
    sd_k = np.sqrt(s2[k - 1] / (n - 1))  # the smallest kept std
    return SimpleNamespace(
        var=2 * d / (n - 1),  # explained_variance_
        ratio=(2 + X.shape[1]) * d / s2.sum(),  # explained_variance_ratio_
        sv=d / np.sqrt(s2[k - 1]),  # singular_values_
        comp=comp,  # components_, up to sign
        proj=proj,  # transform, reconstructions
        white=(proj + r * d / s2[k - 1]) / sd_k,  # whitened transform
        white_mean=level * np.abs(X).max() / sd_k,  # its mean (zero)
        white_cov=d / s2[k - 1]
        + 2 * r / sd_k * level * np.abs(X).max() / sd_k,  # its cov (I)
    )


def spread_data(rng, n, d, rank=None):
    """Data of rank r with variances from 100 down to 1, geometrically spaced: neighbours differ by
    at least 9 %, so every component is well determined by all three routes (the eig route
    loses accuracy only for variances near eps·λ_max) and no near-ties need special care."""
    r = min(n - 1, d) if rank is None else rank
    scales = 10 * 0.1 ** (np.arange(r) / max(r - 1, 1))
    basis = np.linalg.qr(rng.standard_normal((d, r)))[0]
    Z = rng.standard_normal((n, r))
    Z = np.linalg.qr(Z - Z.mean(0))[0] * np.sqrt(n - 1)  # exactly uncorrelated scores
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
    tol = route_tolerances(X, k)
    np.testing.assert_allclose(
        align(ours.components_, sk.components_), sk.components_, rtol=0, atol=tol.comp
    )
    np.testing.assert_allclose(
        ours.explained_variance_, sk.explained_variance_, rtol=0, atol=tol.var
    )
    # the divisor N instead of N − 1 would be off by explained_variance_/N
    assert (
        np.abs(ours.explained_variance_ * (n - 1) / n - sk.explained_variance_).max()
        > tol.var
    )
    np.testing.assert_allclose(
        ours.explained_variance_ratio_,
        sk.explained_variance_ratio_,
        rtol=0,
        atol=tol.ratio,
    )
    np.testing.assert_allclose(
        ours.singular_values_, sk.singular_values_, rtol=0, atol=tol.sv
    )
    np.testing.assert_allclose(
        ours.mean_, sk.mean_, rtol=0, atol=rounding(X) * np.abs(X).max()
    )
    signs = np.sign(np.sum(ours.components_ * sk.components_, axis=1))
    np.testing.assert_allclose(
        ours.transform(X) * signs, sk.transform(X), rtol=0, atol=tol.proj
    )
    Z = sk.transform(X)
    np.testing.assert_allclose(
        ours.inverse_transform(Z * signs),
        sk.inverse_transform(Z),
        rtol=0,
        atol=tol.proj,
    )


@pytest.mark.parametrize("method", METHODS)
def test_whitening_matches_sklearn_and_has_identity_covariance(method, rng):
    X, k = spread_data(rng, 60, 15), 6
    ours = PCA(k, method=method, whiten=True).fit(X)
    sk = SkPCA(k, svd_solver="full", whiten=True).fit(X)
    tol = route_tolerances(X, k)
    Z = ours.transform(X)
    np.testing.assert_allclose(Z.mean(0), 0, rtol=0, atol=tol.white_mean)
    np.testing.assert_allclose(
        np.cov(Z, rowvar=False), np.eye(k), rtol=0, atol=tol.white_cov
    )
    # the divisor N instead of N − 1 would be off by 1/N
    assert np.abs(np.cov(Z, rowvar=False, bias=True) - np.eye(k)).max() > tol.white_cov
    signs = np.sign(np.sum(ours.components_ * sk.components_, axis=1))
    np.testing.assert_allclose(Z * signs, sk.transform(X), rtol=0, atol=tol.white)
    # whitening cancels in the reconstruction: the projection of X on the span, both ways
    np.testing.assert_allclose(
        ours.inverse_transform(Z),
        sk.inverse_transform(sk.transform(X)),
        rtol=0,
        atol=tol.proj,
    )


def test_sign_convention_is_sklearns(rng):
    X = spread_data(rng, 100, 8)
    for method in METHODS:
        comps = PCA(method=method).fit(X).components_
        top = comps[np.arange(len(comps)), np.argmax(np.abs(comps), axis=1)]
        assert np.all(top > 0)
        np.testing.assert_allclose(
            comps,
            SkPCA(svd_solver="full").fit(X).components_[: len(comps)],
            rtol=0,
            atol=route_tolerances(X, len(comps)).comp,
        )


def test_three_routes_agree_on_wide_data(rng):
    X = spread_data(rng, 25, 300)
    n, d = X.shape
    r = n - 1  # the rank of the centred data
    fits = [PCA(method=m).fit(X) for m in METHODS]
    assert [f.n_components_ for f in fits] == [
        min(n, d),
        min(n, d),
        r,
    ]  # dual: non-zero ones
    tol = route_tolerances(X, r)
    for f in fits[:2]:
        np.testing.assert_allclose(
            f.components_[:r], fits[2].components_, rtol=0, atol=tol.comp
        )
        np.testing.assert_allclose(
            f.explained_variance_[:r], fits[2].explained_variance_, rtol=0, atol=tol.var
        )
    # the zero variance beyond the rank is rounding: at most d / (N − 1), half of tol.var
    assert fits[0].explained_variance_[r] <= tol.var / 2


def test_lecture_004_eigen_example():
    # points on the line t·(1, 2) with var(t) = 1: sample covariance exactly [[1, 2], [2, 4]]
    t = np.array([-1.5, -0.5, 0.5, 1.5])
    t = t / t.std(ddof=1)
    X = np.outer(t, [1.0, 2.0])
    lam, U = (
        np.array([5.0, 0.0]),
        np.array([[1.0, 2.0], [2.0, -1.0]]),
    )  # the lecture's, as rows
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    level = rounding(
        X
    )  # eigenvalues off by level·λ_1; components by that over the gap, λ_1
    np.testing.assert_allclose(np.cov(X, rowvar=False), [[1, 2], [2, 4]], rtol=level)
    pca = PCA(method="eig").fit(X)
    np.testing.assert_allclose(
        pca.explained_variance_, lam, rtol=0, atol=level * lam[0]
    )
    np.testing.assert_allclose(pca.components_, U, rtol=0, atol=level)
    with pytest.raises(
        ValueError, match="Component 2 of X has numerically zero variance"
    ):
        PCA(method="eig", whiten=True).fit(X)
    dual = PCA(method="dual").fit(X)  # keeps only the non-zero variance
    np.testing.assert_allclose(dual.components_, U[:1], rtol=0, atol=level)


@pytest.mark.parametrize("method", METHODS)
def test_min_error_is_sum_of_discarded_eigenvalues(method, rng):
    X = spread_data(rng, 40, 10)
    d = X.shape[1]
    lam = np.linalg.eigvalsh(np.cov(X, rowvar=False, bias=True))[
        ::-1
    ]  # eigenvalues of S (1/N)
    # J sums up to D eigenvalues, each off by rounding·λ_1; the measured error of squares rounds
    # at the scale of the mean ‖x_n‖²
    tol = rounding(X) * (d * lam[0] + np.mean(np.sum(X**2, axis=1)))
    for m in range(1, d):
        pca = PCA(m, method=method).fit(X)
        J = np.mean(np.sum((X - pca.inverse_transform(pca.transform(X))) ** 2, axis=1))
        assert J == pytest.approx(lam[m:].sum(), rel=0, abs=tol)


@pytest.mark.parametrize("whiten", [False, True])
@pytest.mark.parametrize("method", METHODS)
def test_fit_transform_matches_sklearn(method, whiten, rng):
    X, k = spread_data(rng, 50, 12), 5
    ours = PCA(k, method=method, whiten=whiten)
    Z = ours.fit_transform(X)
    Z_sk = SkPCA(k, svd_solver="full", whiten=whiten).fit_transform(X)
    tol = route_tolerances(X, k)
    signs = np.sign(np.sum(Z * Z_sk, axis=0))  # each column up to sign
    np.testing.assert_allclose(
        Z * signs, Z_sk, rtol=0, atol=tol.white if whiten else tol.proj
    )
    # the same fitted model: at most the rounding of recomputing the projections
    np.testing.assert_allclose(
        Z, ours.transform(X), rtol=0, atol=rounding(X) * np.abs(Z).max()
    )


def test_svd_route_whitens_variances_the_eig_route_cannot_resolve(rng):
    # singular values 1 … 1e-10: λ_5/λ_1 = 1e-20 is below the eig route's rounding level
    # eps·max(N, D) ≈ 4e-14, far above the svd route's (eps·max(N, D))²·‖X‖²_F/λ_1 ≈ 2e-27
    sv = np.array([1, 1e-2, 1e-4, 1e-6, 1e-10])
    left = rng.standard_normal((200, len(sv)))
    left = np.linalg.qr(left - left.mean(axis=0))[0]  # orthonormal, centred columns
    X = left * sv @ np.linalg.qr(rng.standard_normal((len(sv), len(sv))))[0]
    with pytest.raises(
        ValueError,
        match=rf"Component {len(sv)} of X has numerically zero "
        r"variance .*the 'eig' route",
    ):
        PCA(method="eig", whiten=True).fit(X)
    Z = PCA(method="svd", whiten=True).fit_transform(X)
    # PCA's own claim (mlcourse.decomposition._pca_routes): the svd route is exact for X changed by
    # eps·max(N, D)·‖X‖_F, which is why it whitens σ_5; whitening divides that by σ_5, and
    # cov(Z) − I is twice it. The divisor N instead of N − 1 (off by 1/N) would fail.
    tol = 2 * EPS * max(X.shape) * np.linalg.norm(X) / sv[-1]
    np.testing.assert_allclose(
        np.cov(Z, rowvar=False), np.eye(len(sv)), rtol=0, atol=tol
    )
    assert np.abs(np.cov(Z, rowvar=False, bias=True) - np.eye(len(sv))).max() > tol


@pytest.mark.parametrize("method", ["eig", "svd"])
def test_whitening_refuses_exactly_beyond_the_rank_despite_a_large_mean(method, rng):
    # centring rounds x_n − x̄ at eps·|x_n|, far above eps·σ_1 here: the tolerance must allow it
    for r in (1, 2, 4):
        X = rng.standard_normal((60, r)) @ rng.standard_normal(
            (r, 30)
        ) + 50 * rng.normal(size=30)
        with pytest.raises(
            ValueError, match=f"Component {r + 1} of X has numerically zero"
        ):
            PCA(method=method, whiten=True).fit(X)
        assert PCA(r, method=method, whiten=True).fit(X).n_components_ == r


@pytest.mark.parametrize("method", METHODS)
def test_any_failed_fit_or_refit_leaves_the_estimator_unfitted(method):
    X_line = np.outer(np.arange(6.0), [1.0, 2.0, 3.0])  # rank 1 after centring
    params = {"method": method, "n_components": 2, "whiten": method != "dual"}
    pca = PCA(**params)
    with pytest.raises(ValueError, match="numerically zero variance"):
        pca.fit(X_line)
    assert not any(name.endswith("_") for name in vars(pca))
    with pytest.raises(ValueError, match="not fitted yet"):
        pca.transform(X_line)
    # a good fit, then a refit that fails: in the decomposition (no variance) or in validation
    failures = [
        ({}, np.ones((4, 3)), "X has no variance"),
        ({"n_components": 50}, X_line, "n_components=50 is larger than the data allow"),
        ({"method": "nope"}, X_line, "method"),
        ({}, np.full((6, 3), np.nan), "X"),
    ]
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
        sigma = np.sqrt(
            (np.sum((head - head.mean()) ** 2) + np.sum((tail - tail.mean()) ** 2)) / p
        )
        direct.append(
            stats.norm.logpdf(head, head.mean(), sigma).sum()
            + stats.norm.logpdf(tail, tail.mean(), sigma).sum()
        )
    # ℓ sums p terms, by two routes: rounding·(p + |ℓ|)
    np.testing.assert_allclose(
        ll, direct, rtol=0, atol=rounding(lam) * (p + np.abs(ll).max())
    )
    assert best == np.argmax(direct) + 1  # the split with the largest direct likelihood


def test_profile_likelihood_finds_the_gap_and_ignores_order_and_scale(rng):
    lam = np.r_[10 + rng.normal(0, 0.3, 4), 1 + rng.normal(0, 0.3, 11)]
    ll, best = profile_likelihood(lam)
    assert best == 4
    scale = 1e3
    ll2, best2 = profile_likelihood(rng.permutation(lam) * scale)
    assert best2 == 4
    np.testing.assert_allclose(
        ll2 - ll,
        -lam.size * np.log(scale),
        rtol=0,
        atol=2 * rounding(lam) * (lam.size + np.abs(ll2).max()),
    )


def test_profile_likelihood_accepts_rounding_of_a_zero_eigenvalue():
    _, best = profile_likelihood([9.0, 8.0, 1.0, 0.5, -1e-16])  # eigh's rounding of 0
    assert best == 2


def test_profile_likelihood_exact_two_groups():
    ll, best = profile_likelihood([5.0, 5.0, 1.0, 1.0, 1.0])
    assert best == 2 and ll[1] == np.inf and np.isfinite(ll[[0, 2, 3]]).all()


@pytest.mark.parametrize(
    "values, match",
    [
        ([3.0, 1.0], r"2 sample\(s\).*a minimum of 3 is required"),
        ([[3.0, 2.0, 1.0]], "eigenvalues must be a 1-D array"),
        ([3.0, np.nan, 1.0], "eigenvalues contains NaN"),
        ([3.0, np.inf, 1.0], "eigenvalues contains infinity"),
        ([2.0, 2.0, 2.0, 2.0], "all equal"),
        (
            [-1.0, -2.0, -5.0, -6.0],
            r"eigenvalues must be non-negative \(variances\); got -6",
        ),
        ([5.0, 3.0, 1.0, -1e-3], "eigenvalues must be non-negative"),
    ],
)
def test_profile_likelihood_rejects_bad_input(values, match):
    with pytest.raises(ValueError, match=match):
        profile_likelihood(values)


# --- Fisher's discriminant ------------------------------------------------------------------------


def two_classes(rng, n=80):
    # Cholesky factor and the seeded Generator: the same draws with every LAPACK
    L = np.linalg.cholesky(np.array([[4.0, 1.9], [1.9, 1.0]]))
    X = np.vstack(
        [mean + rng.standard_normal((n, 2)) @ L.T for mean in ([0, 0], [1, -1])]
    )
    return np.c_[X, rng.normal(size=(2 * n, 2))], np.repeat(["a", "b"], n)


def within_scatter(X, y):
    """S_W, summed over the classes."""
    return sum(
        np.sum(y == c) * np.cov(X[y == c], rowvar=False, bias=True)
        for c in np.unique(y)
    )


def test_fisher_direction_matches_sklearn_lda(rng):
    X, y = two_classes(rng)
    w = fisher_direction(X, y)
    coef = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y).coef_[0]
    # solving with S_W multiplies the rounding by its condition number, in each of the two
    np.testing.assert_allclose(
        w,
        coef / np.linalg.norm(coef),
        rtol=0,
        atol=2 * rounding(X) * np.linalg.cond(within_scatter(X, y)),
    )
    assert np.linalg.norm(w) == pytest.approx(1.0, rel=rounding(X), abs=0)
    assert w @ (X[y == "b"].mean(0) - X[y == "a"].mean(0)) > 0


def test_fisher_direction_maximises_the_criterion(rng):
    X, y = two_classes(rng)
    w = fisher_direction(X, y)
    others = rng.standard_normal((2000, X.shape[1]))
    best = fisher_criterion(X, y, w)
    assert isinstance(best, float)
    # J is a ratio of two sums over the N points, each rounded at rounding(X) relative
    assert np.all(fisher_criterion(X, y, others) <= best * (1 + 2 * rounding(X)))
    assert fisher_criterion(X, y, 3.7 * w) == pytest.approx(
        best, rel=2 * rounding(X), abs=0
    )
    assert best > fisher_criterion(X, y, PCA(1).fit(X).components_[0])


@pytest.mark.parametrize(
    "X, y, match",
    [
        (
            np.ones((4, 2)) * [[1], [2], [3], [4]],
            [0, 0, 1, 1],
            "within-class scatter S_W of X is singular",
        ),
        (np.eye(3), [0, 1, 2], "this model needs exactly 2"),
        (np.eye(3), [0, 1], "X has 3, y has 2"),
        ([[0.0, np.nan], [1, 2], [3, 4]], [0, 1, 1], "X contains NaN"),
        ([1.0, 2.0, 3.0], [0, 1, 1], "X must be a 2-D array"),
    ],
)
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


@pytest.mark.parametrize(
    "X, params, match",
    [
        (
            GOOD,
            {"n_components": 4},
            r"n_components=4 is larger than the data allow: at most 3",
        ),
        (GOOD.T, {"n_components": 4}, r"at most 3 \(min\(n_samples, n_features\)"),
        (GOOD, {"n_components": 4, "method": "dual"}, r"at most 3 \(N − 1"),
        (GOOD.T, {"n_components": 3, "method": "dual"}, r"at most 2 \(N − 1"),
        (GOOD, {"n_components": 0}, "n_components must be .*>= 1"),
        (GOOD, {"n_components": 1.5}, "n_components must be None or an integer"),
        (
            GOOD,
            {"method": "power"},
            "method must be one of 'eig', 'svd', 'dual'; got 'power'",
        ),
        (GOOD, {"whiten": "yes"}, "whiten must be True or False"),
        (np.where(GOOD > 20, np.nan, GOOD), {}, "X contains NaN"),
        (np.where(GOOD > 20, np.inf, GOOD), {}, "X contains infinity"),
        (
            GOOD[:, 0],
            {},
            r"(?s)X must be a 2-D array.*got a 1-D array.*reshape\(-1, 1\)",
        ),
        (GOOD[:1], {}, r"X has 1 sample\(s\).*a minimum of 2 is required"),
        ([["a", "b"], ["c", "d"]], {}, "X must be numeric; it holds strings"),
    ],
)
def test_pca_rejects_bad_input(X, params, match):
    with pytest.raises(ValueError, match=match):
        PCA(**params).fit(X)


def test_dual_route_rejects_components_without_variance():
    X = np.c_[
        GOOD[:, :2], GOOD[:, :2] @ [1.0, 2.0]
    ]  # centred rank 2 < min(N − 1, D) = 3
    with pytest.raises(
        ValueError,
        match=r"Component 3 of X has numerically zero variance \(at "
        r"most .* = eps·max\(N, D\)·σ₁²/\(N − 1\), σ₁ the largest "
        r"singular value of the centred X; the rounding "
        r"level of the 'dual' route\) and cannot be mapped back "
        r"by the dual route",
    ):
        PCA(3, method="dual").fit(X)
    assert PCA(method="dual").fit(X).n_components_ == 2


@pytest.mark.parametrize(
    "params, what",
    [
        ({"method": "dual"}, "mapped back by the dual route"),
        ({"method": "dual", "n_components": 2}, "mapped back"),
        ({"whiten": True}, "whitened"),
        ({"whiten": True, "method": "svd"}, "whitened"),
    ],
)
def test_constant_X_has_no_component_to_whiten_or_map_back(params, what):
    for X in (np.ones((5, 10)), np.full((6, 3), 2.5)):
        with pytest.raises(
            ValueError,
            match=f"X has no variance \\(all its rows are equal\\), "
            f"so no component can be {what}",
        ):
            PCA(**params).fit(X)
    assert (
        PCA().fit(np.ones((5, 10))).explained_variance_ratio_.sum() == 0
    )  # plain PCA: fine


def test_transform_before_fit_and_wrong_width():
    pca = PCA(2)
    with pytest.raises(ValueError, match="not fitted yet"):
        pca.transform(GOOD)
    pca.fit(GOOD)
    with pytest.raises(
        ValueError, match="X has 2 features, but PCA is expecting 3 features"
    ):
        pca.transform(GOOD[:, :2])
    with pytest.raises(
        ValueError, match="Z has 3 features, but PCA is expecting 2 features"
    ):
        pca.inverse_transform(GOOD)


def test_plot_image_grid():
    import matplotlib.pyplot as plt

    from mlcourse.plotting import plot_image_grid

    ax = plot_image_grid(
        np.arange(5 * 6.0).reshape(5, 6), (2, 3), ncols=3, row_labels=["a", "b"]
    )
    mosaic = ax.get_images()[0].get_array()
    assert mosaic.shape == (2 * 2 + 1, 3 * 3 + 2)
    np.testing.assert_array_equal(
        mosaic[3:5, 4:7], [[24, 25, 26], [27, 28, 29]]
    )  # image 4
    assert np.ma.is_masked(mosaic[2, 0]) or np.isnan(mosaic[2, 0])  # the gap
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    with pytest.raises(ValueError, match=r"images must have shape \(n, 6\)"):
        plot_image_grid(np.zeros((5, 5)), (2, 3))
    plt.close("all")


def test_image_mosaic_is_what_plot_image_grid_draws():
    """The mosaic a slider passes to set_data is the array plot_image_grid shows; a place no
    image fills is NaN, like the gaps; bad ncols and gap raise, naming the argument."""
    import matplotlib.pyplot as plt

    from mlcourse.plotting import image_mosaic, plot_image_grid

    images = np.arange(5 * 6.0).reshape(5, 6)
    mosaic = image_mosaic(images, (2, 3), ncols=3)
    drawn = plot_image_grid(images, (2, 3), ncols=3).get_images()[0].get_array()
    np.testing.assert_array_equal(np.ma.filled(drawn, np.nan), mosaic)
    assert mosaic.shape == (2 * 2 + 1, 3 * 3 + 2)
    assert np.isnan(mosaic[3:5, 8:11]).all()  # the sixth place: no image
    np.testing.assert_array_equal(
        image_mosaic(images[:2], (2, 3), gap=0),
        np.hstack([images[0].reshape(2, 3), images[1].reshape(2, 3)]),
    )
    with pytest.raises(ValueError, match="ncols must be a positive"):
        image_mosaic(images, (2, 3), ncols=0)
    with pytest.raises(ValueError, match="gap must be"):
        image_mosaic(images, (2, 3), gap=-1)
    with pytest.raises(ValueError, match=r"images must have shape \(n, 6\)"):
        image_mosaic(np.zeros(6), (2, 3))
    plt.close("all")
