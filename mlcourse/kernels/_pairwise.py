"""Kernel functions shared by the RBF-network, RVM and Gaussian-process chapters.

Every kernel is a callable ``k(X, Y)`` that maps arrays of shape (n, d) and (m, d) to the
Gram matrix of shape (n, m). 1-D inputs of shape (n,) are read as n points in one dimension.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import blas as _blas

from ..utils.validation import check_array, check_scalar

__all__ = ["sq_dist", "rbf", "linear_spline", "SquaredExponential", "BasisKernel"]


def _as_points(X, name: str) -> np.ndarray:
    X = np.asarray(X)
    if X.ndim == 1:
        X = X[:, None]
    return check_array(X, name)


def _pair(X, Y):
    X = _as_points(X, "X")
    Y = X if Y is None else _as_points(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y must have the same number of features; got {X.shape[1]} "
                         f"and {Y.shape[1]}.")
    return X, Y


def _check_scale(scale, n_features: int | None, name: str = "scale") -> np.ndarray:
    """`scale` as a float array: a positive finite scalar or one per feature, else ValueError.

    With ``n_features=None`` (the number of inputs not yet known) any non-empty 1-D array passes.
    """
    try:
        s = np.asarray(scale, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number or one per feature; got {scale!r}.") \
            from None
    if n_features is None:
        if s.ndim > 1 or s.size == 0:
            raise ValueError(f"{name} must be a positive scalar or a 1-D array; got shape "
                             f"{s.shape}.")
    elif s.ndim > 1 or (s.ndim == 1 and s.size not in (1, n_features)):
        raise ValueError(f"{name} must be a scalar or have one entry per feature ({n_features}); "
                         f"got shape {s.shape}.")
    if not np.all(np.isfinite(s)) or np.any(s <= 0):
        raise ValueError(f"{name} must be positive and finite; got {scale!r}.")
    return s


def sq_dist(X, Y=None, scale=None) -> np.ndarray:
    """Pairwise squared Euclidean distances ‖x_i − y_j‖², shape (n, m).

    Uses ‖x‖² + ‖y‖² − 2xᵀy (one matrix product) and clips the tiny negative values that
    cancellation produces to 0. With `scale` (a positive scalar or one positive value per
    feature), the inputs are divided by it first, giving Σ_d (x_d − y_d)²/scale_d².
    """
    X, Y = _pair(X, Y)
    same = Y is X
    if scale is not None:
        scale = _check_scale(scale, X.shape[1])
        X = X / scale
        Y = X if same else Y / scale
    xx = np.einsum("ij,ij->i", X, X)
    yy = xx if same else np.einsum("ij,ij->i", Y, Y)
    # The cross term goes through SciPy's BLAS, not NumPy's `@`: the Cholesky factorisations and
    # triangular solves that follow a kernel evaluation run in SciPy's OpenBLAS, and NumPy bundles
    # a second OpenBLAS whose idle threads keep spinning and slow them down about 2x (measured:
    # GP fit + predict at N = 2000, 199 ms with `@`, 105 ms with dgemm, on 2 cores).
    d2 = np.add.outer(xx, yy)
    if same:
        # syrk: half the work. It fills the upper triangle of −2XXᵀ (zeros below); adding it and
        # its transpose gives entries (ij) and (ji) by the same operations: exactly symmetric.
        cross = _blas.dsyrk(-2.0, X)
        d2 += cross
        d2 += cross.T
    else:
        d2 += _blas.dgemm(-2.0, X, Y, trans_b=True)      # −2 X Yᵀ
    np.maximum(d2, 0.0, out=d2)
    if same:
        np.fill_diagonal(d2, 0.0)
    return d2


def rbf(X, Y=None, gamma: float = 1.0) -> np.ndarray:
    """Gaussian (RBF) kernel k(x, x′) = exp(−γ‖x − x′‖²), as ``sklearn.metrics.pairwise.rbf_kernel``.

    Parameters
    ----------
    X : array_like of shape (n, d) or (n,)
    Y : array_like of shape (m, d) or (m,), optional
        Defaults to `X`.
    gamma : float > 0
        Inverse squared width; γ = 1/r² in Tipping (2001) and 1/(2ℓ²) for a length scale ℓ.
    """
    check_scalar(gamma, "gamma", low=0, low_inclusive=False)
    return np.exp(-gamma * sq_dist(X, Y))


def linear_spline(X, Y=None) -> np.ndarray:
    """Univariate linear-spline kernel, Tipping (2001) eq. (29).

    k(x, x′) = 1 + x x′ + x x′ min(x, x′) − (x + x′)/2 · min(x, x′)² + min(x, x′)³/3,

    the covariance of a linear spline with infinitely many knots (knots on [0, ∞)). Defined for
    1-D inputs only. Positive semi-definite for inputs ≥ 0, where it is that covariance; indefinite
    once inputs are negative (e.g. smallest eigenvalue ≈ −4e3 on 50 points in [−10, 10], the RVM
    chapter's range; ≈ −2e2 on [−5, −0.1]).

    Parameters
    ----------
    X : array_like of shape (n, 1) or (n,)
    Y : array_like of shape (m, 1) or (m,), optional
        Defaults to `X`.

    Returns
    -------
    K : ndarray of shape (n, m)
        k(xᵢ, yⱼ); positive semi-definite for inputs ≥ 0 only (see above).
    """
    X, Y = _pair(X, Y)
    if X.shape[1] != 1:
        raise ValueError(f"linear_spline is defined for 1-D inputs; got {X.shape[1]} features.")
    x, y = X[:, 0][:, None], Y[:, 0][None, :]
    m = np.minimum(x, y)
    xy = x * y
    return 1.0 + xy + xy * m - 0.5 * (x + y) * m**2 + m**3 / 3.0


class SquaredExponential:
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
            raise ValueError(f"length_scale has {ell.size} entries but the inputs have "
                             f"{X.shape[1]} features.")

    def __call__(self, X, Y=None) -> np.ndarray:
        ell = self._validated()
        X, Y = _pair(X, Y)
        self._check_width(ell, X)
        K = sq_dist(X, Y, scale=ell)
        K *= -0.5                       # in place: no temporary (n, m) arrays
        np.exp(K, out=K)
        K *= self.variance
        return K

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
            raise ValueError(f"theta must be a finite vector of length {1 + ell.size} "
                             f"([ln variance, ln length_scale...]); got {theta!r}.")
        new_ell = np.exp(theta[1:])
        return SquaredExponential(float(new_ell[0]) if ell.ndim == 0 else new_ell,
                                  float(np.exp(theta[0])))

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
        if ell.size == 1:               # scalar ℓ: one distance matrix, ‖x − x′‖²/ℓ²
            dK[1] = sq_dist(X, scale=ell.ravel()[0])
            K = dK[1].copy()
        else:                           # ARD: (x_d − x′_d)²/ℓ_d² per input; K from their sum
            for d in range(ell.size):
                dK[1 + d] = sq_dist(X[:, [d]], scale=ell[d])
            K = dK[1:].sum(axis=0)
        K *= -0.5
        np.exp(K, out=K)
        K *= self.variance
        dK[1:] *= K
        dK[0] = K                       # a copy: callers may change K in place
        return K, dK

    def __repr__(self) -> str:
        return f"SquaredExponential(length_scale={self.length_scale!r}, variance={self.variance!r})"


class BasisKernel:
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
        """Φ = basis(X), validated: shape (n, M), finite."""
        check_scalar(self.variance, "variance", low=0, low_inclusive=False)
        if not callable(self.basis):
            raise ValueError(f"basis must be callable, mapping X to a design matrix; got "
                             f"{self.basis!r}.")
        X = _as_points(X, "X")
        Phi = check_array(self.basis(X), "basis(X)")
        if Phi.shape[0] != X.shape[0]:
            raise ValueError(f"basis(X) must have one row per input; got {Phi.shape[0]} rows "
                             f"for {X.shape[0]} inputs.")
        return Phi

    def __call__(self, X, Y=None) -> np.ndarray:
        PX = self.features(X)
        PY = PX if Y is None else self.features(Y)
        return self.variance * (PX @ PY.T)

    def diag(self, X) -> np.ndarray:
        """σ_w² ‖φ(x_i)‖² for each row."""
        P = self.features(X)
        return self.variance * np.einsum("ij,ij->i", P, P)

    def __repr__(self) -> str:
        return f"BasisKernel(basis={self.basis!r}, variance={self.variance!r})"
