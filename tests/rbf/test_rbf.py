"""mlcourse.rbf: RBF networks, kernel ridge, Nadaraya–Watson and the normalised RBF classifier,
against scikit-learn and SciPy, finite differences, quadrature and Bayes' rule; and the
clustering they build on (mlcourse.cluster): k-means and EM from scratch against scikit-learn
from the same start; the bad inputs.

Tolerances come from the numerics, said where each is used: ε = 2.2e-16 times an operand size
and a condition number for solves, quadrature error estimates, finite-difference error budgets.
"""

import warnings

import numpy as np
import pytest
from scipy import integrate, linalg, stats
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge
from sklearn.mixture import GaussianMixture
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcourse.cluster import (
    COVARIANCE_FLOOR,
    cluster_widths,
    gaussian_mixture,
    kmeans,
    kmeans_plusplus,
)
from mlcourse.exceptions import ConvergenceWarning
from mlcourse.kernels import BasisKernel, LaplacianKernel, SilvermanKernel, rbf, sq_dist
from mlcourse.rbf import (
    KernelRidge,
    NadarayaWatson,
    NormalizedRBFClassifier,
    RBFNetwork,
    gaussian_series_coefficients,
    gaussian_units,
    green_function_fft,
    green_function_quad,
    nadaraya_watson_weights,
    network_objective,
    operator_symbol,
    rbf_design,
    ridge_weights,
)

EPS = np.finfo(float).eps


def _blobs(rng, n=(60, 50, 40)):
    """Three 2-D Gaussian clusters, with labels 0, 1, 2."""
    centers = np.array([[0.0, 0.0], [3.0, 1.0], [0.5, 3.5]])
    X = np.vstack([rng.normal(size=(k, 2)) * 0.7 + c for k, c in zip(n, centers)])
    return X, np.repeat(np.arange(3), n)


def _regression(rng, n=80):
    X = rng.uniform(-3, 3, size=(n, 2))
    y = np.sin(X[:, 0]) + 0.5 * np.cos(X[:, 1]) + 0.1 * rng.normal(size=n)
    return X, y


# --- scikit-learn's estimator checks --------------------------------------------------------------


@parametrize_with_checks(
    [
        KernelRidge(),
        KernelRidge(kernel="laplacian"),
        NadarayaWatson(),
        RBFNetwork(),
        RBFNetwork(method="gradient", max_iter=20),
        RBFNetwork(method="alternating", max_iter=5),
        NormalizedRBFClassifier(),
    ]
)
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        # the supervised modes stop at their small max_iter here; that is not under test
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


# --- regularised least squares: primal and dual -------------------------------------------------


def _solve_bound(A, rhs_scale, n):
    """A forward-error bound for a Cholesky solve with A: n·ε·cond(A) times the solution's size
    (Higham, Accuracy and Stability, Thm 10.4 with the backward error c·n·ε, c ≤ 3)."""
    w = np.linalg.eigvalsh(A)
    return 3 * n * EPS * (w[-1] / w[0]) * rhs_scale


@pytest.mark.parametrize("N, M", [(50, 8), (12, 30)])
def test_primal_and_dual_routes_give_the_same_weights(rng, N, M):
    """(ΦᵀΦ + λI)⁻¹ΦᵀT = Φᵀ(ΦΦᵀ + λI)⁻¹T (push-through identity), both smaller and larger M."""
    X = rng.normal(size=(N, 2))
    T = rng.normal(size=(N, 3))
    km = kmeans(X, min(M, N), random_state=0)
    centers = np.vstack([km.centers, rng.normal(size=(M - len(km.centers), 2))])
    Phi = rbf_design(X, centers, np.full(M, 1.0))
    lam = 1e-2
    primal = ridge_weights(Phi, T, lam, route="primal")
    dual = ridge_weights(Phi, T, lam, route="dual")
    auto = ridge_weights(Phi, T, lam)
    np.testing.assert_array_equal(auto, dual if N < Phi.shape[1] else primal)
    scale = np.abs(primal).max()
    bound = max(
        _solve_bound(Phi.T @ Phi + lam * np.eye(M + 1), scale, M + 1),
        _solve_bound(Phi @ Phi.T + lam * np.eye(N), scale, N),
    )
    np.testing.assert_allclose(primal, dual, rtol=0, atol=bound)
    # and the normal equations hold: the gradient of E vanishes
    grad = (Phi.T @ Phi + lam * np.eye(M + 1)) @ primal - Phi.T @ T
    assert np.abs(grad).max() < bound * np.linalg.norm(
        Phi.T @ Phi + lam * np.eye(M + 1), 2
    )


def test_ridge_weights_1d_targets_and_bad_route(rng):
    Phi, t = rng.normal(size=(10, 4)), rng.normal(size=10)
    w = ridge_weights(Phi, t, 0.1)
    assert w.shape == (4,)
    np.testing.assert_allclose(w, ridge_weights(Phi, t[:, None], 0.1)[:, 0], rtol=1e-15)
    with pytest.raises(ValueError, match="route must be one of .*; got 'qr'"):
        ridge_weights(Phi, t, 0.1, route="qr")
    with pytest.raises(ValueError, match="alpha must be .*>= 0"):
        ridge_weights(Phi, t, -1.0)


def test_singular_system_falls_back_to_minimum_norm_least_squares():
    """λ = 0 with a unit that never fires (a zero column): ΦᵀΦ has a zero pivot, so Cholesky
    fails; lstsq's minimum-norm solution gives that unit weight 0, with a warning."""
    Phi = np.column_stack([np.ones(6), np.arange(6.0), np.zeros(6)])
    t = np.arange(6.0) * 2 + 1
    with pytest.warns(RuntimeWarning, match="numerically singular"):
        w = ridge_weights(Phi, t, 0.0, route="primal")
    np.testing.assert_allclose(w, [1.0, 2.0, 0.0], atol=1e-12)


def test_rbf_network_equals_kernel_ridge_with_its_basis_kernel(rng):
    """The network's predictions are g(x)ᵀ(G + λI)⁻¹t with g, G from the kernel φ̃(x)ᵀφ̃(x′):
    the dual form (lecture 002, "Optimal Weights of RBF") through a different estimator."""
    X, y = _regression(rng)
    net = RBFNetwork(n_centers=12, alpha=1e-3, random_state=0).fit(X, y)
    basis = BasisKernel(lambda Z: rbf_design(Z, net.centers_, net.widths_), 1.0)
    kr = KernelRidge(alpha=1e-3, kernel=basis).fit(X, y)
    Xs = rng.uniform(-3, 3, size=(30, 2))
    Phi = rbf_design(X, net.centers_, net.widths_)
    A = Phi.T @ Phi + 1e-3 * np.eye(Phi.shape[1])
    bound = max(
        _solve_bound(A, np.abs(net.coef_).max(), A.shape[0]),
        _solve_bound(
            Phi @ Phi.T + 1e-3 * np.eye(len(X)), np.abs(kr.dual_coef_).max(), len(X)
        )
        * np.abs(Phi).sum(axis=0).max(),
    )
    np.testing.assert_allclose(
        net.predict(Xs),
        kr.predict(Xs),
        rtol=0,
        atol=bound * rbf_design(Xs, net.centers_, net.widths_).sum(1).max(),
    )


def test_rbf_network_coefficients_follow_the_targets_shape(rng):
    X, y = _regression(rng, 40)
    one = RBFNetwork(n_centers=5, random_state=0).fit(X, y)
    two = RBFNetwork(n_centers=5, random_state=0).fit(X, np.c_[y, 2 * y])
    assert one.coef_.shape == (5,) and isinstance(one.intercept_, float)
    assert two.coef_.shape == (2, 5) and two.intercept_.shape == (2,)
    assert one.transform(X).shape == (40, 5) and two.predict(X).shape == (40, 2)
    np.testing.assert_allclose(
        two.predict(X)[:, 1], 2 * one.predict(X), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_array_equal(
        one.transform(X), gaussian_units(X, one.centers_, one.widths_)
    )
    fixed = RBFNetwork(n_centers=5, width=0.8, random_state=0).fit(X, y)
    np.testing.assert_array_equal(fixed.widths_, 0.8)


# --- supervised training: gradients and the two schemes -----------------------------------------


def _central(f, x, h):
    """Central differences of f at x, one coordinate at a time."""
    out = np.empty_like(x)
    for i in range(len(x)):
        e = np.zeros_like(x)
        e[i] = h
        out[i] = (f(x + e) - f(x - e)) / (2 * h)
    return out


def test_network_gradients_match_finite_differences(rng):
    """The lecture's eqs (1)–(3) plus λW against central differences. Budget per component:
    truncation ≈ |D(h) − D(2h)|/3 (the h² term quadruples from h to 2h) plus rounding
    ε·|J|/h; the tolerance is 10 times it (and 1e-12 relative to the gradient's size)."""
    X, y = _regression(rng, 30)
    T = np.c_[y, y**2]
    M = 4
    centers = X[:M] + 0.1
    widths = np.array([0.7, 1.0, 1.3, 0.9])
    W = rng.normal(size=(2, M + 1))
    alpha = 0.05
    J, (dW, dc, ds) = network_objective(X, T, W, centers, widths, alpha)
    theta = np.concatenate([W.ravel(), centers.ravel(), widths])

    def f(th):
        return network_objective(
            X, T, th[:10].reshape(2, 5), th[10:18].reshape(4, 2), th[18:], alpha
        )[0]

    h = 1e-4
    d1, d2 = _central(f, theta, h), _central(f, theta, 2 * h)
    budget = np.abs(d1 - d2) / 3 + EPS * abs(J) / h
    analytic = np.concatenate([dW.ravel(), dc.ravel(), ds])
    assert np.all(np.abs(analytic - d1) <= 10 * budget + 1e-12 * np.abs(analytic).max())
    # a slip the check must catch: σ² for σ³ in eq (3)
    assert np.abs(ds * widths - d1[18:]).max() > 100 * budget[18:].max()


def test_gradient_and_alternating_training_lower_J(rng):
    """Both supervised schemes start from the k-means network and end lower; the alternating
    scheme's J never rises (each half-step is a minimisation), nor does L-BFGS-B's (its line
    search accepts only decreases)."""
    X, y = _regression(rng)
    base = RBFNetwork(n_centers=6, random_state=0).fit(X, y)
    joint = RBFNetwork(
        n_centers=6, method="gradient", max_iter=300, random_state=0
    ).fit(X, y)
    alt = RBFNetwork(
        n_centers=6, method="alternating", max_iter=50, random_state=0
    ).fit(X, y)
    for net in (joint, alt):
        assert net.loss_curve_[0] == pytest.approx(base.loss_, rel=1e-12)
        assert net.loss_ < 0.5 * base.loss_
        assert np.all(np.diff(net.loss_curve_) <= 0)
    P = rbf_design(X, alt.centers_, alt.widths_)
    np.testing.assert_allclose(
        np.r_[alt.intercept_, alt.coef_],
        ridge_weights(P, y, 1e-6),
        rtol=1e-12,
        atol=1e-12,
    )  # the last half-step is least squares
    assert joint.loss_ == pytest.approx(
        network_objective(
            X,
            y[:, None],
            np.r_[joint.intercept_, joint.coef_][None],
            joint.centers_,
            joint.widths_,
            1e-6,
        )[0],
        rel=1e-12,
    )


# --- k-means and the widths ----------------------------------------------------------------------


def test_kmeans_matches_sklearn_from_the_same_start(rng):
    """Lloyd's iterations from the same centres: the same labels, and centres that are means of
    the same points, summed in another order (a few ε times |x| ≈ 5)."""
    X, _ = _blobs(rng)
    C0 = kmeans_plusplus(X, 5, random_state=0)
    ours = kmeans(X, 5, init=C0, tol=0)
    sk = KMeans(5, init=C0, n_init=1, algorithm="lloyd", tol=0).fit(X)
    np.testing.assert_array_equal(ours.labels, sk.labels_)
    np.testing.assert_allclose(ours.centers, sk.cluster_centers_, rtol=0, atol=1e-13)
    assert ours.converged and ours.inertia == pytest.approx(sk.inertia_, rel=1e-12)


def test_kmeans_is_seeded_and_never_raises_the_distortion(rng):
    X, _ = _blobs(rng)
    a, b = kmeans(X, 4, random_state=3), kmeans(X, 4, random_state=3)
    np.testing.assert_array_equal(a.centers, b.centers)
    init = kmeans_plusplus(X, 4, random_state=3)
    start = np.sum(np.min(((X[:, None] - init) ** 2).sum(-1), axis=1))
    assert a.inertia <= start


def _plain_lloyd(X, centers, max_iter=300, tol=1e-4):
    """Lloyd's iterations with every distance computed, then the labels at the final centres
    by :func:`sq_dist` (the rule the bounds must reproduce)."""
    from mlcourse.cluster._kmeans import _means, _partial_sq_dist

    threshold = tol * np.mean(np.var(X, axis=0))
    labels = np.full(len(X), -1)
    for n_iter in range(1, max_iter + 1):
        new = np.argmin(_partial_sq_dist(X, centers), axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
        sums, counts = _means(X, labels, len(centers))
        assert (counts > 0).all()  # the cases below never empty a cluster
        new_centers = sums / counts[:, None]
        shift = np.sum((new_centers - centers) ** 2)
        centers = new_centers
        if shift <= threshold:
            break
    return centers, np.argmin(sq_dist(X, centers), axis=1), n_iter


@pytest.mark.parametrize("case", ["uniform", "blobs", "grid", "duplicates"])
def test_kmeans_bounds_give_the_plain_iterations(case):
    """The assignment step skips points by Hamerly's bounds; the labels, the iteration count and
    the centres (the same sums of the same points) must be exactly those of the plain step, also
    with exact ties (integer grid) and repeated points."""
    rng = np.random.default_rng(7)
    if case == "uniform":
        X = rng.uniform(-2, 2, size=(3000, 5))
    elif case == "blobs":
        X = rng.normal(size=(2000, 3)) + 6 * rng.integers(0, 4, size=(2000, 1))
    elif case == "grid":
        X = rng.integers(0, 5, size=(1500, 2)).astype(float)
    else:
        X = np.repeat(rng.normal(size=(300, 4)), 5, axis=0)
    M = 40 if case != "grid" else 12
    init = kmeans_plusplus(X, M, random_state=1)
    ours = kmeans(X, M, init=init)
    centers, labels, n_iter = _plain_lloyd(X, init)
    assert ours.n_iter == n_iter
    np.testing.assert_array_equal(ours.labels, labels)
    np.testing.assert_array_equal(ours.centers, centers)


def test_empty_cluster_is_reseeded_deterministically():
    """A starting centre far from every point gets no points; it is moved to the point farthest
    from its own centre (here the outlier at x = 10), the same way every time."""
    X = np.array([[0.0], [0.1], [0.2], [1.0], [1.1], [10.0]])
    init = np.array([[0.1], [1.0], [100.0]])
    r1, r2 = kmeans(X, 3, init=init), kmeans(X, 3, init=init)
    np.testing.assert_array_equal(r1.centers, r2.centers)
    np.testing.assert_allclose(np.sort(r1.centers[:, 0]), [0.1, 1.05, 10.0], atol=1e-15)


def test_cluster_widths_are_rms_distances_with_fallbacks():
    X = np.array([[0.0, 0.0], [2.0, 0.0], [5.0, 5.0], [5.0, 5.0], [9.0, 0.0]])
    centers = np.array([[1.0, 0.0], [5.0, 5.0], [9.0, 0.0]])
    labels = np.array([0, 0, 1, 1, 2])
    np.testing.assert_allclose(cluster_widths(X, centers, labels), [1.0, 1.0, 1.0])
    # no cluster has spread: the median distance to the nearest other centre
    pts = np.array([[0.0], [1.0], [3.0]])
    np.testing.assert_allclose(cluster_widths(pts, pts, np.arange(3)), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(cluster_widths(pts[:1], pts[:1], [0]), [1.0])


# --- the Gaussian mixture and the normalised RBF classifier ------------------------------------


def test_em_matches_sklearn_from_the_same_start(rng):
    """Thirty EM iterations from the same parameters, with the same covariance floor: the same
    means, covariances and weights. EM contracts towards its fixed point, so the two routes'
    rounding differences (densities through Σ's or through precision Cholesky factors) do not
    grow; 1e-10 is a few hundred ε for these O(1) parameters."""
    X, _ = _blobs(rng)
    K = 30
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mix = gaussian_mixture(X, 3, random_state=0, max_iter=K, tol=0)
        start = gaussian_mixture(X, 3, random_state=0, max_iter=1, tol=0)
    # the start: one EM iteration back from `start` is the k-means M-step; rebuild it
    labels = kmeans(X, 3, random_state=np.random.default_rng(0)).labels
    R = np.eye(3)[labels]
    Nk = R.sum(0)
    means = R.T @ X / Nk[:, None]
    covs = np.array(
        [(R[:, j] * (X - means[j]).T) @ (X - means[j]) / Nk[j] for j in range(3)]
    )
    covs += mix.floor * np.eye(2)
    prec = np.array([linalg.cho_solve(linalg.cho_factor(c), np.eye(2)) for c in covs])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        sk = GaussianMixture(
            3,
            weights_init=Nk / len(X),
            means_init=means,
            precisions_init=prec,
            reg_covar=mix.floor,
            tol=0,
            max_iter=K,
        ).fit(X)
        sk1 = GaussianMixture(
            3,
            weights_init=Nk / len(X),
            means_init=means,
            precisions_init=prec,
            reg_covar=mix.floor,
            tol=0,
            max_iter=1,
        ).fit(X)
    np.testing.assert_allclose(start.means, sk1.means_, rtol=0, atol=1e-12)
    for ours, theirs in (
        (mix.means, sk.means_),
        (mix.covariances, sk.covariances_),
        (mix.weights, sk.weights_),
    ):
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10)
    assert mix.floor == COVARIANCE_FLOOR * np.mean(np.var(X, axis=0))
    assert np.all(np.diff(mix.log_likelihood) >= -1e-12)


def test_degenerate_component_keeps_the_covariance_floor():
    """Four distinct points, four components: each collapses onto one point, with covariance
    exactly the floor, and every density stays finite."""
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]] * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mix = gaussian_mixture(X, 4, random_state=0, max_iter=5)
    floor = COVARIANCE_FLOOR * 0.25
    np.testing.assert_allclose(
        mix.covariances,
        np.broadcast_to(floor * np.eye(2), (4, 2, 2)),
        rtol=1e-9,
        atol=1e-9 * floor,
    )
    assert np.all(np.isfinite(mix.log_likelihood))


def test_normalized_rbf_is_bayes_rule_on_the_class_mixtures(rng):
    """p(z = k | x) = Σ_j φ_j(x) w_kj equals Bayes' rule with the class-conditional mixtures
    p(x | k) = Σ_j N(x | μ_j, Σ_j) P(j | k), P(j | k) = w_kj P_j / P(k), evaluated with SciPy's
    densities (not logs). Each density has relative rounding ≈ ε·|ln N| < 1e-13; the
    probabilities (≤ 1) agree to 1e-12."""
    X, y = _blobs(rng)
    clf = NormalizedRBFClassifier(n_components=5, random_state=0).fit(X, y)
    Xs = rng.uniform(-2, 5, size=(50, 2))
    proba = clf.predict_proba(Xs)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-14)
    np.testing.assert_allclose(
        clf.class_given_component_.sum(axis=1), 1.0, rtol=0, atol=1e-14
    )
    dens = np.column_stack(
        [
            stats.multivariate_normal(m, c).pdf(Xs)
            for m, c in zip(clf.means_, clf.covariances_)
        ]
    )
    Pk = clf.weights_ @ clf.class_given_component_  # P(z = k)
    P_j_given_k = clf.weights_[:, None] * clf.class_given_component_ / Pk  # (M, K)
    joint = (dens @ P_j_given_k) * Pk  # p(x | k) P(k)
    np.testing.assert_allclose(
        proba, joint / joint.sum(axis=1, keepdims=True), rtol=0, atol=1e-12
    )
    assert clf.score(X, y) > 0.9


def test_classifier_counts_responsibilities(rng):
    """w_kj = Σ_n r_nj [z_n = k] / Σ_n r_nj with the responsibilities at the fitted mixture (up
    to the pseudo-count 10ε that keeps an empty component finite: 1e-14 absolute)."""
    X, y = _blobs(rng)
    clf = NormalizedRBFClassifier(n_components=4, random_state=1).fit(X, y)
    R = clf.component_posterior(X)
    counts = np.stack([R[y == k].sum(0) for k in range(3)], axis=1)
    np.testing.assert_allclose(
        clf.class_given_component_,
        counts / counts.sum(1, keepdims=True),
        rtol=1e-12,
        atol=1e-14,
    )


# --- kernel ridge against scikit-learn --------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [
        {"alpha": 1.0, "kernel": "rbf"},
        {"alpha": 0.1, "kernel": "rbf", "gamma": 0.3},
        {"alpha": 0.5, "kernel": "laplacian"},
        {"alpha": 2.0, "kernel": "linear"},
    ],
)
def test_kernel_ridge_matches_sklearn(rng, params):
    """Both solve (K + αI)d = y by Cholesky; each prediction's forward error is at most
    3N·ε·cond(K + αI) · Σ_n |k(x, x_n)||d_n| (Higham Thm 10.4), and the two differ by at most
    twice that. (scikit-learn's default kernel is "linear", ours "rbf": both are named.)"""
    X, y = _regression(rng, 120)
    Y = np.c_[y, y**2]
    Xs = rng.uniform(-3, 3, size=(40, 2))
    for target in (y, Y):
        ours = KernelRidge(**params).fit(X, target)
        sk = SkKernelRidge(**params).fit(X, target)
        K = ours.kernel_(X) + params["alpha"] * np.eye(len(X))
        w = np.linalg.eigvalsh(K)
        bound = (
            2
            * 3
            * len(X)
            * EPS
            * (w[-1] / w[0])
            * (np.abs(ours.kernel_(Xs, X)) @ np.abs(ours.dual_coef_)).max()
        )
        np.testing.assert_allclose(ours.predict(Xs), sk.predict(Xs), rtol=0, atol=bound)
        np.testing.assert_allclose(
            ours.dual_coef_,
            sk.dual_coef_,
            rtol=0,
            atol=bound * np.abs(ours.dual_coef_).max(),
        )


def test_kernel_ridge_default_gamma_and_kernel_objects(rng):
    X, y = _regression(rng, 50)
    a = KernelRidge().fit(X, y)
    assert a.kernel_.gamma == 0.5  # 1/D
    b = KernelRidge(kernel=LaplacianKernel(0.4), gamma=99.0).fit(X, y)
    c = KernelRidge(kernel="laplacian", gamma=0.4).fit(X, y)
    np.testing.assert_array_equal(b.predict(X), c.predict(X))
    d = KernelRidge(kernel=lambda A, B: rbf(A, B, gamma=0.5)).fit(X, y)
    np.testing.assert_allclose(d.predict(X), a.predict(X), rtol=1e-12)
    x1 = np.linspace(0, 5, 30)[:, None]
    KernelRidge(kernel=SilvermanKernel(0.5)).fit(x1, np.sin(x1[:, 0]))


def test_kernel_ridge_singular_gram_warns_and_interpolates():
    """α = 0 with a duplicated input: G is singular; least squares, with a warning."""
    X = np.array([[0.0], [1.0], [1.0], [2.0]])
    y = np.array([0.0, 1.0, 1.0, 0.5])
    with pytest.warns(RuntimeWarning, match="not positive definite"):
        kr = KernelRidge(alpha=0.0, kernel="rbf", gamma=1.0).fit(X, y)
    np.testing.assert_allclose(kr.predict(X), y, atol=1e-10)


# --- Nadaraya–Watson ----------------------------------------------------------------------------


def test_nadaraya_watson_is_the_conditional_mean_of_the_parzen_density(rng):
    """y(x) = ∫ z p̂(x, z) dz / ∫ p̂(x, z) dz with p̂ the Gaussian Parzen estimate (σ_x, σ_z), by
    adaptive quadrature over z; the tolerance is 10 times QUADPACK's error estimates propagated
    through the ratio, plus ε-level rounding."""
    x = np.sort(rng.uniform(0, 4, 25))
    z = np.sin(2 * x) + 0.2 * rng.normal(size=25)
    h, sz = 0.3, 0.25
    nw = NadarayaWatson(bandwidth=h).fit(x[:, None], z)
    xq = np.array([-0.5, 0.0, 1.3, 2.2, 3.9, 5.0])

    def parzen(zz, xx):
        return np.mean(stats.norm.pdf(xx, x, h) * stats.norm.pdf(zz, z, sz))

    for xi, yi in zip(xq, nw.predict(xq[:, None])):
        num, e_num = integrate.quad(
            lambda zz, xi=xi: zz * parzen(zz, xi),
            -np.inf,
            np.inf,
            epsabs=1e-14,
            epsrel=1e-12,
        )
        den, e_den = integrate.quad(
            parzen, -np.inf, np.inf, args=(xi,), epsabs=1e-14, epsrel=1e-12
        )
        tol = 10 * (e_num + abs(num / den) * e_den) / den + 1e-13
        assert abs(yi - num / den) <= tol


def test_nadaraya_watson_far_from_the_data_returns_the_nearest_target():
    """At x = 1000 every unshifted weight exp(−d²/2σ²) underflows: the plain formula is 0/0.
    The shifted weights give the nearest training point's target, with no warning."""
    X = np.array([[0.0], [1.0], [2.0]])
    z = np.array([5.0, 6.0, 7.0])
    nw = NadarayaWatson(bandwidth=0.1).fit(X, z)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        far = nw.predict([[1000.0], [-1000.0]])
    np.testing.assert_array_equal(far, [7.0, 5.0])
    with np.errstate(invalid="ignore"):
        w = np.exp(-((1000.0 - X[:, 0]) ** 2) / (2 * 0.1**2))
        assert np.isnan(w @ z / w.sum())  # what the shift avoids
    W = nadaraya_watson_weights(np.array([[0.5], [3.0]]), X, 0.1)
    np.testing.assert_allclose(W.sum(axis=1), 1.0, rtol=1e-15)
    np.testing.assert_allclose(
        W[0], [0.5, 0.5, 0.0], atol=1e-15
    )  # a tie: the two nearest


def test_nadaraya_watson_multioutput_and_interpolation_limit(rng):
    X, y = _regression(rng, 30)
    nw = NadarayaWatson(bandwidth=1e-3).fit(X, np.c_[y, -y])
    np.testing.assert_allclose(
        nw.predict(X), np.c_[y, -y], atol=1e-12
    )  # σ → 0: the data


# --- regularisation theory -------------------------------------------------------------------


def test_gaussian_series_symbol_is_the_exponential():
    """Σ_m σ^{2m}ω^{2m}/(m! 2^m) = exp(σ²ω²/2): 60 terms reach the exponential series' rounding,
    a few ε times the value, for σ²ω²/2 ≤ 8."""
    sigma = 0.8
    omega = np.linspace(0, 5, 11)
    s = operator_symbol(gaussian_series_coefficients(sigma, 60), omega)
    np.testing.assert_allclose(s, np.exp(sigma**2 * omega**2 / 2), rtol=10 * EPS * 60)
    np.testing.assert_allclose(
        gaussian_series_coefficients(sigma, 3), [1, sigma**2 / 2, sigma**4 / 8]
    )


def test_green_function_of_the_gaussian_series_is_a_gaussian():
    """The inverse FFT of 1/exp(σ²ω²/2) on 1024 points of spacing σ/16 is N(x | 0, σ²): the
    aliasing (G at ±32σ) and the spectral tail (ω > 16π/σ) are below 1e-300; what remains is
    the FFT's rounding, about ε·log₂(n) times Σ|Ĝ|Δω/2π ≈ G(0)."""
    sigma = 0.5
    x, G = green_function_fft(
        lambda w: np.exp(-(sigma**2) * w**2 / 2), 1024, sigma / 16
    )
    expected = stats.norm.pdf(x, 0, sigma)
    np.testing.assert_allclose(G, expected, rtol=0, atol=10 * EPS * 10 * expected.max())
    x2, G2 = green_function_fft(
        lambda a, b: np.exp(-(sigma**2) * (a**2 + b**2) / 2), 128, sigma / 8, dim=2
    )
    expected2 = np.outer(stats.norm.pdf(x2, 0, sigma), stats.norm.pdf(x2, 0, sigma))
    np.testing.assert_allclose(
        G2, expected2, rtol=0, atol=10 * EPS * 14 * expected2.max()
    )


def test_green_function_by_quadrature_is_the_exponential_kernel():
    ell = 0.6
    x = np.array([0.0, 0.2, 1.0, 2.5])
    G, err = green_function_quad(lambda w: 1 / (1 + ell**2 * w**2), x)
    np.testing.assert_allclose(
        G, np.exp(-np.abs(x) / ell) / (2 * ell), rtol=0, atol=10 * err.max() + 1e-15
    )


def test_regularisation_helpers_reject_bad_input():
    with pytest.raises(ValueError, match="sigma must be .*> 0"):
        gaussian_series_coefficients(0.0, 5)
    with pytest.raises(ValueError, match="n_terms must be .*>= 1"):
        gaussian_series_coefficients(1.0, 0)
    with pytest.raises(ValueError, match="dim must be 1 or 2"):
        green_function_fft(lambda w: w, 8, 0.1, dim=3)
    with pytest.raises(ValueError, match="spacing must be .*> 0"):
        green_function_fft(lambda w: w, 8, -0.1)


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "est, match",
    [
        (RBFNetwork(width=0.0), "width must be .*> 0"),
        (RBFNetwork(width=-1.0), "width must be .*> 0"),
        (RBFNetwork(alpha=-1e-3), "alpha must be .*>= 0"),
        (RBFNetwork(n_centers=0), "n_centers must be .*>= 1"),
        (RBFNetwork(n_centers=2.5), "n_centers must be an integer"),
        (RBFNetwork(method="newton"), "method must be one of .*; got 'newton'"),
        (RBFNetwork(max_iter=0), "max_iter must be .*>= 1"),
        (KernelRidge(alpha=-1.0), "alpha must be .*>= 0"),
        (KernelRidge(gamma=0.0), "gamma must be .*> 0"),
        (KernelRidge(kernel="poly"), "kernel must be one of .*; got 'poly'"),
        (NadarayaWatson(bandwidth=0.0), "bandwidth must be .*> 0"),
        (NadarayaWatson(bandwidth=-2.0), "bandwidth must be .*> 0"),
        (NormalizedRBFClassifier(n_components=0), "n_components must be .*>= 1"),
        (NormalizedRBFClassifier(tol=-1.0), "tol must be .*>= 0"),
        (NormalizedRBFClassifier(random_state="seed"), "random_state must be None"),
    ],
)
def test_bad_hyperparameters_are_named(rng, est, match):
    X, y = _blobs(rng)
    with pytest.raises(ValueError, match=match):
        est.fit(X, y)
    assert not [k for k in vars(est) if k.endswith("_")]


@pytest.mark.parametrize(
    "est, name",
    [
        (RBFNetwork(n_centers=5), "n_centers"),
        (NormalizedRBFClassifier(n_components=5), "n_components"),
    ],
)
def test_more_units_than_distinct_points(est, name):
    X = np.array(
        [[0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [2.0, 0.0], [0.0, 0.0], [2.0, 0.0]]
    )
    y = np.array([0, 1, 1, 0, 0, 1])
    with pytest.raises(
        ValueError,
        match=rf"{name}=5 is more than the number of distinct rows "
        r"of X \(3; n_samples = 6\)",
    ):
        est.fit(X, y)
    assert not hasattr(est, "n_features_in_")
    with pytest.raises(ValueError, match="n_clusters=5 is more than"):
        kmeans(X, 5)
    with pytest.raises(ValueError, match="n_clusters=4 is more than"):
        gaussian_mixture(X, 4)


@pytest.mark.parametrize(
    "est",
    [
        RBFNetwork(n_centers=3),
        KernelRidge(),
        NadarayaWatson(),
        NormalizedRBFClassifier(n_components=3),
    ],
)
def test_nan_and_length_mismatch(rng, est):
    X, y = _blobs(rng)
    X_nan = X.copy()
    X_nan[4, 1] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        est.fit(X_nan, y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        est.fit(X, y[:-1])
    est.fit(X, y)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        est.predict(X_nan)
    with pytest.raises(ValueError, match="X has 1 features, but .* is expecting 2"):
        est.predict(X[:, :1])


def test_classifier_needs_two_classes(rng):
    X, _ = _blobs(rng)
    with pytest.raises(ValueError, match="y contains only one class"):
        NormalizedRBFClassifier(n_components=3).fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="Unknown label type"):
        NormalizedRBFClassifier(n_components=3).fit(X, rng.normal(size=len(X)))


def test_kmeans_and_mixture_reject_bad_arguments(rng):
    X, _ = _blobs(rng)
    with pytest.raises(ValueError, match=r"init must have shape \(3, 2\)"):
        kmeans(X, 3, init=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="tol must be .*>= 0"):
        kmeans(X, 3, tol=-1.0)
    with pytest.raises(ValueError, match="X contains NaN"):
        gaussian_mixture(np.full((5, 2), np.nan), 2)
    with pytest.warns(ConvergenceWarning, match="EM stopped after max_iter=1"):
        gaussian_mixture(X, 3, random_state=0, max_iter=1, tol=0)
    with pytest.raises(ValueError, match="widths must have one entry per centre"):
        gaussian_units(X, X[:3], [1.0, 1.0])
    with pytest.raises(ValueError, match="widths must be positive"):
        gaussian_units(X, X[:2], [1.0, 0.0])
