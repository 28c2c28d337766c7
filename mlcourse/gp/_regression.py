"""Exact Gaussian-process regression, GPML Algorithm 2.1, with hyperparameters by maximising the
log marginal likelihood (GPML §5.4.1).

Notation: targets z (Bishop's t), latent f = y(x), noise variance σ_n² (the lecture's σ_v²),
K the Gram matrix of the kernel on the training inputs, C_N = K + σ_n² I.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from scipy import linalg
from scipy.linalg import blas as _blas

from ..base import BaseEstimator, RegressorMixin
from ..kernels import Kernel
from ..special import LOG_2PI
from ..utils.validation import Interval, check_is_fitted, validate_data
from ._base import (
    CONSTRAINTS,
    NOISE_BOUNDS,
    check_theta,
    cholesky_in_place,
    cholesky_jitter,
    kernel_copy,
    learn_theta,
    learnable,
    require_theta,
)

__all__ = ["GaussianProcessRegressor"]


class GaussianProcessRegressor(RegressorMixin, BaseEstimator):
    """Gaussian-process regression with a zero-mean prior, GPML Algorithm 2.1.

    z_n = f(x_n) + ε_n with f ~ GP(0, k) and ε_n ~ N(0, σ_n²). The posterior of the latent f at
    test inputs X* has mean K*ᵀ(K + σ_n² I)⁻¹z and covariance K** − K*ᵀ(K + σ_n² I)⁻¹K*
    (GPML (2.23)–(2.24); lecture 002 "GP-based prediction" writes the same for z*, adding σ_n²).

    Parameters
    ----------
    kernel : callable, optional
        k(X, Y) with a ``diag(X)`` method; default ``SquaredExponential(1.0, 1.0)``. To learn its
        hyperparameters it also needs ``theta``, ``with_theta`` and ``gradient`` (as
        :class:`~mlcourse.kernels.SquaredExponential` has).
    noise_variance : float ≥ 0
        σ_n² (of the standardised targets with ``normalize_y=True``); the starting value when
        ``optimize=True``. The search is over ln σ_n² within
        ``NOISE_BOUNDS`` = (1e-10, 1e5), so a start must lie above the lower bound 1e-10: the
        gradient in ln σ_n² is proportional to σ_n², vanishes there, and a search started at the
        bound stays there even on noisy data. Such starts raise ValueError; use e.g. the default
        1e-2 (and ``n_restarts`` for more starts). Starts just above the bound stall for the
        same reason. Noise-free data still reach the bound from 1e-2 when it is the maximum.
    optimize : bool
        Fit the kernel's hyperparameters and σ_n² by maximising the log marginal likelihood.
    n_restarts : int ≥ 0
        Extra optimiser runs from random starts (the LML can have several local optima).
    random_state : None, int or numpy.random.Generator
        Seeds the restarts.
    normalize_y : bool
        As scikit-learn's: standardise the targets, z ← (z − mean z)/std z, fit the zero-mean
        GP to them, and map the predictions back (mean · std + mean, std · std, cov · std²).
        A GP prior has a fixed scale (σ_f² starts at 1) and a zero mean; targets in large units
        or far from zero then fit worse (or need a wide search), and standardising makes the
        fit independent of the units. ``kernel_``, ``noise_variance_``, ``theta_``, ``L_``,
        ``alpha_``, ``y_train_`` and the log marginal likelihood are then those of the
        standardised targets (as in scikit-learn). Default False (the chapter's GP).

    Attributes
    ----------
    kernel_, noise_variance_ : the (fitted) kernel and σ_n²
    theta_ : ndarray, their log-parameters [ln σ_f², ln ℓ_1, …, ln σ_n²] (learnable kernels)
    log_marginal_likelihood_value_ : float, ln p(z | X, θ) at them
    L_ : ndarray (N, N), lower Cholesky factor of K + σ_n² I (+ jitter_ I)
    alpha_ : ndarray (N,), (K + σ_n² I)⁻¹ z
    jitter_ : float, diagonal jitter that was needed (0.0 normally)
    y_mean_, y_std_ : float, the standardisation (0.0 and 1.0 unless ``normalize_y``; a
        constant z has y_std_ = 1)

    See Also
    --------
    GaussianProcessClassifier : the same prior for two classes, by the Laplace approximation.
    KalmanGPRegressor : a finite-basis GP, updated one point at a time.
    RVMRegressor : a sparse Bayesian model on kernel basis functions.

    Examples
    --------
    >>> from mlcourse.datasets import sinc_data
    >>> from mlcourse.gp import GaussianProcessRegressor
    >>> X, y = sinc_data(30, 0.1, random_state=0)
    >>> gp = GaussianProcessRegressor(random_state=0).fit(X, y)
    >>> mean, std = gp.predict([[0.0], [20.0]], return_std=True)
    >>> round(float(mean[0]), 2), std.round(2).tolist()  # at x = 20: the prior's std
    (0.89, [0.04, 0.36])
    """

    _parameter_constraints = {
        **CONSTRAINTS,
        "noise_variance": [Interval(Real, 0, None, closed="left")],
        "normalize_y": ["boolean"],
    }

    def __init__(
        self,
        kernel=None,
        noise_variance=1e-2,
        optimize=True,
        n_restarts=0,
        random_state=None,
        normalize_y=False,
    ):
        self.kernel = kernel
        self.noise_variance = noise_variance
        self.optimize = optimize
        self.n_restarts = n_restarts
        self.random_state = random_state
        self.normalize_y = normalize_y

    def fit(self, X, y):
        """Optionally learn θ (and σ_n²), then factorise C = K + σ_n² I once (GPML Alg. 2.1).

        Parameters
        ----------
        X : array_like of shape (n, d)
            Training inputs.
        y : array_like of shape (n,)
            Targets z.

        Returns
        -------
        self : GaussianProcessRegressor
            With ``kernel_``, ``noise_variance_``, ``L_``, ``alpha_``, ``jitter_``,
            ``log_marginal_likelihood_value_`` (and ``theta_`` for a learnable kernel) set.
        """
        self._reset()  # first: a failed fit leaves the estimator unfitted
        X, z = validate_data(self, X, y, y_numeric=True)
        noise = float(self.noise_variance)
        if self.optimize and noise <= NOISE_BOUNDS[0]:
            raise ValueError(
                f"noise_variance = {noise:g} cannot start the search over ln "
                f"noise_variance: it is at or below the lower bound {NOISE_BOUNDS[0]:g}, "
                f"where the gradient in ln σ_n² (∝ σ_n²) vanishes and the search stalls; "
                f"start from a positive value such as the default 1e-2 (with n_restarts "
                f"for more starts), or use optimize=False for noise-free interpolation."
            )
        kernel = kernel_copy(self.kernel, X, self.optimize)
        self.y_mean_, self.y_std_ = 0.0, 1.0
        if self.normalize_y:
            std = float(np.std(z))
            self.y_mean_, self.y_std_ = float(np.mean(z)), std if std > 0 else 1.0
            z = (z - self.y_mean_) / self.y_std_
        if self.optimize:  # θ = [kernel.theta, ln σ_n²] maximising ln p(z | X, θ)
            theta = learn_theta(
                lambda th: _log_marginal_likelihood(
                    kernel, th, X, z, True, strict=True
                ),
                np.r_[kernel.theta, np.log(noise)],
                [NOISE_BOUNDS],
                X,
                float(np.var(z)),
                self.n_restarts,
                self.random_state,
            )
            kernel, noise = kernel.with_theta(theta[:-1]), float(np.exp(theta[-1]))
        # GPML Algorithm 2.1, lines 2, 3 and 7: L, α and ln p(z | X)
        self.L_, self.jitter_, self.alpha_, value = _factor(
            kernel, X, noise, z, strict=False
        )
        self.X_train_, self.y_train_ = X, z
        self.kernel_, self.noise_variance_ = kernel, noise
        self.log_marginal_likelihood_value_ = float(value)
        if learnable(kernel):
            self.theta_ = np.r_[kernel.theta, np.log(noise) if noise > 0 else -np.inf]
        return self

    def predict(self, X, return_std=False, return_cov=False):
        """Posterior of the latent f at `X` (m, d): GPML Algorithm 2.1.

        f̄* = K*ᵀα (line 4); v = L⁻¹K* (line 5); V[f*] = K** − vᵀv (line 6). The variance is of
        the noise-free f; add ``noise_variance_`` (times ``y_std_``² with ``normalize_y``) for
        the predictive variance of a new target. With ``normalize_y`` the mean, std and cov are
        mapped back to the units of y.

        Parameters
        ----------
        X : array_like of shape (m, d)
        return_std : bool, default=False
        return_cov : bool, default=False

        Returns
        -------
        mean : ndarray of shape (m,)
        std : ndarray of shape (m,), with ``return_std`` (tiny negative variances from rounding
            are clipped to 0)
        cov : ndarray of shape (m, m), with ``return_cov``
        """
        if return_std and return_cov:
            raise ValueError(
                "return_std and return_cov cannot both be True; the std is the "
                "square root of the covariance's diagonal."
            )
        X = validate_data(self, X, reset=False)
        Ks = self.kernel_(X, self.X_train_).T  # (N, m), Fortran order for LAPACK
        # line 4: K*ᵀα, through SciPy's BLAS like the solves (kernels.sq_dist on mixing BLAS)
        mean = _blas.dgemv(1.0, Ks, self.alpha_, trans=1)
        # back to y's units (exact no-ops, × 1.0 + 0.0, without normalize_y)
        mean = mean * self.y_std_ + self.y_mean_
        if not (return_std or return_cov):
            return mean
        # line 5: v = L \ K*
        v = linalg.solve_triangular(
            self.L_, Ks, lower=True, overwrite_b=True, check_finite=False
        )
        if return_cov:  # line 6: K** − vᵀv
            cov = self.kernel_(X, X) - v.T @ v
            return mean, cov * self.y_std_**2
        var = self.kernel_.diag(X) - np.einsum("ij,ij->j", v, v)
        std = np.sqrt(np.maximum(var, 0.0))
        return mean, std * self.y_std_

    def log_marginal_likelihood(self, theta=None, eval_gradient=False):
        """ln p(z | X, θ) = −½ zᵀC⁻¹z − ½ ln|C| − (N/2) ln 2π, with C = K_θ + σ_n² I.

        Parameters
        ----------
        theta : array_like of shape (n_kernel_params + 1,), optional
            Log-parameters [ln σ_f², ln ℓ_1, …, ln σ_n²] (scikit-learn's order for
            ``ConstantKernel * RBF + WhiteKernel``). Default: the fitted hyperparameters.
        eval_gradient : bool, default=False
            Also return ∂/∂θ_j = ½ tr[(ααᵀ − C⁻¹) ∂C/∂θ_j], α = C⁻¹z (lecture 002, GPML (5.9)).

        Returns
        -------
        value : float
        gradient : ndarray of shape (n_params,), only with ``eval_gradient=True``
        """
        check_is_fitted(self)
        if theta is None and not eval_gradient:
            return self.log_marginal_likelihood_value_
        require_theta(self.kernel_)
        if theta is None and self.noise_variance_ == 0:
            raise ValueError(
                "the gradient with respect to ln noise_variance is undefined "
                "at noise_variance = 0; pass theta explicitly."
            )
        theta = check_theta(theta, self.theta_)
        value, grad = _log_marginal_likelihood(
            self.kernel_, theta, self.X_train_, self.y_train_, eval_gradient, False
        )
        return (float(value), grad) if eval_gradient else float(value)


def _noisy_gram(kernel, X, noise, K=None):
    """C = K + σ_n² I, with K = k(X, X) unless given, in K's memory (C is then factorised in
    place). mlcourse's kernels return a new array; another kernel's K is copied first, since it
    may be an array that the kernel keeps."""
    C = kernel(X, X) if K is None else K
    if not isinstance(kernel, Kernel):
        C = np.array(C, dtype=float)
    C[np.diag_indices_from(C)] += noise
    return C


def _factor(kernel, X, noise, z, strict, K=None):
    """Factorise C = K + σ_n² I once: (L, jitter, α = C⁻¹z, ln p(z | X, θ)).

    GPML Algorithm 2.1, lines 2, 3 and 7. K = k(X, X) unless given; L is computed in its memory
    (:func:`cholesky_in_place`), and C is built afresh for the jitter should the plain
    factorisation fail. With ``strict`` (inside the optimiser) a failed Cholesky raises
    LinAlgError instead.
    """
    C = _noisy_gram(kernel, X, noise, K)
    if strict:
        L, jitter = cholesky_in_place(C), 0.0
    else:
        L, jitter = cholesky_jitter(
            C, lambda: _noisy_gram(kernel, X, noise), "K + noise_variance·I"
        )
    alpha = linalg.cho_solve((L, True), z, check_finite=False)
    value = -0.5 * z @ alpha - np.log(np.diag(L)).sum() - 0.5 * len(z) * LOG_2PI
    return L, jitter, alpha, value


def _log_marginal_likelihood(kernel, theta, X, z, eval_gradient, strict):
    """ln p(z | X, θ) (GPML (5.8), Algorithm 2.1 line 7) and ½ tr[(ααᵀ − C⁻¹) ∂C/∂θ_j] (5.9).

    θ = [kernel.theta, ln σ_n²]. With ``strict`` (inside the optimiser) a failed Cholesky
    gives −inf instead of jitter.
    """
    kernel = kernel.with_theta(theta[:-1])
    noise = float(np.exp(theta[-1]))
    K, dK = kernel.gradient(X) if eval_gradient else (None, None)
    try:
        L, _, alpha, value = _factor(kernel, X, noise, z, strict, K)
    except linalg.LinAlgError:
        return -np.inf, np.zeros_like(theta)
    if not eval_gradient:
        return value, None
    W = np.outer(alpha, alpha) - linalg.cho_solve(
        (L, True), np.eye(len(z)), check_finite=False
    )
    grad = 0.5 * np.r_[np.einsum("ij,pij->p", W, dK), noise * np.trace(W)]
    return value, grad
