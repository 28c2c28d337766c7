"""The relevance vector regressor: a kernel design matrix, then either loop of the package."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np

from ..base import BaseEstimator, RegressorMixin
from ..exceptions import ConvergenceWarning
from ..kernels import KERNELS, design_matrix, get_kernel
from ..utils.validation import Interval, StrOptions, validate_data
from ._evidence import _spread
from ._loops import _ALIGNMENT_MAX, fit_em, fit_sequential

__all__ = ["RVMRegressor"]

_METHODS = ("fast", "em")


class RVMRegressor(RegressorMixin, BaseEstimator):
    """Relevance vector machine for regression.

    Parameters
    ----------
    kernel : {"rbf", "linear_spline", "linear"}, Kernel or callable
        The basis functions φₙ(x) = k(x, xₙ), resolved by :func:`mlcourse.kernels.get_kernel`.
        ``"rbf"`` is exp(−γ‖x − x′‖²) (:func:`mlcourse.kernels.rbf`), ``"linear_spline"``
        Tipping's eq. (29) for 1-D inputs, ``"linear"`` xᵀx′; a kernel object or a callable
        ``k(X, Y)`` returns the (n, m) matrix of k(xᵢ, yⱼ) and need not be positive definite.
    gamma : float > 0
        Inverse squared width of the ``"rbf"`` kernel (ignored, though validated, otherwise).
    bias : bool
        Add the constant basis function (the b of y(x) = Σ wₙk(x, xₙ) + b); it has its own α
        and can be pruned like the others.
    method : {"fast", "em"}
        ``"fast"``: Tipping & Faul's (2003) sequential algorithm (:func:`fit_sequential`);
        ``"em"``: the lecture's re-estimation loop αᵢ ← γᵢ/mᵢ² (:func:`fit_em`).
    noise_variance : float > 0 or None
        Fix β⁻¹ at this value; ``None`` estimates it, β⁻¹ ← ‖t − Φm‖²/(N − Σγᵢ), kept at least
        ``NOISE_FLOOR`` · var(y) = 1e-6 var(y) (SparseBayes caps β the same way), so noise-free
        targets work. A fixed value far below ``NOISE_FLOOR`` · var(y) is allowed; at such a β
        the evidence itself is only known to about 1e-15·β‖y‖² (its largest terms are that
        large), and ``method="fast"`` stops when no change gains more than that.
    max_iter : int
        Iterations of the chosen method (one basis-function change each for ``"fast"``).
    tol : float ≥ 0
        Convergence tolerance on log-precisions. ``"em"``: stop when no αᵢ was pruned and every
        |Δ ln αᵢ| < `tol`; ``"fast"``: stop when no change raises the evidence, or the best one
        re-estimates an αᵢ by |Δ ln αᵢ| < `tol`. Both also need |Δ ln β| < `tol`.
    alignment_max : float ≥ 0
        ``"fast"`` only: a basis function whose correlation with one in the model exceeds this
        is not added while the data cannot tell the two apart: moving the model function's
        weight onto it would change the fit by less than 3 noise standard deviations, and
        adding it would raise the evidence by less than 1 nat (SparseBayes' alignment test,
        made relative to the noise). 1 turns the test off. The test saves iterations on dense
        or duplicated inputs, where re-estimating near-duplicate pairs would crawl along flat
        ridges of the evidence.

    Attributes
    ----------
    kernel_ : Kernel or callable
        The kernel `kernel` names, with `gamma`.
    relevance_vectors_ : ndarray of shape (n_rv, n_features)
        The training inputs whose basis functions remain.
    relevance_indices_ : ndarray of shape (n_rv,)
        Their row numbers in the training data.
    coef_, alpha_ : ndarray of shape (n_rv,)
        Posterior means m of their weights, and their precisions αᵢ.
    intercept_, intercept_alpha_ : float
        The bias weight and its α (0 and inf if ``bias=False`` or the bias was pruned).
    sigma_ : ndarray of shape (n_rv + 1 if bias kept else n_rv, ...)
        Posterior covariance Σ of (coef_, intercept_).
    noise_variance_ : float
        β⁻¹.
    log_evidence_ : float
        ln p(t | α, β) at the optimum.
    n_iter_ : int
    converged_ : bool

    See Also
    --------
    RVMClassifier : the same prior for classification.
    GaussianProcessRegressor : a non-sparse kernel model with a variance.
    fit_sequential, fit_em : the two loops, on any design matrix.

    Examples
    --------
    >>> from mlcourse.datasets import sinc_data
    >>> from mlcourse.rvm import RVMRegressor
    >>> X, y = sinc_data(100, 0.1, random_state=0)
    >>> rvm = RVMRegressor(gamma=1 / 9).fit(X, y)
    >>> len(rvm.relevance_vectors_), round(float(rvm.noise_variance_ ** 0.5), 2)
    (6, 0.09)
    >>> mean, std = rvm.predict([[0.0]], return_std=True)
    >>> round(float(mean[0]), 2), round(float(std[0]), 2)
    (1.05, 0.09)
    """

    _parameter_constraints = {
        "kernel": [StrOptions(tuple(KERNELS)), callable],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "bias": ["boolean"],
        "method": [StrOptions(_METHODS)],
        "noise_variance": [None, Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "alignment_max": [Interval(Real, 0, np.inf, closed="both")],
    }

    def __init__(
        self,
        kernel="rbf",
        gamma=1.0,
        bias=True,
        method="fast",
        noise_variance=None,
        max_iter=5000,
        tol=1e-3,
        alignment_max=_ALIGNMENT_MAX,
    ):
        self.kernel = kernel
        self.gamma = gamma
        self.bias = bias
        self.method = method
        self.noise_variance = noise_variance
        self.max_iter = max_iter
        self.tol = tol
        self.alignment_max = alignment_max

    @staticmethod
    def _basis(kernel, X, centers, with_bias):
        """[k(X, centres), 1]: the design matrix Φ, shape (n, len(centres) + with_bias)."""
        return design_matrix(
            X, kernel, centers, bias=with_bias, bias_last=True, name="kernel"
        )

    def fit(self, X, y):
        """Maximise the evidence p(y | α, β) over α and β (and fit the weights' posterior).

        Parameters
        ----------
        X : array_like of shape (n, d)
            Training inputs; they are also the centres of the basis functions k(·, xₙ)
            (``d = 1`` for ``"linear_spline"``).
        y : array_like of shape (n,)
            Targets. Finite, and with a variance that floating point can hold
            (roughly 1e-150 < |y| < 1e150).

        Returns
        -------
        self : RVMRegressor
            Fitted; warns :class:`ConvergenceWarning` if the loop stopped at `max_iter`.

        Raises
        ------
        ValueError
            Bad input or hyperparameters (NaN, shapes, negative values, unknown options).
        """
        self._reset()  # first: a failed fit leaves the estimator unfitted
        X, y = validate_data(self, X, y, y_numeric=True)
        kernel = get_kernel(self.kernel, gamma=self.gamma)
        method = self.method
        n = X.shape[0]
        Phi = self._basis(kernel, X, X, self.bias)
        fixed = self.noise_variance is not None
        top = np.max(np.abs(y))
        with np.errstate(over="ignore", under="ignore", divide="ignore"):
            beta0 = (
                100.0 / (top**2 * _spread(y / top)) if top > 0 else 100.0
            )  # 100 / var(y)
        if not 0 < beta0 < np.inf:  # the loops scale y to unit RMS, fixed β or not
            raise ValueError(
                f"y is too large or too small for its variance to be held in floating "
                f"point (max |y| = {float(top):.3g}); rescale y."
            )
        beta0 = 1.0 / self.noise_variance if fixed else beta0
        extra = (
            {"alignment_max": self.alignment_max, "not_first": [n] if self.bias else []}
            if method == "fast"
            else {}
        )
        loop = fit_sequential if method == "fast" else fit_em
        res = loop(
            Phi, y, beta0, fix_beta=fixed, max_iter=self.max_iter, tol=self.tol, **extra
        )
        if not res.converged:
            warnings.warn(
                f"RVMRegressor(method={method!r}) stopped after max_iter="
                f"{self.max_iter} iterations before reaching tol={self.tol}.",
                ConvergenceWarning,
                stacklevel=2,
            )
        rv = res.active < n
        self.kernel_ = kernel
        self.relevance_indices_ = res.active[rv]
        self.relevance_vectors_ = X[self.relevance_indices_]
        self.coef_ = res.mean[rv]
        self.alpha_ = res.alpha[self.relevance_indices_]
        has_b = bool(self.bias) and not rv.all()
        self.intercept_ = float(res.mean[~rv][0]) if has_b else 0.0
        self.intercept_alpha_ = float(res.alpha[n]) if self.bias else np.inf
        self.sigma_ = res.cov
        self.noise_variance_ = 1.0 / res.beta
        self.log_evidence_ = res.log_evidence
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        return self

    def predict(self, X, return_std=False):
        """Predictive mean mᵀφ(x) and, with `return_std`, the standard deviation.

        The predictive variance is β⁻¹ + φ(x)ᵀΣφ(x) (lecture 001 / Bishop 7.91): the noise plus
        the uncertainty of the weights (far from the data, where every kernel vanishes, only the
        bias's remains: β⁻¹ + Σ_bb).

        Parameters
        ----------
        X : array_like of shape (n, d)
            Inputs, with the `d` features the model was fitted on.
        return_std : bool
            Also return the predictive standard deviation (noise included).

        Returns
        -------
        mean : ndarray of shape (n,)
        std : ndarray of shape (n,), only if `return_std`
        """
        X = validate_data(self, X, reset=False)
        has_b = np.isfinite(self.intercept_alpha_)
        Phi = self._basis(self.kernel_, X, self.relevance_vectors_, has_b)
        w = np.r_[self.coef_, [self.intercept_] if has_b else []]
        mean = Phi @ w
        if not return_std:
            return mean
        weight_var = np.einsum(
            "ij,ij->i", Phi @ self.sigma_, Phi
        )  # φᵀΣφ ≥ 0 up to rounding
        return mean, np.sqrt(self.noise_variance_ + np.maximum(weight_var, 0.0))
