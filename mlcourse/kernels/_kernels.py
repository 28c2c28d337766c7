"""The kernel interface: kernel objects, the one resolver of kernel names, and the one builder of
design matrices (re-exported by :mod:`mlcourse.kernels`).

A kernel is a :class:`Kernel`: ``k(X, Y=None)`` gives the Gram matrix (n, m), ``k.diag(X)`` its
diagonal k(xᵢ, xᵢ) without forming it, and its hyperparameters are attributes named as in its
constructor. A kernel whose hyperparameters a model learns (:class:`SquaredExponential`) also has
``theta`` (log-parameters), ``with_theta(theta)`` and ``gradient(X)``. Estimators also accept any
callable ``k(X, Y)`` where they did before, and a name that :func:`get_kernel` resolves.
"""

from __future__ import annotations

import inspect

import numpy as np

from ..utils.validation import all_finite, check_array, check_option, check_scalar
from ._pairwise import (
    _as_points,
    _check_scale,
    _check_univariate,
    _pair,
    _scaled,
    _spline,
    _sq_dist,
    laplacian,
    linear,
    linear_spline,
    rbf,
    silverman,
    sq_dist,
)

__all__ = [
    "Kernel",
    "RBFKernel",
    "LaplacianKernel",
    "SilvermanKernel",
    "LinearKernel",
    "LinearSplineKernel",
    "SquaredExponential",
    "BasisKernel",
    "KERNELS",
    "get_kernel",
    "design_matrix",
]


class Kernel:
    """Base class: a covariance function k(x, x′) with its hyperparameters as attributes.

    A subclass's ``__init__`` only stores its hyperparameters, under their own names (they are
    validated when the kernel is evaluated), and it implements ``__call__(X, Y=None)`` → Gram
    matrix of shape (n, m) and ``diag(X)`` → shape (n,).
    """

    def __call__(self, X, Y=None) -> np.ndarray:
        raise NotImplementedError

    def diag(self, X) -> np.ndarray:
        raise NotImplementedError

    @classmethod
    def _param_names(cls) -> list:
        if cls.__init__ is object.__init__:  # a kernel without hyperparameters
            return []
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values() if p.name != "self"]

    def get_params(self, deep: bool = True) -> dict:
        """The hyperparameters, in the constructor's order (``deep`` as in scikit-learn, whose
        ``clone`` copies a kernel through this)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        """Set hyperparameters by name; unknown names raise ``ValueError``. Returns ``self``."""
        for name, value in params.items():
            if name not in self._param_names():
                raise ValueError(
                    f"Invalid parameter {name!r} for {type(self).__name__}; "
                    f"valid parameters are {self._param_names()}."
                )
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        args = ", ".join(
            f"{name}={value!r}" for name, value in self.get_params().items()
        )
        return f"{type(self).__name__}({args})"


class RBFKernel(Kernel):
    """Gaussian (RBF) kernel k(x, x′) = exp(−γ‖x − x′‖²) (:func:`rbf`; scikit-learn's ``gamma``).

    Parameters
    ----------
    gamma : float > 0
        Inverse squared width; γ = 1/r² in Tipping (2001) and 1/(2ℓ²) for a length scale ℓ (then
        it equals ``SquaredExponential(ℓ, 1.0)``).
    """

    def __init__(self, gamma: float = 1.0):
        self.gamma = gamma

    def __call__(self, X, Y=None) -> np.ndarray:
        return rbf(X, Y, gamma=self.gamma)

    def diag(self, X) -> np.ndarray:
        """k(x, x) = 1, shape (n,)."""
        check_scalar(self.gamma, "gamma", low=0, low_inclusive=False)
        return np.ones(_as_points(X, "X").shape[0])


class LaplacianKernel(Kernel):
    """Laplacian kernel k(x, x′) = exp(−γ‖x − x′‖₁) (:func:`laplacian`; scikit-learn's ``gamma``).

    In one dimension, the exponential kernel exp(−|x − x′|/ℓ), γ = 1/ℓ: the Green's function
    (up to 1/(2ℓ)) of the smoothness penalty ∫ y² + ℓ²(y′)² dx.

    Parameters
    ----------
    gamma : float > 0
        Inverse length scale.
    """

    def __init__(self, gamma: float = 1.0):
        self.gamma = gamma

    def __call__(self, X, Y=None) -> np.ndarray:
        return laplacian(X, Y, gamma=self.gamma)

    def diag(self, X) -> np.ndarray:
        """k(x, x) = 1, shape (n,)."""
        check_scalar(self.gamma, "gamma", low=0, low_inclusive=False)
        return np.ones(_as_points(X, "X").shape[0])


class SilvermanKernel(Kernel):
    """Silverman's kernel e^{−r/√2}(cos(r/√2) + sin(r/√2)), r = |x − x′|/ℓ (:func:`silverman`):
    the Green's function of ∫ y² + ℓ⁴(y″)² dx, the cubic smoothing spline's equivalent kernel.
    1-D inputs only.

    Parameters
    ----------
    length_scale : float > 0
        ℓ.
    """

    def __init__(self, length_scale: float = 1.0):
        self.length_scale = length_scale

    def __call__(self, X, Y=None) -> np.ndarray:
        return silverman(X, Y, length_scale=self.length_scale)

    def diag(self, X) -> np.ndarray:
        """k(x, x) = 1, shape (n,)."""
        check_scalar(self.length_scale, "length_scale", low=0, low_inclusive=False)
        X = _as_points(X, "X")
        if X.shape[1] != 1:
            raise ValueError(
                f"silverman is defined for 1-D inputs; got {X.shape[1]} features."
            )
        return np.ones(X.shape[0])


class LinearKernel(Kernel):
    """Linear kernel k(x, x′) = xᵀx′ (:func:`linear`): kernel ridge with it is ridge regression,
    kernel PCA with it is PCA."""

    def __call__(self, X, Y=None) -> np.ndarray:
        return linear(X, Y)

    def diag(self, X) -> np.ndarray:
        """‖xᵢ‖², shape (n,)."""
        X = _as_points(X, "X")
        return np.einsum("ij,ij->i", X, X)


class LinearSplineKernel(Kernel):
    """Tipping's (2001) univariate linear-spline kernel, eq. (29) (:func:`linear_spline`)."""

    def __call__(self, X, Y=None) -> np.ndarray:
        return linear_spline(X, Y)

    def diag(self, X) -> np.ndarray:
        """k(x, x) = 1 + x² + x³/3 for each input, shape (n,)."""
        X = _as_points(X, "X")
        _check_univariate(X)
        return _spline(X[:, 0], X[:, 0])


class SquaredExponential(Kernel):
    """Squared-exponential kernel k(x, x′) = variance · exp(−½ Σ_d (x_d − x′_d)²/ℓ_d²).

    GPML eq. (2.16) / Bishop (6.63). With a vector `length_scale` (one ℓ_d per input) this is
    the ARD kernel: a large ℓ_d means input d barely changes the function, i.e. is irrelevant.

    Parameters
    ----------
    length_scale : float or array_like of shape (d,)
        ℓ > 0; a scalar is shared by all inputs.
    variance : float
        Signal variance σ_f² > 0 (the prior variance of f(x)).
    """

    def __init__(self, length_scale=1.0, variance: float = 1.0):
        self.length_scale = length_scale
        self.variance = variance

    def _validated(self):
        ell = _check_scale(self.length_scale, None, "length_scale")
        check_scalar(self.variance, "variance", low=0, low_inclusive=False)
        return ell

    @staticmethod
    def _check_width(ell, X):
        if ell.ndim == 1 and ell.size not in (1, X.shape[1]):
            raise ValueError(
                f"length_scale has {ell.size} entries but the inputs have "
                f"{X.shape[1]} features."
            )

    def __call__(self, X, Y=None) -> np.ndarray:
        ell = self._validated()
        X, Y = _pair(X, Y)
        self._check_width(ell, X)
        variance = self.variance

        def scaled_exp(block):  # in place, on each row block while it is in cache
            block *= -0.5
            np.exp(block, out=block)
            block *= variance

        return _sq_dist(*_scaled(X, Y, ell), then=scaled_exp)

    def diag(self, X) -> np.ndarray:
        """k(x_i, x_i) = σ_f² for each row, without forming the Gram matrix.

        Parameters
        ----------
        X : array_like of shape (n, d)

        Returns
        -------
        ndarray of shape (n,)
        """
        self._validated()
        return np.full(_as_points(X, "X").shape[0], float(self.variance))

    # --- what hyperparameter learning needs: log-space parameters and dK/dθ ---------------------

    @property
    def theta(self) -> np.ndarray:
        """Log-parameters θ = [ln σ_f², ln ℓ_1, …, ln ℓ_D], shape (1 + n_length_scales,).

        The order is scikit-learn's for ``ConstantKernel(σ_f²) * RBF(ℓ)``, so the same vector
        can be passed to both libraries. A scalar `length_scale` contributes one entry.
        """
        ell = self._validated()
        return np.log(np.r_[float(self.variance), np.atleast_1d(ell)])

    def with_theta(self, theta) -> "SquaredExponential":
        """A new kernel whose log-parameters are `theta` (see :attr:`theta`); self is unchanged."""
        ell = self._validated()
        theta = np.asarray(theta, dtype=float)
        if theta.shape != (1 + ell.size,) or not np.all(np.isfinite(theta)):
            raise ValueError(
                f"theta must be a finite vector of length {1 + ell.size} "
                f"([ln variance, ln length_scale...]); got {theta!r}."
            )
        new_ell = np.exp(theta[1:])
        return SquaredExponential(
            float(new_ell[0]) if ell.ndim == 0 else new_ell, float(np.exp(theta[0]))
        )

    def gradient(self, X):
        """The Gram matrix K = k(X, X) and its derivatives ∂K/∂θ_j for θ = :attr:`theta`.

        ∂K/∂ln σ_f² = K, and ∂K/∂ln ℓ_d = K ⊙ (x_d − x′_d)²/ℓ_d² (for a scalar ℓ, the sum over d,
        K ⊙ ‖x − x′‖²/ℓ²) — GPML eq. (5.9) with the chain rule for log-parameters.

        Returns
        -------
        K : ndarray of shape (n, n)
        dK : ndarray of shape (n_params, n, n)
            One matrix per entry of :attr:`theta`, in the same order.
        """
        ell = self._validated()
        X = _as_points(X, "X")
        self._check_width(ell, X)
        n = X.shape[0]
        dK = np.empty((1 + ell.size, n, n))
        if ell.size == 1:  # scalar ℓ: one distance matrix, ‖x − x′‖²/ℓ²
            dK[1] = sq_dist(X, scale=ell.ravel()[0])
            K = dK[1].copy()
        else:  # ARD: (x_d − x′_d)²/ℓ_d² per input; K from their sum
            for d in range(ell.size):
                dK[1 + d] = sq_dist(X[:, [d]], scale=ell[d])
            K = dK[1:].sum(axis=0)
        K *= -0.5
        np.exp(K, out=K)
        K *= self.variance
        dK[1:] *= K
        dK[0] = K  # a copy: callers may change K in place
        return K, dK


class BasisKernel(Kernel):
    """Degenerate kernel of a finite basis: k(x, x′) = σ_w² φ(x)ᵀφ(x′) (lecture 002, Bishop 6.54).

    The covariance of y(x) = wᵀφ(x) under the weight prior p(w) = N(0, σ_w² I): the kernel that
    turns Bayesian linear regression on the features φ into a Gaussian process.

    Parameters
    ----------
    basis : callable
        Maps inputs of shape (n, d) to the design matrix Φ of shape (n, M).
    variance : float
        Prior weight variance σ_w² > 0.
    """

    def __init__(self, basis, variance: float = 1.0):
        self.basis = basis
        self.variance = variance

    def features(self, X) -> np.ndarray:
        """Φ = basis(X), validated (:func:`design_matrix`): shape (n, M), finite."""
        check_scalar(self.variance, "variance", low=0, low_inclusive=False)
        return design_matrix(_as_points(X, "X"), self.basis, bias=False, name="basis")

    def __call__(self, X, Y=None) -> np.ndarray:
        PX = self.features(X)
        PY = PX if Y is None else self.features(Y)
        return self.variance * (PX @ PY.T)

    def diag(self, X) -> np.ndarray:
        """σ_w² ‖φ(x_i)‖² for each row."""
        P = self.features(X)
        return self.variance * np.einsum("ij,ij->i", P, P)


# The names that get_kernel resolves (scikit-learn's pairwise-kernel names where they exist).
KERNELS = {
    "rbf": RBFKernel,
    "laplacian": LaplacianKernel,
    "linear": LinearKernel,
    "linear_spline": LinearSplineKernel,
}


def get_kernel(kernel, **params):
    """The kernel an estimator's ``kernel`` hyperparameter names: the one place names are resolved.

    Parameters
    ----------
    kernel : str, Kernel or callable
        A name in :data:`KERNELS` (``"rbf"``, ``"laplacian"``, ``"linear"``, ``"linear_spline"``), a
        :class:`Kernel`, or any callable ``k(X, Y)`` returning the (n, m) matrix of k(xᵢ, yⱼ).
    **params
        Hyperparameters for a named kernel. An estimator passes all of its kernel
        hyperparameters (e.g. ``gamma``) and each kernel takes those its constructor has, as
        scikit-learn's ``pairwise_kernels`` does: ``"linear_spline"`` ignores ``gamma``. Unused
        for a kernel object or callable, which is returned as it is.

    Raises
    ------
    ValueError
        An unknown name, or something that is neither a name nor callable.
    """
    if isinstance(kernel, str):
        cls = KERNELS[check_option(kernel, "kernel", tuple(KERNELS))]
        names = cls._param_names()
        return cls(**{name: value for name, value in params.items() if name in names})
    if not callable(kernel):
        raise ValueError(
            f"kernel must be one of {', '.join(map(repr, KERNELS))} or a callable "
            f"k(X, Y); got {kernel!r}."
        )
    return kernel


def design_matrix(
    X,
    basis=None,
    centers=None,
    *,
    bias: bool = True,
    bias_last: bool = False,
    name: str = "basis",
    **kernel_params,
) -> np.ndarray:
    """Φ, the design matrix of a model linear in fixed basis functions, with or without a bias.

    Row n is φ(xₙ)ᵀ; the bias is a column of ones (Bishop's φ₀ = 1), first or last. The one
    builder behind :func:`mlcourse.linear.design_matrix`, :func:`mlcourse.gp.affine_basis`,
    :meth:`BasisKernel.features` and the RVM's kernel design matrix.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Finite inputs.
    basis : None, callable, str or Kernel
        ``None``: φ(x) = x, the inputs themselves (the linear model's features).
        With `centers`: a kernel (resolved by :func:`get_kernel`), one basis function
        φⱼ(x) = k(x, cⱼ) per centre (RVM: the training inputs; RBF networks: k-means centres).
        Without `centers`: a feature map ``basis(X)`` → (n, M).
    centers : array_like of shape (m, d), optional
        The kernel's second argument; may be empty (m = 0: no kernel columns).
    bias : bool
        Add the column of ones.
    bias_last : bool
        Put it after the other columns (the RVM's [k(X, C), 1]) instead of first ([1, X]).
    name : str
        What to call `basis` in error messages (e.g. ``"kernel"``).
    **kernel_params
        Hyperparameters for a kernel given by name (``gamma=...``).

    Returns
    -------
    Phi : ndarray of shape (n, M + bias)

    Raises
    ------
    ValueError
        Bad `X`; a `basis` that is not callable (or, with `centers`, not a kernel name); a basis
        that returns anything but a finite array with one row per input (and one column per
        centre).
    """
    X = check_array(X, "X")
    n = X.shape[0]
    if basis is None:
        F = X
    elif centers is not None:
        kernel = get_kernel(basis, **kernel_params)
        F = _columns(
            kernel(X, centers) if len(centers) else np.zeros((n, 0)),
            n,
            len(centers),
            name,
        )
    else:
        if not callable(basis):
            raise ValueError(
                f"{name} must be callable, mapping X to a design matrix; got {basis!r}."
            )
        F = _columns(basis(X), n, None, name)
    if not bias:
        return F
    ones = np.ones(n)
    return np.column_stack([F, ones] if bias_last else [ones, F])


def _columns(F, n: int, m: int | None, name: str) -> np.ndarray:
    """`F` as a finite float array of shape (n, m) (m = None: any number of columns)."""
    try:
        F = np.asarray(F, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must return a numeric array; got {type(F).__name__}."
        ) from None
    if F.ndim != 2 or F.shape[0] != n or (m is not None and F.shape[1] != m):
        want = (
            f"of shape {(n, m)}" if m is not None else f"with {n} rows (one per input)"
        )
        raise ValueError(
            f"{name} must return a finite 2-D array {want}; got shape {F.shape}."
        )
    if not all_finite(F):
        raise ValueError(
            f"{name} must return a finite array; got NaN or infinite values."
        )
    return F
