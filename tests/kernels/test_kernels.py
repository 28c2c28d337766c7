"""mlcourse.kernels: the kernel functions against scikit-learn and brute force, the kernel objects
against the functions, the one name resolver (get_kernel) and the one design-matrix builder."""

import numpy as np
import pytest
from scipy import integrate
from sklearn.base import clone
from sklearn.gaussian_process.kernels import RBF
from sklearn.metrics.pairwise import laplacian_kernel, linear_kernel, rbf_kernel

from mlcourse import kernels
from mlcourse.gp import affine_basis
from mlcourse.rvm import RVMRegressor

# --- the kernel functions -----------------------------------------------------------------------


def test_rbf_matches_sklearn(rng):
    X, Y = rng.normal(size=(7, 3)), rng.normal(size=(5, 3))
    np.testing.assert_allclose(
        kernels.rbf(X, Y, gamma=0.7), rbf_kernel(X, Y, gamma=0.7), rtol=1e-12
    )
    K = kernels.rbf(X, gamma=0.7)
    np.testing.assert_allclose(np.diag(K), 1.0)
    np.testing.assert_allclose(K, K.T)


def test_squared_exponential_matches_sklearn_and_ard(rng):
    X, Y = rng.normal(size=(6, 2)), rng.normal(size=(4, 2))
    k = kernels.SquaredExponential(length_scale=[0.5, 2.0], variance=1.7)
    np.testing.assert_allclose(
        k(X, Y), 1.7 * RBF(length_scale=[0.5, 2.0])(X, Y), rtol=1e-12
    )
    np.testing.assert_allclose(k.diag(X), np.diag(k(X)))
    with pytest.raises(ValueError, match="length_scale must be positive"):
        kernels.SquaredExponential(length_scale=0.0)(X)
    with pytest.raises(ValueError, match="length_scale has 3 entries"):
        kernels.SquaredExponential(length_scale=[1, 1, 1])(X)
    with pytest.raises(ValueError, match="variance must be .*> 0"):
        kernels.SquaredExponential(variance=-1.0)(X)


def test_linear_spline_formula_and_psd(rng):
    x = np.linspace(-10, 10, 40)
    K = kernels.linear_spline(x)
    a, b = 1.3, -0.4
    m = min(a, b)
    expected = 1 + a * b + a * b * m - (a + b) / 2 * m**2 + m**3 / 3
    assert kernels.linear_spline([a], [b])[0, 0] == pytest.approx(expected)
    np.testing.assert_allclose(K, K.T)
    with pytest.raises(ValueError, match="1-D inputs"):
        kernels.linear_spline(rng.normal(size=(3, 2)))


def test_sq_dist_matches_brute_force_and_gram_is_exactly_symmetric(rng):
    X, Y = rng.normal(size=(50, 4)), rng.normal(size=(7, 4))
    brute = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(kernels.sq_dist(X, Y), brute, atol=1e-12)
    scale = np.array([0.5, 1.0, 2.0, 3.0])
    for S in (kernels.sq_dist(X), kernels.sq_dist(X, scale=scale)):
        np.testing.assert_array_equal(S, S.T)  # bitwise, not just allclose
        np.testing.assert_array_equal(np.diag(S), 0.0)
    brute_scaled = (((X[:, None, :] - X[None, :, :]) / scale) ** 2).sum(-1)
    np.testing.assert_allclose(
        kernels.sq_dist(X, scale=scale), brute_scaled, atol=1e-12
    )


def test_kernel_bad_input():
    with pytest.raises(ValueError, match="gamma must be .*> 0"):
        kernels.rbf([[0.0]], gamma=-1.0)
    with pytest.raises(ValueError, match="same number of features"):
        kernels.rbf(np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="X contains NaN"):
        kernels.sq_dist([[np.nan, 0.0]])


@pytest.mark.parametrize(
    "scale, match",
    [
        (0.0, "scale must be positive and finite; got 0.0"),
        (-1.0, "scale must be positive and finite"),
        (np.inf, "scale must be positive and finite"),
        (np.nan, "scale must be positive and finite"),
        ([1.0, 0.0], "scale must be positive and finite"),
        (
            [1.0, 2.0, 3.0],
            r"scale must be a scalar or have one entry per feature \(2\); got shape \(3,\)",
        ),
        ([[1.0, 2.0]], r"one entry per feature \(2\); got shape \(1, 2\)"),
        ("wide", "scale must be a positive number or one per feature; got 'wide'"),
    ],
)
def test_sq_dist_rejects_bad_scale(scale, match):
    X = np.arange(6.0).reshape(3, 2)
    with pytest.raises(ValueError, match=match):
        kernels.sq_dist(X, scale=scale)
    with pytest.raises(ValueError, match=match):
        kernels.sq_dist(X, X[:2], scale=scale)


def test_sq_dist_accepts_scalar_and_per_feature_scale():
    X = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(
        kernels.sq_dist(X, scale=[2.0]), kernels.sq_dist(X / 2.0)
    )
    np.testing.assert_array_equal(
        kernels.sq_dist(X, scale=np.float64(2.0)), kernels.sq_dist(X / 2.0)
    )


def test_laplacian_matches_sklearn(rng):
    """Both sum |x_d − y_d| over three features and exponentiate: a few ε apart."""
    X, Y = rng.normal(size=(7, 3)), rng.normal(size=(5, 3))
    np.testing.assert_allclose(
        kernels.laplacian(X, Y, gamma=0.7),
        laplacian_kernel(X, Y, gamma=0.7),
        rtol=1e-14,
    )
    K = kernels.laplacian(X, gamma=0.7)
    np.testing.assert_array_equal(K, K.T)
    np.testing.assert_array_equal(np.diag(K), 1.0)


@pytest.mark.parametrize(
    "kernel, symbol, scale",
    [
        (kernels.LaplacianKernel(1 / 0.7), lambda w: 1 / (1 + 0.7**2 * w**2), 2 * 0.7),
        (
            kernels.SilvermanKernel(0.7),
            lambda w: 1 / (1 + 0.7**4 * w**4),
            2 * np.sqrt(2) * 0.7,
        ),
    ],
)
def test_one_dimensional_kernels_are_green_functions_of_their_penalties(
    kernel, symbol, scale
):
    """exp(−|x|/ℓ) is 2ℓ times the inverse Fourier transform of 1/(1 + ℓ²ω²), and Silverman's
    kernel 2√2ℓ times that of 1/(1 + ℓ⁴ω⁴): (1/π)∫_0^∞ cos(ωx)/s(ω) dω by QUADPACK's Fourier
    quadrature, whose error estimate (1e-12 requested) bounds the difference; the tolerance is
    10 times the largest estimate, scaled like the kernel, plus the kernel's own rounding."""
    x = np.array([0.1, 0.5, 1.3, 2.9, 4.4])
    values = [
        integrate.quad(symbol, 0, np.inf, weight="cos", wvar=xi, epsabs=1e-12)
        for xi in x
    ]
    green = np.array([v for v, _ in values]) / np.pi
    err = max(e for _, e in values) / np.pi
    np.testing.assert_allclose(
        kernel(x[:, None], [[0.0]])[:, 0],
        scale * green,
        rtol=0,
        atol=10 * scale * err + 1e-14,
    )


def test_silverman_is_positive_definite_and_one_dimensional(rng):
    """Its spectrum 1/(1 + ℓ⁴ω⁴) is positive, so the Gram matrix of distinct points is positive
    definite although the kernel takes negative values (first zero at r = 3π/(2√2)ℓ)."""
    x = np.sort(rng.uniform(0, 20, 40))
    K = kernels.silverman(x, length_scale=1.0)
    assert np.linalg.eigvalsh(K).min() > 0
    assert K.min() < 0
    zero = 3 * np.pi / (2 * np.sqrt(2))
    assert abs(kernels.silverman([0.0], [zero], length_scale=1.0)[0, 0]) < 1e-15
    with pytest.raises(ValueError, match="silverman is defined for 1-D inputs"):
        kernels.SilvermanKernel()(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="silverman is defined for 1-D inputs"):
        kernels.SilvermanKernel().diag(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="length_scale must be .*> 0"):
        kernels.SilvermanKernel(length_scale=0.0)(x)
    with pytest.raises(ValueError, match="gamma must be .*> 0"):
        kernels.LaplacianKernel(gamma=-1.0)(x)
    with pytest.raises(ValueError, match="gamma must be .*> 0"):
        kernels.LaplacianKernel(gamma=0.0).diag(x)


def test_linear_matches_sklearn(rng):
    X, Y = rng.normal(size=(7, 3)), rng.normal(size=(5, 3))
    np.testing.assert_allclose(kernels.linear(X, Y), linear_kernel(X, Y), rtol=1e-14)
    np.testing.assert_array_equal(kernels.linear(X), kernels.linear(X, X))


# --- the kernel objects --------------------------------------------------------------------------


def _objects():
    """(kernel object, the same kernel as a function of X, Y) for every kernel class."""
    return [
        (kernels.RBFKernel(0.7), lambda X, Y: kernels.rbf(X, Y, gamma=0.7)),
        (kernels.LaplacianKernel(0.7), lambda X, Y: laplacian_kernel(X, Y, gamma=0.7)),
        (
            kernels.SilvermanKernel(0.7),
            lambda X, Y: kernels.silverman(X, Y, length_scale=0.7),
        ),
        (kernels.LinearKernel(), kernels.linear),
        (kernels.LinearSplineKernel(), kernels.linear_spline),
        (
            kernels.SquaredExponential([0.5], 1.7),
            lambda X, Y: 1.7 * RBF(length_scale=0.5)(X, Y),
        ),
        (kernels.BasisKernel(affine_basis, 2.0), lambda X, Y: 2.0 * (1 + X @ Y.T)),
    ]


@pytest.mark.parametrize("k, function", _objects(), ids=lambda v: type(v).__name__)
def test_kernel_object_is_its_function_with_a_diagonal(k, function, rng):
    """k(X, Y) is the kernel's function; k(X) is k(X, X); k.diag(X) is the Gram diagonal. The
    routes differ by at most one matrix product's rounding: rtol 1e-14 (a few ε, d ≤ 3 terms)."""
    X, Y = rng.uniform(0.1, 2.0, size=(6, 1)), rng.uniform(0.1, 2.0, size=(4, 1))
    assert isinstance(k, kernels.Kernel)
    np.testing.assert_allclose(k(X, Y), function(X, Y), rtol=1e-14)
    np.testing.assert_allclose(k(X), k(X, X), rtol=1e-14)
    np.testing.assert_allclose(k.diag(X), np.diag(k(X)), rtol=1e-14)
    assert k.diag(X).shape == (6,)


def test_rbf_kernel_is_the_squared_exponential_with_gamma_one_over_two_ell_squared(rng):
    X = rng.normal(size=(8, 2))
    ell = 1.3
    np.testing.assert_allclose(
        kernels.RBFKernel(1 / (2 * ell**2))(X),
        kernels.SquaredExponential(ell, 1.0)(X),
        rtol=1e-14,
    )


def test_kernel_hyperparameters_are_attributes_and_clone():
    k = kernels.RBFKernel(gamma=0.25)
    assert k.get_params() == {"gamma": 0.25}
    assert repr(k) == "RBFKernel(gamma=0.25)"
    assert (
        repr(kernels.SquaredExponential(2.0, 3.0))
        == "SquaredExponential(length_scale=2.0, variance=3.0)"
    )
    assert repr(kernels.LinearSplineKernel()) == "LinearSplineKernel()"
    assert k.set_params(gamma=2.0) is k and k.gamma == 2.0
    with pytest.raises(ValueError, match="Invalid parameter 'width' for RBFKernel"):
        k.set_params(width=1.0)
    copy = clone(kernels.SquaredExponential([1.0, 2.0], 0.5))
    assert isinstance(copy, kernels.SquaredExponential) and copy.variance == 0.5
    with pytest.raises(ValueError, match="gamma must be .*> 0"):
        kernels.RBFKernel(gamma=0.0)([[0.0]])
    with pytest.raises(ValueError, match="gamma must be .*> 0"):
        kernels.RBFKernel(gamma=-1.0).diag([[0.0]])
    with pytest.raises(ValueError, match="1-D inputs"):
        kernels.LinearSplineKernel().diag(np.zeros((3, 2)))


# --- get_kernel: the one resolver of kernel names -----------------------------------------------


def test_get_kernel_resolves_names_with_the_parameters_each_kernel_takes():
    k = kernels.get_kernel("rbf", gamma=0.3)
    assert isinstance(k, kernels.RBFKernel) and k.gamma == 0.3
    assert isinstance(kernels.get_kernel("linear", gamma=0.3), kernels.LinearKernel)
    assert isinstance(
        kernels.get_kernel("linear_spline", gamma=-1.0), kernels.LinearSplineKernel
    )
    assert set(kernels.KERNELS) == {"rbf", "laplacian", "linear", "linear_spline"}
    k = kernels.get_kernel("laplacian", gamma=0.3)
    assert isinstance(k, kernels.LaplacianKernel) and k.gamma == 0.3
    obj = kernels.SquaredExponential()
    assert kernels.get_kernel(obj, gamma=0.3) is obj  # objects pass through
    fn = kernels.rbf
    assert kernels.get_kernel(fn) is fn  # and so do callables


@pytest.mark.parametrize(
    "spec, match",
    [
        (
            "poly",
            "kernel must be one of 'rbf', 'laplacian', 'linear', 'linear_spline'; "
            "got 'poly'",
        ),
        (
            3.0,
            "kernel must be one of 'rbf', 'laplacian', 'linear', 'linear_spline' or a callable",
        ),
        (None, "kernel must be one of"),
    ],
)
def test_get_kernel_rejects_bad_specs(spec, match):
    with pytest.raises(ValueError, match=match):
        kernels.get_kernel(spec)


def test_rvm_takes_a_kernel_object_as_its_name():
    """RVMRegressor resolves kernel="rbf", gamma by get_kernel: the object gives the same fit."""
    X = np.linspace(-5, 5, 30)[:, None]
    t = np.sinc(X[:, 0] / np.pi)
    by_name = RVMRegressor(kernel="rbf", gamma=0.5).fit(X, t)
    by_object = RVMRegressor(kernel=kernels.RBFKernel(0.5), gamma=99.0).fit(X, t)
    assert (
        isinstance(by_name.kernel_, kernels.RBFKernel) and by_name.kernel_.gamma == 0.5
    )
    np.testing.assert_array_equal(by_object.predict(X), by_name.predict(X))


# --- design_matrix: the one builder of design matrices -------------------------------------------


def test_design_matrix_of_the_inputs_themselves(rng):
    X = rng.normal(size=(5, 2))
    ones = np.ones((5, 1))
    np.testing.assert_array_equal(kernels.design_matrix(X), np.c_[ones, X])
    np.testing.assert_array_equal(kernels.design_matrix(X, bias=False), X)
    np.testing.assert_array_equal(
        kernels.design_matrix(X, bias_last=True), np.c_[X, ones]
    )


def test_design_matrix_of_kernel_columns_on_centers(rng):
    X, C = rng.normal(size=(6, 2)), rng.normal(size=(3, 2))
    expected = np.c_[kernels.rbf(X, C, gamma=0.4), np.ones(6)]
    for basis in (
        "rbf",
        kernels.RBFKernel(0.4),
        lambda A, B: kernels.rbf(A, B, gamma=0.4),
    ):
        Phi = kernels.design_matrix(X, basis, C, gamma=0.4, bias_last=True)
        np.testing.assert_array_equal(Phi, expected)
    empty = kernels.design_matrix(X, "rbf", C[:0], bias_last=True)
    np.testing.assert_array_equal(empty, np.ones((6, 1)))


def test_design_matrix_of_a_feature_map(rng):
    X = rng.normal(size=(4, 1))
    np.testing.assert_array_equal(
        kernels.design_matrix(X, np.cos, bias=False), np.cos(X)
    )
    np.testing.assert_array_equal(
        kernels.design_matrix(X, np.cos), np.c_[np.ones(4), np.cos(X)]
    )


@pytest.mark.parametrize(
    "basis, centers, match",
    [
        ("nope", None, "basis must be callable, mapping X to a design matrix"),
        (
            lambda X: X[:-1],
            None,
            r"basis must return a finite 2-D array with 4 rows \(one per input\)",
        ),
        (lambda X: X[:, 0], None, "basis must return a finite 2-D array"),
        (
            lambda X: X / 0.0,
            None,
            "basis must return a finite array; got NaN or infinite",
        ),
        (lambda X: [["a"]] * len(X), None, "basis must return a numeric array"),
        (
            lambda A, B: np.ones((2, 2)),
            np.zeros((3, 1)),
            r"of shape \(4, 3\); got shape \(2, 2\)",
        ),
        ("poly", np.zeros((3, 1)), "kernel must be one of .*; got 'poly'"),
    ],
)
def test_design_matrix_rejects_bad_bases(basis, centers, match):
    with np.errstate(divide="ignore", invalid="ignore"):
        with pytest.raises(ValueError, match=match):
            kernels.design_matrix(np.ones((4, 1)), basis, centers)


def test_design_matrix_rejects_bad_X():
    with pytest.raises(ValueError, match="X contains NaN"):
        kernels.design_matrix([[np.nan]])
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        kernels.design_matrix([1.0, 2.0])
