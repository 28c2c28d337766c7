"""Gaussian processes: regression, learning, the Kalman form and Laplace classification.

Compared with scikit-learn's GaussianProcessRegressor/Classifier at fixed kernels, with SciPy's
multivariate normal, with finite differences for the gradients, and with the batch posterior for
the recursive form; plus the bad inputs.
"""

import warnings

import numpy as np
import pytest
from scipy import linalg, stats
from sklearn.base import clone
from sklearn.gaussian_process import GaussianProcessClassifier as SkGPC
from sklearn.gaussian_process import GaussianProcessRegressor as SkGPR
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

from mlcourse.checks import EPS, fd_truncation
from mlcourse.exceptions import NotFittedError
from mlcourse.gp import (
    GaussianProcessClassifier,
    GaussianProcessRegressor,
    KalmanGPRegressor,
    affine_basis,
    laplace_mode,
)
from mlcourse.gp._base import JITTER_START, cholesky_in_place, cholesky_jitter
from mlcourse.kernels import BasisKernel, SquaredExponential
from mlcourse.utils.numdiff import central_differences


@pytest.fixture
def regression(rng):
    X = rng.uniform(-3, 3, (40, 2))
    y = np.sin(X[:, 0]) + 0.3 * X[:, 1] + rng.normal(0, 0.1, 40)
    return X, y, rng.uniform(-3, 3, (15, 2))


@pytest.fixture
def classification(rng):
    X = rng.normal(size=(50, 2))
    t = (X[:, 0] ** 2 + X[:, 1] + 0.5 * rng.normal(size=50) > 0.7).astype(int)
    return X, t, rng.normal(size=(20, 2))


def sk_regressor(sf2, ell, noise, X, y):
    kernel = ConstantKernel(sf2) * RBF(ell) + WhiteKernel(noise)
    return SkGPR(kernel, optimizer=None, alpha=0.0).fit(X, y)


# --- kernel derivatives ---------------------------------------------------------------------------


@pytest.mark.parametrize("ell", [0.7, [0.5, 2.0]])
def test_kernel_gradient_matches_finite_differences(rng, ell):
    X = rng.normal(size=(6, 2))
    k = SquaredExponential(ell, 1.3)
    K, dK = k.gradient(X)
    # the same exp(−d²/2ℓ²) by two routes (squared distances summed in another order): the
    # entries differ by a few ulps; rtol 1e-14 is 45 ulps
    np.testing.assert_allclose(K, k(X), rtol=1e-14)
    assert dK.shape == (k.theta.size, 6, 6)
    h = 1e-6
    # central differences of K: rounding, each entry rounded to a few ε·|K| (exp of a rounded
    # argument), 4ε|K|/h; truncation h²/6 × the third derivative, of relative order h² = 1e-12
    rounding = 4 * np.finfo(float).eps * np.abs(K).max() / h
    for j, e in enumerate(np.eye(k.theta.size)):
        fd = (k.with_theta(k.theta + h * e)(X) - k.with_theta(k.theta - h * e)(X)) / (
            2 * h
        )
        np.testing.assert_allclose(dK[j], fd, rtol=1e-6, atol=3 * rounding)
    # theta is scikit-learn's order for ConstantKernel * RBF, and with_theta inverts it
    sk = ConstantKernel(1.3) * RBF(ell)
    # logs of the same numbers, and a round trip exp(log): an ulp or two
    np.testing.assert_allclose(k.theta, sk.theta, rtol=1e-14)
    np.testing.assert_allclose(k.with_theta(k.theta)(X), K, rtol=1e-14)
    # K⊙D/ℓ² by both libraries: rounding of a few ε relative; atol for the zero diagonal
    np.testing.assert_allclose(
        dK.transpose(1, 2, 0), sk(X, eval_gradient=True)[1], rtol=1e-10, atol=1e-14
    )


def test_kernel_gradient_returns_independent_arrays_and_checks_width(rng):
    # the optimiser adds the noise to K in place: dK[0] must not change with it
    X = rng.normal(size=(5, 2))
    for ell in (0.7, [0.5, 2.0]):
        K, dK = SquaredExponential(ell, 1.3).gradient(X)
        K0 = K.copy()
        K += 1.0
        np.testing.assert_array_equal(dK[0], K0)
    with pytest.raises(ValueError, match="length_scale has 3 entries"):
        SquaredExponential([1.0, 2.0, 3.0]).gradient(X)


def test_kernel_theta_bad_input():
    with pytest.raises(ValueError, match="theta must be a finite vector of length 2"):
        SquaredExponential(1.0).with_theta([0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="length_scale must be positive"):
        _ = SquaredExponential(-1.0).theta


def test_basis_kernel(rng):
    X = rng.normal(size=(5, 1))
    k = BasisKernel(affine_basis, 2.0)
    # 2(1 + xx′) by two routes: rounding of a 2-term inner product, a few ε·2(1 + |x||x′|); an
    # entry near 0 (xx′ ≈ −1) would defeat a relative tolerance
    tol = 8 * np.finfo(float).eps * 2 * (1 + np.abs(X) @ np.abs(X).T).max()
    np.testing.assert_allclose(k(X), 2.0 * (1 + X @ X.T), rtol=0, atol=tol)
    np.testing.assert_allclose(k.diag(X), np.diag(k(X)), rtol=0, atol=tol)
    with pytest.raises(ValueError, match="basis must be callable"):
        BasisKernel("nope")(X)
    with pytest.raises(ValueError, match="variance must be .*> 0"):
        BasisKernel(affine_basis, 0.0)(X)


# --- regression -----------------------------------------------------------------------------------


def test_regressor_matches_sklearn_at_fixed_kernel(regression):
    X, y, Xs = regression
    ours = GaussianProcessRegressor(
        SquaredExponential([0.8, 1.5], 1.2), noise_variance=0.05, optimize=False
    ).fit(X, y)
    sk = sk_regressor(1.2, [0.8, 1.5], 0.05, X, y)
    assert ours.log_marginal_likelihood_value_ == pytest.approx(
        sk.log_marginal_likelihood_value_, rel=1e-12
    )
    mean, std = ours.predict(Xs, return_std=True)
    sk_mean, sk_cov = sk.predict(Xs, return_cov=True)
    np.testing.assert_allclose(mean, sk_mean, rtol=1e-10, atol=1e-12)
    # our std is of the latent f; sklearn's covariance includes the WhiteKernel noise
    np.testing.assert_allclose(std**2, np.diag(sk_cov) - 0.05, rtol=1e-9, atol=1e-12)
    _, cov = ours.predict(Xs, return_cov=True)
    np.testing.assert_allclose(
        cov, sk_cov - 0.05 * np.eye(len(Xs)), rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(ours.predict(Xs), mean)


def test_lml_and_gradient(regression):
    X, y, _ = regression
    ours = GaussianProcessRegressor(SquaredExponential([1.0, 1.0]), optimize=False).fit(
        X, y
    )
    theta = np.log([1.4, 0.6, 2.0, 0.03])
    value, grad = ours.log_marginal_likelihood(theta, eval_gradient=True)
    sk_value, sk_grad = sk_regressor(
        1.0, [1.0, 1.0], 0.01, X, y
    ).log_marginal_likelihood(theta, eval_gradient=True)
    assert value == pytest.approx(sk_value, rel=1e-12)
    np.testing.assert_allclose(grad, sk_grad, rtol=1e-9)
    C = SquaredExponential([0.6, 2.0], 1.4)(X) + 0.03 * np.eye(len(y))
    assert value == pytest.approx(
        stats.multivariate_normal(np.zeros(len(y)), C).logpdf(y), rel=1e-12
    )
    h = 1e-5
    fd = [
        (
            ours.log_marginal_likelihood(theta + h * e)
            - ours.log_marginal_likelihood(theta - h * e)
        )
        / (2 * h)
        for e in np.eye(4)
    ]
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-8)
    # no argument: the fitted hyperparameters
    assert ours.log_marginal_likelihood() == ours.log_marginal_likelihood_value_
    v, g = ours.log_marginal_likelihood(eval_gradient=True)
    assert v == pytest.approx(
        ours.log_marginal_likelihood_value_, rel=1e-12
    ) and g.shape == (4,)


def test_optimisation_finds_sklearns_optimum(regression):
    X, y, _ = regression
    ours = GaussianProcessRegressor(
        SquaredExponential([1.0, 1.0]), noise_variance=0.1, n_restarts=2, random_state=0
    ).fit(X, y)
    sk = SkGPR(
        ConstantKernel(1.0) * RBF([1.0, 1.0]) + WhiteKernel(0.1),
        alpha=0.0,
        n_restarts_optimizer=2,
        random_state=0,
    ).fit(X, y)
    assert (
        ours.log_marginal_likelihood_value_ >= sk.log_marginal_likelihood_value_ - 1e-6
    )
    np.testing.assert_allclose(ours.theta_, sk.kernel_.theta, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(
        ours.log_marginal_likelihood(eval_gradient=True)[1], 0, atol=1e-3
    )
    assert ours.noise_variance_ == pytest.approx(sk.kernel_.k2.noise_level, rel=1e-2)
    # the input kernel is not modified, and a refit starts afresh: after a fit to other data,
    # refitting to (X, y) gives the first optimum again, as does a fresh clone
    assert ours.kernel.length_scale == [1.0, 1.0]
    theta = ours.theta_.copy()
    other = ours.fit(X[:12], -y[:12]).theta_.copy()
    assert np.abs(other - theta).max() > 0.1
    assert ours.fit(X, y) is ours
    np.testing.assert_allclose(ours.theta_, theta, rtol=1e-10)
    np.testing.assert_allclose(clone(ours).fit(X, y).theta_, theta, rtol=1e-10)


def test_cholesky_in_place_is_the_copying_factorisation_to_the_bit(rng):
    # a symmetric C-ordered matrix is its own transpose: factorised in its own memory, the same
    # entries give the same factor as LAPACK's copy of it, bit for bit
    X = rng.normal(size=(300, 2))
    C = SquaredExponential(0.8, 1.3)(X, X)
    C[np.diag_indices_from(C)] += 0.01
    assert C.flags.c_contiguous and np.array_equal(C, C.T)
    expected = linalg.cholesky(C, lower=True, check_finite=False)
    L = cholesky_in_place(C.copy())
    assert np.array_equal(L, expected)
    # duplicated inputs, no noise: the in-place attempt fails, overwriting part of C, so the
    # jitter is added to a rebuilt C; the result is that of the copying route, which adds the
    # jitter, 10-fold steps from JITTER_START·mean(diag K), to an untouched K
    K = SquaredExponential()(np.repeat(X[:20], 2, axis=0))
    jitter_copy = JITTER_START * np.mean(np.diag(K))
    while True:
        try:
            L_copy = linalg.cholesky(K + jitter_copy * np.eye(len(K)), lower=True)
            break
        except linalg.LinAlgError:
            jitter_copy *= 10.0
    rebuilt = []

    def rebuild():
        rebuilt.append(True)
        return K.copy()

    with pytest.warns(RuntimeWarning, match="added jitter"):
        L_in, jitter_in = cholesky_jitter(K.copy(), rebuild)
    assert rebuilt == [True] and jitter_in == jitter_copy > 0
    assert np.array_equal(L_in, L_copy)


class _Cached:
    """A kernel of another library that hands out the Gram matrix it keeps."""

    def __init__(self):
        self.kept = {}

    def __call__(self, X, Y=None):
        if Y is None or np.array_equal(X, Y):  # k(X, X): the kept array, made once
            return self.kept.setdefault(len(X), SquaredExponential()(X))
        return SquaredExponential()(X, Y)

    def diag(self, X):
        return np.ones(len(X))


def test_a_kernels_own_array_is_left_alone(rng):
    # C = K + σ²I is factorised in its own memory: a kernel that returns an array it keeps must
    # get it back unchanged, and the fit must be that of the same kernel handing out new arrays
    X, y = rng.normal(size=(30, 2)), rng.normal(size=30)
    kernel = _Cached()
    gp = GaussianProcessRegressor(kernel, noise_variance=0.1, optimize=False).fit(X, y)
    np.testing.assert_array_equal(gp.kernel_.kept[len(X)], SquaredExponential()(X, X))
    ref = GaussianProcessRegressor(
        SquaredExponential(), noise_variance=0.1, optimize=False
    )
    np.testing.assert_array_equal(gp.L_, ref.fit(X, y).L_)


def test_duplicates_with_zero_noise_warn_about_jitter(rng):
    X = np.repeat(rng.normal(size=(5, 1)), 2, axis=0)
    y = np.repeat(rng.normal(size=5), 2)
    with pytest.warns(RuntimeWarning, match="added jitter"):
        gp = GaussianProcessRegressor(noise_variance=0.0, optimize=False).fit(X, y)
    assert gp.jitter_ > 0
    assert np.all(np.isfinite(gp.predict(X, return_std=True)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert GaussianProcessRegressor(optimize=False).fit(X, y).jitter_ == 0.0


@pytest.mark.parametrize(
    "kwargs, X, y, match",
    [
        ({}, [[0.0], [np.nan]], [1.0, 2.0], "X contains NaN"),
        ({}, [[0.0], [1.0]], [1.0, np.nan], "y contains NaN"),
        ({}, [[0.0], [1.0]], [1.0, 2.0, 3.0], "[Ii]nconsistent numbers of samples"),
        (
            {"noise_variance": -1.0},
            [[0.0], [1.0]],
            [1.0, 2.0],
            "noise_variance must be .*>= 0",
        ),
        (
            {"kernel": SquaredExponential(0.0)},
            [[0.0], [1.0]],
            [1.0, 2.0],
            "length_scale must be positive",
        ),
        (
            {"kernel": SquaredExponential([1.0, -2.0])},
            [[0.0, 1.0], [1.0, 0.0]],
            [1.0, 2.0],
            "length_scale must be positive",
        ),
        (
            {"kernel": SquaredExponential(1.0, 0.0)},
            [[0.0], [1.0]],
            [1.0, 2.0],
            "variance must be .*> 0",
        ),
        (
            {"kernel": SquaredExponential(1.0, -1.0)},
            [[0.0], [1.0]],
            [1.0, 2.0],
            "variance must be .*> 0",
        ),
        (
            {"kernel": SquaredExponential([1.0, 1.0, 1.0])},
            [[0.0, 1.0]],
            [1.0],
            "length_scale has 3",
        ),
        ({"n_restarts": -1}, [[0.0], [1.0]], [1.0, 2.0], "n_restarts must be .*>= 0"),
        (
            {"optimize": "yes"},
            [[0.0], [1.0]],
            [1.0, 2.0],
            "optimize must be True or False",
        ),
        (
            {"kernel": BasisKernel(affine_basis)},
            [[0.0], [1.0]],
            [1.0, 2.0],
            "optimize=True needs",
        ),
    ],
)
def test_regressor_bad_input(kwargs, X, y, match):
    with pytest.raises(ValueError, match=match):
        GaussianProcessRegressor(**kwargs).fit(X, y)


class _Indefinite:
    """k(x, x′) = 1 if x = x′ else −1: on three distinct inputs, 2I − 11ᵀ has eigenvalue −1."""

    def __call__(self, X, Y=None):
        X = np.asarray(X, dtype=float)
        Y = X if Y is None else np.asarray(Y, dtype=float)
        return np.where((X[:, None, :] == Y[None, :, :]).all(axis=-1), 1.0, -1.0)

    def diag(self, X):
        return np.ones(len(X))


def test_not_positive_definite_even_with_jitter_raises():
    with pytest.raises(
        ValueError,
        match=r"K \+ noise_variance·I is not positive definite, even "
        r"with jitter 0.0001·mean diagonal",
    ):
        GaussianProcessRegressor(_Indefinite(), noise_variance=0.0, optimize=False).fit(
            [[0.0], [1.0], [2.0]], [1.0, 2.0, 3.0]
        )
    # a noise variance above the negative eigenvalue's size makes C = K + σ_n² I definite
    gp = GaussianProcessRegressor(_Indefinite(), noise_variance=1.5, optimize=False)
    assert gp.fit([[0.0], [1.0], [2.0]], [1.0, 2.0, 3.0]).jitter_ == 0.0


class _NoDiag:
    """Callable like a kernel, but without the diag(X) that predictive variances need."""

    def __call__(self, X, Y=None):
        return SquaredExponential()(X, Y)


class _FlatGram(_NoDiag):
    """A kernel whose Gram matrix has the wrong shape."""

    def __call__(self, X, Y=None):
        return super().__call__(X, Y).ravel()

    def diag(self, X):
        return np.ones(len(X))


ESTIMATORS = [
    (GaussianProcessRegressor, [0.5, 1.5, -1.0]),
    (GaussianProcessClassifier, [0, 1, 1]),
]
ESTIMATOR_IDS = ["regressor", "classifier"]


@pytest.mark.parametrize("Estimator, y", ESTIMATORS, ids=ESTIMATOR_IDS)
@pytest.mark.parametrize(
    "kernel, match",
    [
        (
            "rbf",
            r"kernel must be None or a callable k\(X, Y\) with a diag\(X\) method.*got 'rbf'",
        ),
        (
            lambda X, Y=None: X @ X.T,
            r"kernel must be None or a callable k\(X, Y\) with a diag\(X\) method",
        ),
        (
            _NoDiag(),
            r"kernel must be None or a callable k\(X, Y\) with a diag\(X\) method",
        ),
        (
            _FlatGram(),
            r"kernel\(X\[:1\], X\[:1\]\) and kernel.diag\(X\[:1\]\) must have shapes "
            r"\(1, 1\) "
            r"and \(1,\); got \(1,\) and \(1,\)",
        ),
        (
            BasisKernel(affine_basis),
            "optimize=True needs a kernel with theta, with_theta and "
            "gradient.*BasisKernel has no log-parameters. Pass optimize=False",
        ),
    ],
    ids=["string", "no-diag-lambda", "no-diag-class", "wrong-shape", "not-learnable"],
)
def test_estimators_reject_bad_kernels(Estimator, y, kernel, match):
    with pytest.raises(ValueError, match=match):
        Estimator(kernel).fit([[0.0], [1.0], [2.0]], y)


@pytest.mark.parametrize("Estimator, y", ESTIMATORS, ids=ESTIMATOR_IDS)
def test_log_marginal_likelihood_at_other_theta_needs_a_learnable_kernel(Estimator, y):
    est = Estimator(BasisKernel(affine_basis), optimize=False).fit(
        [[0.0], [1.0], [2.0]], y
    )
    assert np.isfinite(est.log_marginal_likelihood())  # the fitted value is available
    for kwargs in ({"theta": [1.0]}, {"eval_gradient": True}):
        with pytest.raises(
            ValueError,
            match=r"log_marginal_likelihood\(theta\) or eval_gradient"
            r"=True needs a kernel with theta.*BasisKernel",
        ):
            est.log_marginal_likelihood(**kwargs)


@pytest.mark.parametrize("Estimator, y", ESTIMATORS, ids=ESTIMATOR_IDS)
@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_restarts": -1}, "n_restarts must be .*>= 0"),
        ({"n_restarts": 1.5}, "n_restarts must be an integer"),
        ({"optimize": "yes"}, "optimize must be True or False"),
    ],
)
def test_estimators_reject_bad_fit_options(Estimator, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        Estimator(**kwargs).fit([[0.0], [1.0], [2.0]], y)


def test_regressor_bad_calls(regression):
    X, y, Xs = regression
    with pytest.raises(NotFittedError):
        GaussianProcessRegressor().predict(Xs)
    gp = GaussianProcessRegressor(optimize=False).fit(X, y)
    with pytest.raises(ValueError, match="3 features"):
        gp.predict(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="cannot both be True"):
        gp.predict(Xs, return_std=True, return_cov=True)
    with pytest.raises(ValueError, match="theta must be a finite vector of length 3"):
        gp.log_marginal_likelihood([0.0, 0.0])
    zero = GaussianProcessRegressor(noise_variance=0.0, optimize=False).fit(X, y)
    with pytest.raises(ValueError, match="undefined at noise_variance = 0"):
        zero.log_marginal_likelihood(eval_gradient=True)


# --- the Kalman-filter form -----------------------------------------------------------------------


def bumps(X):
    return np.exp(-0.5 * (np.asarray(X)[:, :1] - np.linspace(-3, 3, 7)) ** 2)


def test_kalman_equals_batch_posterior_and_gp(rng):
    X = rng.uniform(-3, 3, (30, 1))
    y = np.sin(X[:, 0]) + rng.normal(0, 0.1, 30)
    kf = KalmanGPRegressor(bumps, weight_variance=2.0, noise_variance=0.01).fit(X, y)
    Phi = bumps(X)
    S = np.linalg.inv(np.eye(7) / 2.0 + Phi.T @ Phi / 0.01)  # a 7 x 7 reference
    np.testing.assert_allclose(kf.cov_, S, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(kf.mean_, S @ Phi.T @ y / 0.01, rtol=1e-8, atol=1e-10)
    gp = GaussianProcessRegressor(
        BasisKernel(bumps, 2.0), noise_variance=0.01, optimize=False
    ).fit(X, y)
    Xs = np.linspace(-4, 4, 9)[:, None]
    for a, b in zip(kf.predict(Xs, return_std=True), gp.predict(Xs, return_std=True)):
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-10)
    assert kf.log_marginal_likelihood_value_ == pytest.approx(
        gp.log_marginal_likelihood_value_, rel=1e-10
    )
    # partial_fit in two chunks == fit on everything; one step's innovation variance
    two = (
        KalmanGPRegressor(bumps, 2.0, 0.01)
        .partial_fit(X[:10], y[:10])
        .partial_fit(X[10:], y[10:])
    )
    np.testing.assert_allclose(two.mean_, kf.mean_, rtol=1e-10)
    assert two.n_seen_ == 30 and two.innovations_.shape == (30,)
    _, std = (
        KalmanGPRegressor(bumps, 2.0, 0.01).fit(X[:29], y[:29]).predict(X[29:], True)
    )
    assert kf.innovation_variances_[-1] == pytest.approx(std[0] ** 2 + 0.01, rel=1e-12)


def test_kalman_default_basis_is_affine(rng):
    X = rng.normal(size=(20, 2))
    y = X @ [1.0, -2.0] + 0.5 + rng.normal(0, 0.1, 20)
    kf = KalmanGPRegressor(noise_variance=0.01).fit(X, y)
    assert kf.mean_.shape == (3,)
    # the noise variance is the true one, so the posterior is calibrated: within 5 posterior sd
    sd = np.sqrt(np.diag(kf.cov_))
    np.testing.assert_allclose((kf.mean_ - [0.5, 1.0, -2.0]) / sd, 0, atol=5)


@pytest.mark.parametrize(
    "X, y, match",
    [
        ([[0.0], [np.nan]], [0.0, 1.0], "X contains NaN"),
        ([[0.0], [1.0]], [0.0, 1.0, 2.0], "[Ii]nconsistent numbers of samples"),
    ],
)
def test_kalman_bad_data(X, y, match):
    with pytest.raises(ValueError, match=match):
        KalmanGPRegressor().fit(X, y)
    kf = KalmanGPRegressor().fit([[0.5]], [1.0])
    with pytest.raises(ValueError, match=match):
        kf.partial_fit(X, y)
    assert kf.n_seen_ == 1  # a rejected update leaves the posterior alone


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"noise_variance": 0.0}, "noise_variance must be .*> 0"),
        ({"weight_variance": -1.0}, "weight_variance must be .*> 0"),
        ({"basis": 3}, "basis must be None or a callable"),
    ],
)
def test_kalman_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        KalmanGPRegressor(**kwargs).fit([[0.0], [1.0]], [0.0, 1.0])


def test_kalman_bad_calls():
    with pytest.raises(NotFittedError):
        KalmanGPRegressor().predict([[0.0]])
    kf = KalmanGPRegressor().fit([[0.0], [1.0]], [0.0, 1.0])
    assert kf.n_features_in_ == 1
    with pytest.raises(
        ValueError, match="X has 2 features, but .* is expecting 1 features"
    ):
        kf.partial_fit([[0.0, 1.0]], [1.0])
    # a refit forgets the input width (learned state, reset by fit)
    kf.fit([[0.0, 1.0], [1.0, 0.0]], [0.0, 1.0])
    assert kf.n_features_in_ == 2 and kf.n_seen_ == 2 and kf.mean_.shape == (3,)
    with pytest.raises(
        ValueError, match="X has 1 features, but .* is expecting 2 features"
    ):
        kf.predict([[0.0]])
    with pytest.raises(ValueError, match="y contains NaN"):
        kf.partial_fit([[0.0, 1.0]], [np.nan])


# --- classification -------------------------------------------------------------------------------


def test_classifier_matches_sklearn_laplace(classification):
    X, t, Xs = classification
    ours = GaussianProcessClassifier(SquaredExponential(0.9, 4.0), optimize=False).fit(
        X, t
    )
    sk = SkGPC(ConstantKernel(4.0) * RBF(0.9), optimizer=None).fit(X, t)
    np.testing.assert_allclose(
        ours.latent_mode_, sk.base_estimator_.f_cached, atol=1e-6
    )
    assert ours.log_marginal_likelihood_value_ == pytest.approx(
        sk.log_marginal_likelihood_value_, abs=1e-6
    )
    mean, var = ours.latent_mean_and_variance(Xs)
    sk_mean, sk_var = sk.latent_mean_and_variance(Xs)
    np.testing.assert_allclose(mean, sk_mean, atol=1e-6)
    np.testing.assert_allclose(var, sk_var, atol=1e-6)
    # probabilities: sklearn uses a different approximation to the same integral, much closer
    # to it than ours, whose error is below δ = max|σ(a) − Φ(λa)| = 0.0177 (test_laplace)
    proba = ours.predict_proba(Xs)
    assert proba.shape == (len(Xs), 2)
    np.testing.assert_allclose(proba, sk.predict_proba(Xs), atol=0.02)
    # ... and ours is close to the Monte Carlo value of ∫σ(a)N(a | mean, var)da: δ plus 5
    # standard errors, ≤ 5·0.5/√S
    S = 100_000
    z = np.random.default_rng(0).standard_normal((S, 1))
    mc = (1 / (1 + np.exp(-(mean + np.sqrt(var) * z)))).mean(axis=0)
    np.testing.assert_allclose(proba[:, 1], mc, atol=0.0177 + 5 * 0.5 / np.sqrt(S))
    np.testing.assert_array_equal(ours.predict(Xs), np.where(proba[:, 1] > 0.5, 1, 0))


def test_classifier_lml_gradient(classification):
    X, t, _ = classification
    ours = GaussianProcessClassifier(SquaredExponential(1.0, 1.0), optimize=False).fit(
        X, t
    )
    theta = np.log([3.0, 0.8])
    value, grad = ours.log_marginal_likelihood(theta, eval_gradient=True)
    sk = SkGPC(ConstantKernel(1.0) * RBF(1.0), optimizer=None).fit(X, t)
    sk_value, sk_grad = sk.log_marginal_likelihood(theta, eval_gradient=True)
    assert value == pytest.approx(sk_value, abs=1e-6)
    np.testing.assert_allclose(grad, sk_grad, rtol=1e-5, atol=1e-6)
    h, lml = 1e-4, ours.log_marginal_likelihood
    # truncation h²L'''/6 from the change to step 4h (15 times it), plus the values' rounding
    # (the mode is converged to rounding, so ~ Nε|value| each)
    fd = central_differences(lml, theta, h)
    budget = (
        fd_truncation(fd, central_differences(lml, theta, 4 * h), 4).max()
        + len(t) * EPS * abs(value) / h
    )
    np.testing.assert_allclose(grad, fd, rtol=0, atol=3 * budget)


def test_classifier_fit_and_labels(classification):
    X, t, Xs = classification
    labels = np.array(["benign", "malignant"])[t]
    ours = GaussianProcessClassifier(n_restarts=1, random_state=0).fit(X, labels)
    sk = SkGPC(
        ConstantKernel(1.0) * RBF(1.0), n_restarts_optimizer=1, random_state=0
    ).fit(X, t)
    assert (
        ours.log_marginal_likelihood_value_ >= sk.log_marginal_likelihood_value_ - 1e-6
    )
    assert set(ours.predict(Xs)) <= {"benign", "malignant"}
    assert ours.score(X, labels) > 0.7


def test_classifier_refit_starts_fresh_and_keeps_the_kernel(classification):
    X, t, _ = classification
    kernel = SquaredExponential(1.0, 1.0)
    clf = GaussianProcessClassifier(kernel, n_restarts=1, random_state=0)
    theta = clf.fit(X, t).kernel_.theta.copy()
    assert kernel.length_scale == 1.0 and kernel.variance == 1.0  # not mutated
    other = clf.fit(X[:20], 1 - t[:20]).kernel_.theta.copy()
    assert np.abs(other - theta).max() > 0.1
    assert clf.fit(X, t) is clf
    np.testing.assert_allclose(clf.kernel_.theta, theta, rtol=1e-10)
    np.testing.assert_allclose(clone(clf).fit(X, t).kernel_.theta, theta, rtol=1e-10)


def test_newton_non_convergence_warns(classification, monkeypatch):
    from mlcourse.gp import _classification as gp_classification  # the loop's constant

    X, t, _ = classification
    monkeypatch.setattr(gp_classification, "NEWTON_MAX_ITER", 1)
    with pytest.warns(RuntimeWarning, match="did not converge in 1 iterations"):
        GaussianProcessClassifier(SquaredExponential(0.9, 4.0), optimize=False).fit(
            X, t
        )


@pytest.mark.parametrize(
    "X, y, match",
    [
        ([[0.0], [1.0], [2.0]], [0, 1, 2], "3 classes.*exactly 2"),
        ([[0.0], [np.nan]], [0, 1], "X contains NaN"),
        ([[0.0], [1.0]], [0, 1, 1], "[Ii]nconsistent numbers of samples"),
        ([[0.0], [1.0]], [1, 1], "only one class"),
    ],
)
def test_classifier_bad_input(X, y, match):
    with pytest.raises(ValueError, match=match):
        GaussianProcessClassifier().fit(X, y)


def test_classifier_bad_calls(classification):
    X, t, _ = classification
    with pytest.raises(NotFittedError):
        GaussianProcessClassifier().predict_proba(X)
    with pytest.raises(ValueError, match="length_scale must be positive"):
        GaussianProcessClassifier(SquaredExponential(0.0)).fit(X, t)
    clf = GaussianProcessClassifier(optimize=False).fit(X, t)
    with pytest.raises(ValueError, match="1 features"):
        clf.latent_mean_and_variance([[0.0]])
    with pytest.raises(ValueError, match="theta must be a finite vector of length 2"):
        clf.log_marginal_likelihood([0.0])


@pytest.mark.parametrize(
    "X, match", [([[np.nan]], "NaN"), (np.ones((2, 2, 2)), "2-D"), ("abc", "numeric")]
)
def test_affine_basis_rejects_bad_X(X, match):
    with pytest.raises(ValueError, match=f"X.*{match}"):
        affine_basis(X)


def test_laplace_mode_rejects_bad_input():
    K, t = np.eye(3), np.array([0, 1, 1])
    assert np.isfinite(laplace_mode(K, t)["lml"])
    cases = [
        (np.eye(2), t, "K must be the \\(3, 3\\)"),
        (np.array([[1.0, 0.5, 0], [0, 1, 0], [0, 0, 1]]), t, "symmetric"),
        (-5.0 * np.eye(3), t, "positive semi-definite"),
        # mildly indefinite: I + D^½ K D^½ still factors, so only the eigenvalue check fails
        (-np.eye(3), t, "positive semi-definite"),
        (np.array([[1.0, 2, 0], [2, 1, 0], [0, 0, 1]]), t, "positive semi-definite"),
        (np.full((3, 3), np.nan), t, "K.*NaN"),
        (K, np.array([0, 2, 1]), "t must hold 0/1"),
    ]
    for K_bad, t_bad, match in cases:
        with pytest.raises(ValueError, match=match):
            laplace_mode(K_bad, t_bad)


@pytest.mark.parametrize("start", [0.0, 1e-300, 1e-10])
def test_noise_start_at_the_bound_cannot_start_the_search(start):
    X = np.linspace(0, 1, 8)[:, None]
    with pytest.raises(
        ValueError, match="cannot start the search.*lower bound 1e-10.*vanishes"
    ):
        GaussianProcessRegressor(noise_variance=start).fit(X, np.sin(X[:, 0]))
    gp = GaussianProcessRegressor(noise_variance=start, optimize=False).fit(
        X, np.sin(X[:, 0])
    )
    assert gp.noise_variance_ == start


def test_noise_search_from_the_default_start_leaves_the_bound():
    # Why starts at the bound are refused: on noisy data the search from 1e-10 stalls there
    # (∂LML/∂ln σ_n² ∝ σ_n²), while the default start 1e-2 finds a far higher LML.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    y = np.sin(X[:, 0]) + 0.1 * rng.standard_normal(40)
    gp = GaussianProcessRegressor(noise_variance=1e-2).fit(X, y)
    assert gp.noise_variance_ > 1e-4 and gp.log_marginal_likelihood_value_ > 10.0
    # at the default kernel start, ∂/∂ln σ_n² at the bound is ~1e-6 and scales with σ_n²
    g = [
        gp.log_marginal_likelihood([0.0, 0.0, np.log(s)], eval_gradient=True)[1][-1]
        for s in (1e-10, 1e-8)
    ]
    assert 0 < g[0] < 1e-5
    # ∂/∂ln σ_n² = σ_n²·½tr(ααᵀ − C⁻¹), and the trace changes by a relative O(σ_n²‖K⁻¹‖) when
    # σ_n² goes from 1e-10 to 1e-8: 10 times that bound
    lam_min = np.linalg.eigvalsh(SquaredExponential()(X))[0]
    np.testing.assert_allclose(g[1] / g[0], 100.0, rtol=10 * 1e-8 / lam_min)


# --- issue 25: normalize_y, a stable Kalman update, extreme scales --------------------------------


def test_normalize_y_matches_sklearn_at_fixed_hyperparameters(regression):
    """GaussianProcessRegressor(normalize_y=True) standardises the targets, fits the GP to
    them and maps the predictions back, as scikit-learn does: the same mean, std and cov at
    the same kernel (the two compute one Cholesky solve each, so rounding only)."""
    X, y, Xs = regression
    y = 10 * y + 50  # large units, far from zero
    ours = GaussianProcessRegressor(
        SquaredExponential([0.8, 1.5], 1.2),
        noise_variance=0.05,
        optimize=False,
        normalize_y=True,
    ).fit(X, y)
    sk = SkGPR(
        ConstantKernel(1.2) * RBF([0.8, 1.5]) + WhiteKernel(0.05),
        alpha=0.0,
        optimizer=None,
        normalize_y=True,
    ).fit(X, y)
    assert ours.y_mean_ == pytest.approx(np.mean(y)) and ours.y_std_ == pytest.approx(
        np.std(y)
    )
    mean, std = ours.predict(Xs, return_std=True)
    sk_mean, sk_std = sk.predict(Xs, return_std=True)
    np.testing.assert_allclose(mean, sk_mean, rtol=1e-9, atol=1e-9 * np.std(y))
    # scikit-learn's predictive std and cov include its WhiteKernel; ours are of the latent f
    white = 0.05 * np.std(y) ** 2
    np.testing.assert_allclose(np.sqrt(std**2 + white), sk_std, rtol=1e-9)
    np.testing.assert_allclose(
        ours.predict(Xs, return_cov=True)[1] + white * np.eye(len(Xs)),
        sk.predict(Xs, return_cov=True)[1],
        rtol=1e-9,
        atol=1e-9 * np.var(y),
    )
    assert ours.log_marginal_likelihood_value_ == pytest.approx(
        sk.log_marginal_likelihood_value_, rel=1e-10
    )


def test_normalize_y_makes_the_fit_independent_of_the_units(regression):
    """Targets in large units (y × 10, the issue's case) fit as well as y itself: the
    optimised predictions are exactly 10 times those for y (the standardised problem is the
    same, so the search is the same), and reach scikit-learn's optimum with normalize_y."""
    X, y, Xs = regression
    fits = [
        GaussianProcessRegressor(
            SquaredExponential([1.0, 1.0]), noise_variance=0.1, normalize_y=True
        ).fit(X, scale * y)
        for scale in (1.0, 10.0)
    ]
    m1, s1 = fits[0].predict(Xs, return_std=True)
    m10, s10 = fits[1].predict(Xs, return_std=True)
    np.testing.assert_allclose(m10, 10 * m1, rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(s10, 10 * s1, rtol=1e-8, atol=1e-8)
    sk = SkGPR(
        ConstantKernel(1.0) * RBF([1.0, 1.0]) + WhiteKernel(0.1),
        alpha=0.0,
        normalize_y=True,
    ).fit(X, 10 * y)
    assert (
        fits[1].log_marginal_likelihood_value_
        >= sk.log_marginal_likelihood_value_ - 1e-6
    )
    assert fits[1].log_marginal_likelihood_value_ == pytest.approx(
        fits[0].log_marginal_likelihood_value_, rel=1e-10
    )  # of the standardised targets, the same for y and y × 10


@pytest.mark.parametrize("noise, scale", [(1e-2, 1.0), (1e-6, 1e3)])
def test_kalman_covariance_agrees_with_the_batch_posterior(rng, noise, scale):
    """A well-posed 20 × 10 problem (issue 25): the square-root update keeps Σ^{N|N} within
    1e-6 relative of the batch (I/σ_w² + ΦᵀΦ/σ_v²)⁻¹, also where the plain update
    Σ − (Σφ)(Σφ)ᵀ/s lost 1e-4 (σ_v² = 1e-6, inputs of size 1e3: κ of the precision ≈ 1e14,
    whose batch inverse is itself only good to about κ·eps ≈ 1e-2 in its smallest directions,
    but to 1e-8 in norm)."""
    X = scale * rng.standard_normal((20, 10))
    y = rng.standard_normal(20)
    kf = KalmanGPRegressor(weight_variance=1.0, noise_variance=noise).fit(X, y)
    Phi = np.c_[np.ones(20), X]
    precision = np.eye(11) + Phi.T @ Phi / noise
    batch = np.linalg.solve(precision, np.eye(11))
    assert np.linalg.norm(kf.cov_ - batch) <= 1e-6 * np.linalg.norm(batch)
    assert np.all(kf.innovation_variances_ >= noise)  # s = σ_v² + ‖Cᵀφ‖² ≥ σ_v²
    np.testing.assert_array_equal(kf.cov_, kf.cov_.T)


def test_kalman_at_extreme_scales_works_or_names_X(rng):
    """X × 1e150 (issue 25): the innovation variance stays positive (no negative variance);
    X × 1e160 overflows φᵀΣφ and raises a ValueError naming X."""
    X, y = rng.standard_normal((15, 2)), rng.standard_normal(15)
    kf = KalmanGPRegressor(noise_variance=0.01).fit(1e150 * X, y)
    assert np.all(kf.innovation_variances_ >= 0.01) and np.all(np.isfinite(kf.mean_))
    with pytest.raises(ValueError, match="X is too large for the filter: row 0"):
        KalmanGPRegressor(noise_variance=0.01).fit(1e160 * X, y)
