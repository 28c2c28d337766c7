"""Kernel ridge regression: the kernel form of regularised least squares (lecture 002, "Optimal
Weights of RBF"; Bishop (6.8)–(6.9)).

y(x) = g(x)ᵀ(G + λI_N)⁻¹T with G_nm = k(x_n, x_m) and g(x)_n = k(x, x_n): the weights of the
basis-function model, Wᵀ = ΦᵀD, are never formed, only the N × C dual coefficients
D = (G + λI)⁻¹T.
"""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np
from scipy import linalg
from scipy.linalg import blas as _blas
from scipy.linalg import lapack
from sklearn.base import RegressorMixin

from ..kernels import KERNELS, Kernel, design_matrix, get_kernel
from ..utils.validation import Interval, StrOptions, validate_data
from ._base import _RBFEstimator

__all__ = ["KernelRidge"]


class KernelRidge(RegressorMixin, _RBFEstimator):
    """Kernel ridge regression, as scikit-learn's ``KernelRidge`` (same parameters, same
    predictions).

    Parameters
    ----------
    alpha : float ≥ 0
        λ, added to the diagonal of the Gram matrix.
    kernel : str, Kernel or callable
        A name resolved by :func:`mlcourse.kernels.get_kernel` (``"rbf"``, ``"laplacian"``,
        ``"linear"``, …), a :class:`~mlcourse.kernels.Kernel`, or a callable k(X, Y).
    gamma : float > 0 or None
        For the ``"rbf"`` and ``"laplacian"`` names; None means 1/D, as in scikit-learn.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (N,) or (N, C)
        D = (G + λI)⁻¹T.
    X_fit_ : ndarray of shape (N, D)
        The training inputs (the kernel's second argument at prediction).
    kernel_ : Kernel or callable
        The resolved kernel.
    n_features_in_ : int

    See Also
    --------
    RBFNetwork : fewer basis functions than data points.
    GaussianProcessRegressor : the same mean, with a variance.

    Examples
    --------
    >>> from mlcourse.datasets import sinc_data
    >>> from mlcourse.rbf import KernelRidge
    >>> X, y = sinc_data(40, 0.1, random_state=0)
    >>> model = KernelRidge(alpha=0.1, kernel='rbf', gamma=0.5).fit(X, y)
    >>> model.predict([[0.0], [5.0]]).round(2).tolist()
    [1.05, -0.22]
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "kernel": [StrOptions(tuple(KERNELS)), callable],
        "gamma": [None, Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, alpha=1.0, kernel="rbf", gamma=None):
        self.alpha = alpha
        self.kernel = kernel
        self.gamma = gamma

    def fit(self, X, y):
        """Solve (G + λI) D = T by one Cholesky factorisation.

        The factorisation is done in place on the Gram matrix (LAPACK ``potrf``, which reads one
        triangle); no inverse and no copy. If G + λI is not numerically positive definite (λ = 0
        with duplicated inputs, or a kernel that is not positive semi-definite), D is the
        least-squares solution instead, with a warning (as scikit-learn does).

        Parameters
        ----------
        X : array_like of shape (N, D)
        y : array_like of shape (N,) or (N, C)

        Returns
        -------
        self : KernelRidge
        """
        self._reset()
        X, y = validate_data(self, X, y, multi_output=True, y_numeric=True)
        gamma = 1.0 / X.shape[1] if self.gamma is None else float(self.gamma)
        kernel = get_kernel(self.kernel, gamma=gamma)
        G = _gram(kernel, X)
        G.flat[:: len(G) + 1] += self.alpha
        # Gᵀ is Fortran-ordered, so potrf factorises it in place: Gᵀ = UᵀU from its upper
        # triangle, which is G's lower one.
        c, info = lapack.dpotrf(G.T, lower=0, overwrite_a=1, clean=0)
        if info == 0:
            dual, info = lapack.dpotrs(c, y, lower=0)
        else:
            warnings.warn(
                "G + alpha·I is not positive definite (duplicated inputs with "
                "alpha = 0, or an indefinite kernel); using the least-squares "
                "solution instead.",
                RuntimeWarning,
                stacklevel=2,
            )
            G = _gram(kernel, X)
            G.flat[:: len(G) + 1] += self.alpha
            dual = linalg.lstsq(G, y, check_finite=False)[0]
        self.kernel_ = kernel
        self.X_fit_ = X
        self.dual_coef_ = dual
        return self

    def predict(self, X) -> np.ndarray:
        """y(x) = g(x)ᵀ D with g(x)_n = k(x, x_n): shape (n,) or (n, C)."""
        X = validate_data(self, X, reset=False)
        K = design_matrix(X, self.kernel_, self.X_fit_, bias=False, name="kernel")
        if self.dual_coef_.ndim == 1:
            # through SciPy's BLAS (see mlcourse.kernels.sq_dist on mixing the two BLAS), on
            # Kᵀ, which is Fortran-ordered as BLAS reads it (K itself would be copied first)
            return _blas.dgemv(1.0, K.T, self.dual_coef_, trans=1)
        return K @ self.dual_coef_


def _gram(kernel, X) -> np.ndarray:
    """G = k(X, X), an array of our own (it is factorised in place): a Kernel's symmetric route
    ``k(X)``, or a plain callable's ``k(X, X)``, checked and copied by
    :func:`~mlcourse.kernels.design_matrix` (the callable might return an array it keeps)."""
    if isinstance(kernel, Kernel):
        return kernel(X)
    return design_matrix(X, kernel, X, bias=False, name="kernel").copy()
