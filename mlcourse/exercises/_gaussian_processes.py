"""Exercises of the chapter on Gaussian processes: the predictive mean and variance of a new
target, and the log marginal likelihood."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..checks import EPS
from ._exercise import Case, Exercise, Mistake

CHAPTER = "gaussian_processes"
LOG_2PI = float(np.log(2 * np.pi))


def _se_kernel(A, B, ell=1.0, sigma_f=1.0):
    """The squared-exponential kernel σ_f² exp(−‖a − b‖²/2ℓ²), from the differences."""
    d2 = np.sum((A[:, None, :] - B[None, :, :]) ** 2, axis=-1)
    return sigma_f**2 * np.exp(-d2 / (2 * ell**2))


# --- the predictive distribution -----------------------------------------------------------


def gp_predict(K, K_star, k_star_star, t, noise_variance):
    """The GP's predictive distribution of new targets, p(t_* | t) = N(t_* | m, σ²).

    Parameters
    ----------
    K : ndarray of shape (N, N)
        Kernel matrix of the training inputs, K_nm = k(x_n, x_m) (no noise).
    K_star : ndarray of shape (N, Q)
        Column q is the vector k of k(x_n, x_q*) for query point q.
    k_star_star : ndarray of shape (Q,)
        k(x_q*, x_q*) for each query point.
    t : ndarray of shape (N,)
        Training targets.
    noise_variance : float
        σ_n² = β⁻¹ > 0, the variance of the noise on each target.

    Returns
    -------
    mean : ndarray of shape (Q,)
        kᵀC_N⁻¹t at each query point.
    var : ndarray of shape (Q,)
        The variance of a new *target* t_* (noise included) at each query point.
    """
    K, K_star = np.asarray(K, float), np.asarray(K_star, float)
    L = linalg.cholesky(K + noise_variance * np.eye(len(K)), lower=True)
    alpha = linalg.cho_solve((L, True), np.asarray(t, float))
    V = linalg.solve_triangular(L, K_star, lower=True)  # GPML Algorithm 2.1
    var = np.asarray(k_star_star, float) + noise_variance - np.sum(V**2, axis=0)
    return K_star.T @ alpha, var


def _gp_latent_variance(K, K_star, k_star_star, t, noise_variance):
    mean, var = gp_predict(K, K_star, k_star_star, t, noise_variance)
    return mean, var - noise_variance


def _gp_no_noise(K, K_star, k_star_star, t, noise_variance):
    C_inv_k = np.linalg.solve(K, K_star)
    return C_inv_k.T @ t, k_star_star + noise_variance - np.sum(K_star * C_inv_k, 0)


def _gp_plus(K, K_star, k_star_star, t, noise_variance):
    C = K + noise_variance * np.eye(len(K))
    C_inv_k = np.linalg.solve(C, K_star)
    return C_inv_k.T @ t, k_star_star + noise_variance + np.sum(K_star * C_inv_k, 0)


def _gp_problem(rng, x, x_query, ell=1.0, sigma_f=1.0, sigma_n=0.1):
    K = _se_kernel(x, x, ell, sigma_f)
    L = linalg.cholesky(K + sigma_n**2 * np.eye(len(x)), lower=True)
    t = L @ rng.normal(size=len(x))
    return K, _se_kernel(x, x_query, ell, sigma_f), np.full(len(x_query), sigma_f**2), t


def _predict_cases():
    rng = np.random.default_rng(296)

    def case(label, x, x_query, sigma_n=0.1):
        K, K_star, kss, t = _gp_problem(rng, x, x_query, sigma_n=sigma_n)
        C = K + sigma_n**2 * np.eye(len(x))
        kappa = np.linalg.cond(C)
        a = np.linalg.solve(C, t)
        # The Cholesky factor of C_N is backward stable (N·EPS relative); solves lose cond(C_N).
        # The mean kᵀC_N⁻¹t errs by N·EPS·cond·Σ|k|·max|C_N⁻¹t|, the variance, a difference of
        # terms of size c = k(x*, x*) + σ_n², by N·EPS·cond·c; ten times both.
        n = len(x) + 2
        atol_mean = 10 * n * EPS * kappa * np.abs(K_star).sum(0).max() * np.abs(a).max()
        atol_var = 10 * n * EPS * kappa * (kss.max() + sigma_n**2)
        return Case(
            label,
            (K, K_star, kss, t, sigma_n**2),
            rtol=0.0,
            atol=(float(atol_mean), float(atol_var)),
            factors={"σ_n²": sigma_n**2},
        )

    x5 = np.sort(rng.uniform(-3, 3, 5))[:, None]
    x20 = rng.uniform(-5, 5, size=(20, 1))
    return [
        case("one training point, one query", np.array([[0.0]]), np.array([[0.5]])),
        case("queries on training inputs", x5, x5[[1, 3]]),
        case(
            "a repeated training input (K singular, C_N not)",
            np.r_[x5, x5[[2]]],
            np.array([[0.1], [2.5]]),
        ),
        case("a query far from the data (k = 0)", x5, np.array([[40.0]])),
        case("20 points, 5 queries, σ_n = 0.5", x20, rng.uniform(-6, 6, (5, 1)), 0.5),
    ]


GP_PREDICT = Exercise(
    name="gp-predictive",
    chapter=CHAPTER,
    prompt="Compute the GP's predictive mean and variance of a new target t_*.",
    reference=gp_predict,
    make_cases=_predict_cases,
    mistakes=(
        Mistake(
            "Your variance is that of the noise-free function value y(x_*), not of a new "
            "target t_*: c = k(x_*, x_*) + σ_n² includes the noise (Bishop (6.67); section "
            "'Prediction').",
            _gp_latent_variance,
        ),
        Mistake(
            "Your C_N is missing the noise: C_N = K + σ_n²I (β⁻¹I in Bishop (6.62)); "
            "without it the mean interpolates the noisy targets and K may be singular.",
            _gp_no_noise,
        ),
        Mistake(
            "Your variance adds kᵀC_N⁻¹k: the data can only reduce the prior variance, "
            "σ² = c − kᵀC_N⁻¹k (Bishop (6.67)).",
            _gp_plus,
        ),
    ),
    outputs=("mean", "var"),
    section="gp-prediction",
)


# --- the log marginal likelihood -----------------------------------------------------------


def gp_log_marginal_likelihood(K, t, noise_variance):
    """The log marginal likelihood ln p(t | X, θ) of a GP regression model.

    Parameters
    ----------
    K : ndarray of shape (N, N)
        Kernel matrix of the training inputs (no noise).
    t : ndarray of shape (N,)
        Training targets.
    noise_variance : float
        σ_n² > 0.

    Returns
    -------
    float
        ln N(t | 0, C_N) with C_N = K + σ_n²I.
    """
    t = np.asarray(t, float)
    L = linalg.cholesky(
        np.asarray(K, float) + noise_variance * np.eye(len(t)), lower=True
    )
    v = linalg.solve_triangular(L, t, lower=True)
    return float(-0.5 * v @ v - np.sum(np.log(np.diag(L))) - 0.5 * len(t) * LOG_2PI)


def _lml_parts(K, t, noise_variance, noise=True):
    C = K + (noise_variance if noise else 0.0) * np.eye(len(t))
    _, logdet = np.linalg.slogdet(C)
    return -0.5 * t @ np.linalg.solve(C, t), logdet, 0.5 * len(t) * LOG_2PI


def _lml_full_logdet(K, t, noise_variance):
    quad, logdet, const = _lml_parts(K, t, noise_variance)
    return quad - logdet - const


def _lml_no_2pi(K, t, noise_variance):
    quad, logdet, _ = _lml_parts(K, t, noise_variance)
    return quad - 0.5 * logdet


def _lml_quad_sign(K, t, noise_variance):
    quad, logdet, const = _lml_parts(K, t, noise_variance)
    return -quad - 0.5 * logdet - const


def _lml_no_noise(K, t, noise_variance):
    quad, logdet, const = _lml_parts(K, t, noise_variance, noise=False)
    return quad - 0.5 * logdet - const


def _lml_cases():
    rng = np.random.default_rng(297)

    def case(label, x, sigma_n=0.1, sigma_f=1.0):
        K, _, _, t = _gp_problem(rng, x, x[:1], sigma_f=sigma_f, sigma_n=sigma_n)
        C = K + sigma_n**2 * np.eye(len(x))
        N = len(x)
        quad = t @ np.linalg.solve(C, t)
        # ln|C_N| from a Cholesky factor: N logarithms of diagonal entries good to N·EPS·cond
        # relative; tᵀC_N⁻¹t loses cond(C_N); N ln 2π/2 one rounding; ten times the sum.
        atol = 10 * (N + 2) * EPS * (np.linalg.cond(C) * (quad + N) + N * LOG_2PI)
        return Case(label, (K, t, sigma_n**2), rtol=0.0, atol=float(atol))

    x6 = np.sort(rng.uniform(-3, 3, 6))[:, None]
    return [
        case("a single point", np.array([[0.0]])),
        case("two points", np.array([[0.0], [0.8]]), 0.3),
        case("a repeated input (K singular)", np.r_[x6, x6[[0, 3]]]),
        case("30 points, σ_f = 2", rng.uniform(-5, 5, size=(30, 1)), 0.2, 2.0),
    ]


GP_LOG_MARGINAL = Exercise(
    name="gp-log-marginal-likelihood",
    chapter=CHAPTER,
    prompt="Compute the GP's log marginal likelihood ln p(t | X, θ).",
    reference=gp_log_marginal_likelihood,
    make_cases=_lml_cases,
    mistakes=(
        Mistake(
            "Your ln|C_N| term is missing its ½: ln p(t) = −½tᵀC_N⁻¹t − ½ln|C_N| "
            "− (N/2)ln 2π (Bishop (6.69); section 'Learning the hyperparameters').",
            _lml_full_logdet,
        ),
        Mistake(
            "Your value is missing the normalising constant −(N/2)ln 2π of the Gaussian "
            "density (Bishop (6.69)).",
            _lml_no_2pi,
        ),
        Mistake(
            "Your data-fit term has the wrong sign: it is −½tᵀC_N⁻¹t, which penalises "
            "targets the model finds unlikely.",
            _lml_quad_sign,
        ),
        Mistake(
            "Your C_N is missing the noise: the targets' covariance is C_N = K + σ_n²I.",
            _lml_no_noise,
        ),
    ),
    outputs=("log marginal likelihood",),
    section="gp-learning",
)

EXERCISES = (GP_PREDICT, GP_LOG_MARGINAL)
