"""Binary Gaussian-process classification with the Laplace approximation (lecture 002).

Latent y = f(x) ~ GP(0, k), labels t ∈ {0, 1} with p(t = 1 | f) = σ(f). The log posterior of
the latent values f at the training inputs is, up to a constant (lecture 002, GPML (3.12)),

    Ψ(f) = tᵀf − Σ_n ln(1 + e^{f_n}) − ½ fᵀK⁻¹f,
    ∇Ψ = t − σ(f) − K⁻¹f,        ∇∇Ψ = −(D + K⁻¹),   D = diag(σ(f_n)(1 − σ(f_n))).

The Laplace approximation is N(f̂, (D + K⁻¹)⁻¹) at the mode f̂ = K(t − σ(f̂)), found by Newton's
method in the stable form of GPML Algorithm 3.1 (only B = I + D^½ K D^½, whose eigenvalues are
≥ 1, is factorised). Predictions follow GPML Algorithm 3.2; the class probability uses the probit
approximation :func:`mlcourse.laplace.probit_approximation`.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import linalg

from ..base import BaseEstimator, ClassifierMixin
from ..laplace import probit_approximation
from ..special import log_sigmoid, sigmoid
from ..utils.validation import (
    check_array,
    check_binary_labels,
    check_is_fitted,
    encode_labels,
    validate_data,
)
from ._base import CONSTRAINTS, check_theta, kernel_copy, learn_theta, require_theta

__all__ = ["GaussianProcessClassifier", "laplace_mode"]

# Newton's method on Ψ stops when Ψ increases by less than PSI_GAIN_TOL = 1e-10 nats: GPML
# Algorithm 3.1's criterion, on the objective rather than on the step, so it is not
# utils.optimize.NEWTON_TOL (a bound on the relative step). Ψ is concave, so this is reached in a
# handful of iterations; step halving guards the rare overshoot.
PSI_GAIN_TOL, NEWTON_MAX_ITER = 1e-10, 100

# laplace_mode (the public function) refuses K whose smallest eigenvalue is below
# −PSD_RTOL · max|eigenvalue|. Rounding moves a PSD matrix's zero eigenvalues by about
# n · 2.2e-16 · max|eigenvalue|, far inside this; the Cholesky factor of I + D^½ K D^½ alone would
# only fail for eigenvalues below ≈ −4 (and accepted e.g. K = −I).
PSD_RTOL = 1e-10


def _psi(a, f, t):
    return -0.5 * a @ f + log_sigmoid((2.0 * t - 1.0) * f).sum()


def _newton_factor(K, f):
    """σ(f), D^½ and the Cholesky factor of B = I + D^½ K D^½ at f (GPML Alg. 3.1 lines 4–5)."""
    pi = sigmoid(f)
    W_sr = np.sqrt(pi * (1.0 - pi))
    L = linalg.cholesky(
        np.eye(len(f)) + W_sr[:, None] * K * W_sr, lower=True, check_finite=False
    )
    return pi, W_sr, L


def laplace_mode(K, t):
    """Mode of the latent posterior and the Laplace log marginal likelihood, GPML Algorithm 3.1.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Prior covariance of the latent values at the training inputs.
    t : ndarray of shape (n,)
        0/1 labels.

    Returns
    -------
    dict with
        ``f`` — the mode f̂ (n,); ``a`` — K⁻¹f̂ = t − σ(f̂); ``pi`` — σ(f̂); ``W_sr`` — D^½;
        ``L`` — Cholesky factor of B = I + D^½ K D^½ at f̂; ``lml`` — the approximate
        ln q(t | X) = −½ f̂ᵀK⁻¹f̂ + ln p(t | f̂) − ½ ln|B|  (GPML (3.32)).

    Raises
    ------
    ValueError
        For bad t, a K of the wrong shape, with NaN/inf, not symmetric (relative 1e-10), or not
        positive semi-definite: smallest eigenvalue below −``PSD_RTOL`` · max|eigenvalue|,
        ``PSD_RTOL`` = 1e-10.
    """
    t = check_binary_labels(t, "t").astype(float)
    K = check_array(K, "K")
    if K.shape != (len(t), len(t)):
        raise ValueError(
            f"K must be the ({len(t)}, {len(t)}) covariance of the latent values at "
            f"the {len(t)} labels in t; got shape {K.shape}."
        )
    if not np.allclose(K, K.T, rtol=1e-10, atol=0.0):
        raise ValueError("K must be symmetric (a covariance matrix).")
    lam = np.linalg.eigvalsh(K)  # ascending; t is non-empty
    if lam[0] < -PSD_RTOL * np.abs(lam).max():
        raise ValueError(
            f"K is not positive semi-definite: smallest eigenvalue {lam[0]:.3g} "
            f"< -{PSD_RTOL:g} × max|eigenvalue| ({np.abs(lam).max():.3g})."
        )
    return _laplace_mode(K, t)


def _laplace_mode(K, t):
    """:func:`laplace_mode` for K and t already validated (the estimator's path)."""
    n = len(t)
    a, f = np.zeros(n), np.zeros(n)
    psi = _psi(a, f, t)
    for _ in range(NEWTON_MAX_ITER):
        pi, W_sr, L = _newton_factor(K, f)
        b = W_sr**2 * f + (t - pi)
        a_new = b - W_sr * linalg.cho_solve(
            (L, True), W_sr * (K @ b), check_finite=False
        )
        step = 1.0
        # Ψ < 0 is a sum of non-positive terms, so it is known to about 8ε|Ψ|: a full step that
        # "lowers" Ψ by less is at the mode, and halving it would leave half the previous error
        rounding = 8 * np.finfo(float).eps * abs(psi)
        while True:  # halve the step if Ψ went down
            a_try = a + step * (a_new - a)
            f_try = K @ a_try
            psi_try = _psi(a_try, f_try, t)
            if psi_try >= psi - rounding or step < 1e-6:
                break
            step /= 2.0
        a, f, gain, psi = a_try, f_try, psi_try - psi, psi_try
        if gain < PSI_GAIN_TOL:
            break
    else:
        warnings.warn(
            f"Newton's method did not converge in {NEWTON_MAX_ITER} iterations.",
            RuntimeWarning,
            stacklevel=2,
        )
    pi, W_sr, L = _newton_factor(K, f)  # at the mode
    return {
        "f": f,
        "a": t - pi,
        "pi": pi,
        "W_sr": W_sr,
        "L": L,
        "lml": float(psi - np.log(np.diag(L)).sum()),
    }  # psi = Ψ(f̂), from the loop


class GaussianProcessClassifier(ClassifierMixin, BaseEstimator):
    """Binary GP classifier with the Laplace approximation (GPML Algorithms 3.1, 3.2, 5.1).

    Parameters
    ----------
    kernel : callable, optional
        Covariance of the latent function, k(X, Y) with a ``diag(X)`` method; default
        ``SquaredExponential(1.0, 1.0)``. Learning its hyperparameters needs ``theta``,
        ``with_theta`` and ``gradient``.
    optimize : bool
        Maximise the approximate log marginal likelihood ln q(t | X, θ) over the kernel's θ.
    n_restarts : int ≥ 0
        Extra optimiser runs from random starts.
    random_state : None, int or numpy.random.Generator

    Attributes
    ----------
    classes_ : the two labels; the second is the "positive" class t = 1
    kernel_ : the (fitted) kernel
    latent_mode_ : ndarray (N,), f̂
    log_marginal_likelihood_value_ : float, ln q(t | X, θ) at ``kernel_``

    See Also
    --------
    GaussianProcessRegressor : the same prior with Gaussian noise.
    RVMClassifier : a sparse Bayesian classifier on kernel basis functions.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.gp import GaussianProcessClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-3, 3, (40, 1))
    >>> y = (np.sin(X[:, 0]) + 0.3 * rng.standard_normal(40) > 0).astype(int)
    >>> clf = GaussianProcessClassifier(random_state=0).fit(X, y)
    >>> clf.predict([[-2.0], [2.0]]).tolist()
    [0, 1]
    >>> clf.predict_proba([[-2.0], [2.0]]).round(2).tolist()
    [[0.91, 0.09], [0.06, 0.94]]
    """

    _n_classes = 2
    _parameter_constraints = CONSTRAINTS

    def __init__(self, kernel=None, optimize=True, n_restarts=0, random_state=None):
        self.kernel = kernel
        self.optimize = optimize
        self.n_restarts = n_restarts
        self.random_state = random_state

    def log_marginal_likelihood(self, theta=None, eval_gradient=False):
        """Laplace approximation ln q(t | X, θ) (GPML (3.32)) at the mode for θ.

        Parameters
        ----------
        theta : array_like of shape (n_kernel_params,), optional
            Kernel log-parameters [ln σ_f², ln ℓ_1, …] (scikit-learn's order for
            ``ConstantKernel * RBF``). Default: the fitted kernel.
        eval_gradient : bool
            Also return ∂ ln q/∂θ_j, explicit plus implicit (through f̂) terms, GPML Alg. 5.1.

        Returns
        -------
        value : float
            ln q(t | X, θ).
        gradient : ndarray of shape (n_kernel_params,)
            Only with ``eval_gradient=True``.
        """
        check_is_fitted(self)
        if theta is None and not eval_gradient:
            return self.log_marginal_likelihood_value_
        require_theta(self.kernel_)
        theta = check_theta(theta, self.kernel_.theta)
        value, grad = _log_marginal_likelihood(
            self.kernel_, theta, self.X_train_, self.y_train_, eval_gradient
        )
        return (float(value), grad) if eval_gradient else float(value)

    def fit(self, X, y):
        """Optionally learn θ by maximising ln q(t | X, θ), then find the Laplace mode f̂.

        Parameters
        ----------
        X : array_like of shape (n, d)
            Training inputs.
        y : array_like of shape (n,)
            Labels with exactly two distinct values; the second of ``classes_`` is t = 1.

        Returns
        -------
        self : GaussianProcessClassifier
            With ``classes_``, ``kernel_``, ``latent_mode_`` and
            ``log_marginal_likelihood_value_`` set.
        """
        self._reset()  # first: a failed fit leaves the estimator unfitted
        X, y = validate_data(self, X, y)
        classes, idx = encode_labels(y, n_classes=self._n_classes)
        t = idx.astype(float)  # 0/1: the second of classes_ is t = 1
        kernel = kernel_copy(self.kernel, X, self.optimize)
        if self.optimize:  # θ maximising ln q(t | X, θ), GPML Algorithm 5.1
            theta = learn_theta(
                lambda th: _log_marginal_likelihood(kernel, th, X, t, True),
                kernel.theta,
                [],
                X,
                None,
                self.n_restarts,
                self.random_state,
            )
            kernel = kernel.with_theta(theta)
        m = _laplace_mode(kernel(X, X), t)  # the mode f̂, GPML Algorithm 3.1
        self.X_train_, self.y_train_ = X, t
        self.kernel_, self.log_marginal_likelihood_value_ = kernel, float(m["lml"])
        self.classes_ = classes
        self.latent_mode_, self.pi_, self.W_sr_, self.L_ = (
            m["f"],
            m["pi"],
            m["W_sr"],
            m["L"],
        )
        return self

    def latent_mean_and_variance(self, X):
        """Laplace predictive of the latent f* at `X` (m, d), GPML Algorithm 3.2 lines 4–6.

        mean = k*ᵀ(t − σ(f̂))  (lecture 002: ŷ(x) = kᵀ(z − σ(ŷ)));
        var  = k(x*, x*) − k*ᵀ(K + D⁻¹)⁻¹k*  (GPML (3.24); computed as k** − ‖L⁻¹D^½k*‖²).

        Returns
        -------
        mean, var : ndarray of shape (m,)
        """
        X = validate_data(self, X, reset=False)
        Ks = self.kernel_(self.X_train_, X)
        mean = Ks.T @ (self.y_train_ - self.pi_)
        v = linalg.solve_triangular(
            self.L_, self.W_sr_[:, None] * Ks, lower=True, check_finite=False
        )
        var = self.kernel_.diag(X) - np.einsum("ij,ij->j", v, v)
        return mean, np.maximum(var, 0.0)

    def predict_proba(self, X):
        """[P(classes_[0] | x), P(classes_[1] | x)], shape (m, 2).

        P(t = 1 | x) = ∫ σ(f*) N(f* | mean, var) df* ≈ σ(κ(var)·mean), the probit approximation
        (Bishop (4.153)–(4.155)).
        """
        mean, var = self.latent_mean_and_variance(X)
        p = probit_approximation(mean, var)
        return np.column_stack([1.0 - p, p])


def _log_marginal_likelihood(kernel, theta, X, t, eval_gradient):
    """ln q(t | X, θ) and its gradient, GPML Algorithm 5.1 (explicit + implicit terms).

    No jitter is ever added here (B = I + D^½KD^½ has eigenvalues ≥ 1 for a PSD K); a failed
    factorisation gives −inf.
    """
    kernel = kernel.with_theta(theta)
    K, dK = kernel.gradient(X) if eval_gradient else (kernel(X, X), None)
    try:
        m = _laplace_mode(K, t)
    except linalg.LinAlgError:
        return -np.inf, np.zeros_like(theta)
    if not eval_gradient:
        return m["lml"], None
    pi, W_sr, L = m["pi"], m["W_sr"], m["L"]
    R = W_sr[:, None] * linalg.cho_solve((L, True), np.diag(W_sr), check_finite=False)
    C = linalg.solve_triangular(L, W_sr[:, None] * K, lower=True, check_finite=False)
    # ∂ ln q/∂f̂ = −½ diag[(K⁻¹ + D)⁻¹] ∂D/∂f̂, with ∂D_nn/∂f_n = π(1 − π)(1 − 2π)
    s2 = (
        -0.5 * (np.diag(K) - np.einsum("ij,ij->j", C, C)) * pi * (1 - pi) * (1 - 2 * pi)
    )
    grad = np.empty(len(theta))
    for j, dKj in enumerate(dK):
        b = dKj @ m["a"]
        s1 = 0.5 * m["a"] @ b - 0.5 * np.sum(R * dKj)  # explicit
        grad[j] = s1 + s2 @ (b - K @ (R @ b))  # + implicit, via f̂
    return m["lml"], grad
