"""Kernel functions as plain functions ``k(X, Y=None, ...) -> (n, m)`` (re-exported by
:mod:`mlcourse.kernels`, whose kernel objects call them).

1-D inputs of shape (n,) are read as n points in one dimension; ``Y=None`` means ``Y = X``.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import blas as _blas
from scipy.spatial.distance import cdist

from ..utils.validation import check_array, check_scalar

__all__ = ["sq_dist", "rbf", "laplacian", "silverman", "linear", "linear_spline"]


def _as_points(X, name: str) -> np.ndarray:
    X = np.asarray(X)
    if X.ndim == 1:
        X = X[:, None]
    return check_array(X, name)


def _pair(X, Y):
    X = _as_points(X, "X")
    Y = X if Y is None else _as_points(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of features; got {X.shape[1]} "
            f"and {Y.shape[1]}."
        )
    return X, Y


def _check_scale(scale, n_features: int | None, name: str = "scale") -> np.ndarray:
    """`scale` as a float array: a positive finite scalar or one per feature, else ValueError.

    With ``n_features=None`` (the number of inputs not yet known) any non-empty 1-D array passes.
    """
    try:
        s = np.asarray(scale, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a positive number or one per feature; got {scale!r}."
        ) from None
    if n_features is None:
        if s.ndim > 1 or s.size == 0:
            raise ValueError(
                f"{name} must be a positive scalar or a 1-D array; got shape {s.shape}."
            )
    elif s.ndim > 1 or (s.ndim == 1 and s.size not in (1, n_features)):
        raise ValueError(
            f"{name} must be a scalar or have one entry per feature ({n_features}); "
            f"got shape {s.shape}."
        )
    if not np.all(np.isfinite(s)) or np.any(s <= 0):
        raise ValueError(f"{name} must be positive and finite; got {scale!r}.")
    return s


# sq_dist and rbf work through the (n, m) result in row blocks of about this many entries
# (1 MiB of float64): each block gets all its elementwise passes (the norms, the cross term,
# the clipping, and rbf's scaling and exponential) while it is in cache, rather than each pass
# streaming the whole matrix through memory. The entries are computed by the same operations
# in the same order, so the result is the same to the bit.
_BLOCK_ENTRIES = 1 << 17


def sq_dist(X, Y=None, scale=None) -> np.ndarray:
    """Pairwise squared Euclidean distances ‖x_i − y_j‖², shape (n, m).

    Uses ‖x‖² + ‖y‖² − 2xᵀy (one matrix product) and clips the tiny negative values that
    cancellation produces to 0. With `scale` (a positive scalar or one positive value per
    feature), the inputs are divided by it first, giving Σ_d (x_d − y_d)²/scale_d².
    """
    return _sq_dist(*_scaled(*_pair(X, Y), scale))


def _scaled(X, Y, scale):
    """X/scale, Y/scale (as they are for ``scale=None``) and whether Y is X: the arguments of
    :func:`_sq_dist` for validated X, Y."""
    same = Y is X
    if scale is not None:
        scale = _check_scale(scale, X.shape[1])
        X = X / scale
        Y = X if same else Y / scale
    return X, Y, same


def _sq_dist(X, Y, same, then=None) -> np.ndarray:
    """:func:`sq_dist` of validated X and Y (``same``: Y is X), applying ``then(block)`` in
    place to each row block of the result as soon as it is computed (``same``: to the part of
    the block up to its diagonal; the rest of the row is mirrored from finished entries).

    The result is built in the array BLAS returns the cross term in (no second (n, m) array):
    entry (i, j) is fl(‖x_i‖² + ‖y_j‖²) + (−2x_iᵀy_j), then clipped at 0.
    """
    xx = np.einsum("ij,ij->i", X, X)
    yy = xx if same else np.einsum("ij,ij->i", Y, Y)
    n, m = len(X), len(Y)
    # The cross term goes through SciPy's BLAS, not NumPy's `@`: the Cholesky factorisations and
    # triangular solves that follow a kernel evaluation run in SciPy's OpenBLAS, and NumPy bundles
    # a second OpenBLAS whose idle threads keep spinning and slow them down about 2x (measured:
    # GP fit + predict at N = 2000, 199 ms with `@`, 105 ms with dgemm, on 2 cores).
    if same:
        # syrk: half the work. BLAS fills the upper triangle of −2XXᵀ (in Fortran order; zeros
        # below), so its C-ordered transpose d2 holds (i, j) for i ≥ j. The row blocks are
        # finished from the last one up, each only as far as its diagonal tile (which first
        # gets its upper half from its lower one); the rest of the row is then the transpose of
        # entries already finished below. Half the elementwise work, and exactly symmetric.
        d2 = _blas.dsyrk(-2.0, X).T
    else:
        # −2 X Yᵀ, as the transpose of −2 Y Xᵀ: BLAS returns that Fortran-ordered, so this
        # is C-ordered and the row blocks below read it contiguously
        d2 = _blas.dgemm(-2.0, Y, X, trans_b=True).T
    rows = max(1, _BLOCK_ENTRIES // max(m, 1))
    norms = np.empty((min(rows, n), m))
    starts = range(0, n, rows)
    for start in reversed(starts) if same else starts:
        stop = min(start + rows, n)
        width = stop if same else m
        block = d2[start:stop, :width]
        if same:
            tile = d2[start:stop, start:stop]  # (i, j) for i ≥ j here, zeros above
            tile += np.triu(tile.T, 1)
        block += np.add(
            xx[start:stop, None], yy[:width], out=norms[: stop - start, :width]
        )
        np.maximum(block, 0.0, out=block)
        if same:  # the diagonal, (i, i) for i in start..stop − 1, is exactly 0
            i = np.arange(stop - start)
            block[i, i + start] = 0.0
        if then is not None:
            then(block)
        if same:
            d2[start:stop, stop:] = d2[stop:, start:stop].T
    return d2


def rbf(X, Y=None, gamma: float = 1.0) -> np.ndarray:
    """Gaussian (RBF) kernel k(x, x′) = exp(−γ‖x − x′‖²).

    As ``sklearn.metrics.pairwise.rbf_kernel``.

    Parameters
    ----------
    X : array_like of shape (n, d) or (n,)
    Y : array_like of shape (m, d) or (m,), optional
        Defaults to `X`.
    gamma : float > 0
        Inverse squared width; γ = 1/r² in Tipping (2001) and 1/(2ℓ²) for a length scale ℓ.
    """
    check_scalar(gamma, "gamma", low=0, low_inclusive=False)
    X, Y = _pair(X, Y)

    def exp_of_scaled(block):  # in place: no temporary arrays
        block *= -gamma
        np.exp(block, out=block)

    return _sq_dist(X, Y, Y is X, then=exp_of_scaled)


def laplacian(X, Y=None, gamma: float = 1.0) -> np.ndarray:
    """Laplacian kernel k(x, x′) = exp(−γ‖x − x′‖₁).

    As ``sklearn.metrics.pairwise.laplacian_kernel``.

    In one dimension it is the exponential kernel exp(−|x − x′|/ℓ) with γ = 1/ℓ: up to the factor
    1/(2ℓ), the Green's function of the penalty ∫ y² + ℓ² (y′)² dx (regularisation theory, lecture
    002; the RBF chapter). In D dimensions it is the product of D such kernels.

    Parameters
    ----------
    X : array_like of shape (n, d) or (n,)
    Y : array_like of shape (m, d) or (m,), optional
        Defaults to `X`.
    gamma : float > 0
        Inverse length scale.

    Returns
    -------
    K : ndarray of shape (n, m)
    """
    check_scalar(gamma, "gamma", low=0, low_inclusive=False)
    X, Y = _pair(X, Y)
    K = cdist(X, Y, "cityblock")
    K *= -gamma
    return np.exp(K, out=K)


def silverman(X, Y=None, length_scale: float = 1.0) -> np.ndarray:
    """Silverman's (1984) kernel, the equivalent kernel of a cubic smoothing spline (1-D only).

    k(x, x′) = e^{−r/√2} (cos(r/√2) + sin(r/√2)),  r = |x − x′|/ℓ,

    which is 2√2 ℓ times the Green's function of the penalty ∫ y² + ℓ⁴ (y″)² dx, the inverse
    Fourier transform of 1/(1 + ℓ⁴ω⁴) (lecture 002's second-derivative penalty with the zeroth-order
    term of the Gaussian series added; the RBF chapter). It is positive definite (its spectrum is
    positive), equals 1 at r = 0, and takes small negative values: its first zero is at
    r = 3π/(2√2) ≈ 3.33.

    Parameters
    ----------
    X : array_like of shape (n, 1) or (n,)
    Y : array_like of shape (m, 1) or (m,), optional
        Defaults to `X`.
    length_scale : float > 0
        ℓ.

    Returns
    -------
    K : ndarray of shape (n, m)
    """
    check_scalar(length_scale, "length_scale", low=0, low_inclusive=False)
    X, Y = _pair(X, Y)
    if X.shape[1] != 1:
        raise ValueError(
            f"silverman is defined for 1-D inputs; got {X.shape[1]} features."
        )
    u = np.abs(X[:, 0][:, None] - Y[:, 0][None, :]) / (np.sqrt(2.0) * length_scale)
    return np.exp(-u) * (np.cos(u) + np.sin(u))


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
    _check_univariate(X)
    return _spline(X[:, 0][:, None], Y[:, 0][None, :])


def _check_univariate(X):
    if X.shape[1] != 1:
        raise ValueError(
            f"linear_spline is defined for 1-D inputs; got {X.shape[1]} features."
        )


def _spline(x, y):
    """Tipping's eq. (29) elementwise, for x, y that broadcast (a Gram matrix or its diagonal)."""
    m = np.minimum(x, y)
    xy = x * y
    return 1.0 + xy + xy * m - 0.5 * (x + y) * m**2 + m**3 / 3.0


def linear(X, Y=None) -> np.ndarray:
    """Linear kernel k(x, x′) = xᵀx′, as ``sklearn.metrics.pairwise.linear_kernel``.

    The kernel of the model y = wᵀx with w ~ N(0, I): with it, kernel ridge regression is ridge
    regression, and kernel PCA is PCA.

    Parameters
    ----------
    X : array_like of shape (n, d) or (n,)
    Y : array_like of shape (m, d) or (m,), optional
        Defaults to `X`.

    Returns
    -------
    K : ndarray of shape (n, m)
    """
    X, Y = _pair(X, Y)
    return X @ Y.T
