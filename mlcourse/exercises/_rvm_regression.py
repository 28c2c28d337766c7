"""Exercises of the chapter on RVM regression: the posterior over the weights, and one
re-estimation of α and β."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..checks import EPS
from ._exercise import Case, Exercise, Mistake
from ._tolerance import scaled_cond

CHAPTER = "rvm_regression"


def _posterior(Phi, t, alpha, beta):
    """Σ and m by a Cholesky factor of Σ⁻¹ = A + βΦᵀΦ."""
    Phi, t, alpha = (
        np.asarray(Phi, float),
        np.asarray(t, float),
        np.asarray(alpha, float),
    )
    factor = linalg.cho_factor(np.diag(alpha) + beta * Phi.T @ Phi)
    Sigma = linalg.cho_solve(factor, np.eye(len(alpha)))
    return beta * Sigma @ (Phi.T @ t), Sigma


def _rvm_problem(rng, N, M, kernel_and_bias=False, width=1.0):
    """Noisy sinc data and a design matrix: Gaussian kernels on the inputs and a bias column
    (M = N + 1), or M random kernels."""
    x = np.sort(rng.uniform(-8, 8, N))
    centers = x if kernel_and_bias else rng.uniform(-8, 8, M)
    Phi = np.exp(-((x[:, None] - centers[None, :]) ** 2) / (2 * width**2))
    if kernel_and_bias:
        Phi = np.c_[Phi, np.ones(N)]
    t = np.sinc(x / np.pi) + 0.1 * rng.normal(size=N)
    return Phi, t


def _cases(seed, make):
    """The regression chapter's cases: (label, Phi, t, alpha, beta), smallest first."""
    rng = np.random.default_rng(seed)
    out = []
    Phi, t = _rvm_problem(rng, 5, 1)
    out.append(("one basis function (M = 1)", Phi, t, np.array([0.5]), 20.0))
    Phi, t = _rvm_problem(rng, 8, 3)
    out.append(
        ("a nearly pruned weight (α = 10⁶)", Phi, t, np.array([1.0, 1e6, 0.1]), 50.0)
    )
    Phi, t = _rvm_problem(rng, 6, 7, kernel_and_bias=True)
    out.append(
        ("kernels and a bias (M = N + 1 = 7)", Phi, t, rng.uniform(0.1, 3, 7), 100.0)
    )
    Phi, t = _rvm_problem(rng, 30, 31, kernel_and_bias=True)
    out.append(
        ("30 points, 31 basis functions", Phi, t, rng.uniform(0.1, 10, 31), 80.0)
    )
    return [make(*c) for c in out]


def _tolerances(Phi, t, alpha, beta):
    """δ and the error of each m_i: forming Σ⁻¹ = A + βΦᵀΦ rounds it by (N + M)·EPS, relative,
    and solving with it amplifies that by its condition number (diagonally scaled, which is
    what a Cholesky solve loses): δ = 10(N + M)·EPS·cond. m = βΣΦᵀt then errs, entry by entry,
    by δ·βΣ_j|Σ_ij||(Φᵀt)_j| (the size of its terms, which can cancel)."""
    P = np.diag(alpha) + beta * Phi.T @ Phi
    delta = 10 * sum(Phi.shape) * EPS * scaled_cond(P)
    _, Sigma = _posterior(Phi, t, alpha, beta)
    return delta, delta * beta * np.abs(Sigma) @ np.abs(Phi.T @ t)


# --- the posterior -------------------------------------------------------------------------


def rvm_posterior(Phi, t, alpha, beta):
    """The posterior N(w | m, Σ) of the RVM's weights, one precision per weight.

    Parameters
    ----------
    Phi : ndarray of shape (N, M)
        Design matrix; column i is the basis function φ_i at the N inputs.
    t : ndarray of shape (N,)
        Targets.
    alpha : ndarray of shape (M,)
        Prior precisions, p(w_i) = N(w_i | 0, α_i⁻¹).
    beta : float
        Noise precision β.

    Returns
    -------
    m : ndarray of shape (M,)
        Posterior mean.
    Sigma : ndarray of shape (M, M)
        Posterior covariance.
    """
    return _posterior(Phi, t, alpha, beta)


def _post_no_prior(Phi, t, alpha, beta):
    Sigma = np.linalg.inv(beta * Phi.T @ Phi)
    return beta * Sigma @ Phi.T @ t, Sigma


def _post_alpha_as_variance(Phi, t, alpha, beta):
    return _posterior(Phi, t, 1 / np.asarray(alpha), beta)


def _post_mean_without_beta(Phi, t, alpha, beta):
    m, Sigma = _posterior(Phi, t, alpha, beta)
    return m / beta, Sigma


def _post_precision(Phi, t, alpha, beta):
    m, _ = _posterior(Phi, t, alpha, beta)
    return m, np.diag(alpha) + beta * Phi.T @ Phi


def _posterior_cases():
    def make(label, Phi, t, alpha, beta):
        delta, dm = _tolerances(Phi, t, alpha, beta)
        _, Sigma = _posterior(Phi, t, alpha, beta)
        # m as in _tolerances; Σ to δ·max|Σ|
        return Case(
            label,
            (Phi, t, alpha, beta),
            rtol=0.0,
            atol=(float(dm.max()), float(delta * np.abs(Sigma).max())),
            factors={"β": beta, "1/β": 1 / beta},
        )

    return _cases(298, make)


RVM_POSTERIOR = Exercise(
    name="rvm-posterior",
    chapter=CHAPTER,
    prompt="Compute the RVM's posterior mean m and covariance Σ for given α and β.",
    reference=rvm_posterior,
    make_cases=_posterior_cases,
    mistakes=(
        Mistake(
            "Your Σ is missing the prior term A = diag(α_i): Σ = (A + βΦᵀΦ)⁻¹, compare "
            "with Bishop (7.83) (section 'The model and the posterior').",
            _post_no_prior,
        ),
        Mistake(
            "Your prior term is diag(1/α_i): α_i is a precision, p(w_i | α_i) = "
            "N(w_i | 0, α_i⁻¹), so A = diag(α_i) in Σ = (A + βΦᵀΦ)⁻¹ (the lecture's slip "
            "of writing α_i as a variance).",
            _post_alpha_as_variance,
        ),
        Mistake(
            "Your m is missing the factor β: m = βΣΦᵀt (Bishop (7.82)).",
            _post_mean_without_beta,
        ),
        Mistake(
            "Your Σ is the posterior precision A + βΦᵀΦ: the covariance is its inverse, "
            "Σ = (A + βΦᵀΦ)⁻¹ (Bishop (7.83)).",
            _post_precision,
        ),
    ),
    outputs=("m", "Sigma"),
    section="rvm-posterior",
)


# --- one re-estimation ---------------------------------------------------------------------


def rvm_reestimate(Phi, t, alpha, beta):
    """One re-estimation of the RVM's hyperparameters (MacKay's update, lecture 001).

    Parameters
    ----------
    Phi : ndarray of shape (N, M)
        Design matrix; column i is the basis function φ_i at the N inputs.
    t : ndarray of shape (N,)
        Targets.
    alpha : ndarray of shape (M,)
        Current prior precisions α_i.
    beta : float
        Current noise precision β.

    Returns
    -------
    alpha_new : ndarray of shape (M,)
        γ_i/m_i², with γ_i = 1 − α_iΣ_ii from the posterior at the current α and β.
    beta_new : float
        The new noise precision: (β_new)⁻¹ = ‖t − Φm‖²/(N − Σ_i γ_i), the sum over all M
        basis functions.
    """
    Phi, t = np.asarray(Phi, float), np.asarray(t, float)
    m, Sigma = _posterior(Phi, t, alpha, beta)
    gamma = 1 - np.asarray(alpha, float) * np.diag(Sigma)
    residual = t - Phi @ m
    return gamma / m**2, float((len(t) - gamma.sum()) / (residual @ residual))


def _update(Phi, t, alpha, beta, rule="mackay", noise_sum=None):
    m, Sigma = _posterior(Phi, t, alpha, beta)
    gamma = 1 - np.asarray(alpha) * np.diag(Sigma)
    residual = t - Phi @ m
    if rule == "mackay":
        alpha_new = gamma / m**2
    elif rule == "em":
        alpha_new = 1 / (m**2 + np.diag(Sigma))
    else:
        alpha_new = 1 / m**2
    used = gamma.sum() if noise_sum is None else noise_sum(gamma)
    return alpha_new, float((len(t) - used) / (residual @ residual))


def _re_em(Phi, t, alpha, beta):
    return _update(Phi, t, alpha, beta, rule="em")


def _re_no_gamma(Phi, t, alpha, beta):
    return _update(Phi, t, alpha, beta, rule="plain")


def _re_beta_over_n(Phi, t, alpha, beta):
    return _update(Phi, t, alpha, beta, noise_sum=lambda g: 0.0)


def _re_gamma_to_n(Phi, t, alpha, beta):
    return _update(Phi, t, alpha, beta, noise_sum=lambda g: g[: len(t)].sum())


def _reestimate_cases():
    def make(label, Phi, t, alpha, beta):
        delta, dm = _tolerances(Phi, t, alpha, beta)
        m, Sigma = _posterior(Phi, t, alpha, beta)
        gamma = 1 - alpha * np.diag(Sigma)
        # γ_i = 1 − α_iΣ_ii cancels: its relative error is δ·α_iΣ_ii/γ_i (large for a weight
        # the data barely determine); m_i² adds 2·dm_i/|m_i|. β_new: the residual t − Φm errs
        # by |Φ|·dm, and Σγ by δ·Σ_iα_iΣ_ii, relative to N − Σγ.
        rtol_alpha = np.max(delta * alpha * np.diag(Sigma) / gamma + 2 * dm / np.abs(m))
        residual = t - Phi @ m
        rtol_beta = 2 * (np.abs(Phi) @ dm) @ np.abs(residual) / (
            residual @ residual
        ) + (delta * alpha @ np.diag(Sigma) / (len(t) - gamma.sum()))
        return Case(
            label,
            (Phi, t, alpha, beta),
            rtol=(float(rtol_alpha), float(rtol_beta)),
            atol=0.0,
        )

    return _cases(299, make)


RVM_REESTIMATE = Exercise(
    name="rvm-reestimate",
    chapter=CHAPTER,
    prompt="Re-estimate the RVM's α and β once from the posterior at the current values.",
    reference=rvm_reestimate,
    make_cases=_reestimate_cases,
    mistakes=(
        Mistake(
            "Your α update is EM's, α_i = 1/(m_i² + Σ_ii) (lecture 002's σ²_wi = w_i² + "
            "Σ_ii): it has the same fixed points but is a different, slower step. The "
            "update asked for is α_i = γ_i/m_i² with γ_i = 1 − α_iΣ_ii (Bishop (7.87), "
            "(7.89)).",
            _re_em,
        ),
        Mistake(
            "Your α update is missing γ_i: α_i = γ_i/m_i² with γ_i = 1 − α_iΣ_ii, how well "
            "the data determine w_i (Bishop (7.87), (7.89)); 1/m_i² alone ignores the "
            "posterior uncertainty.",
            _re_no_gamma,
        ),
        Mistake(
            "Your noise update divides by N: (β_new)⁻¹ = ‖t − Φm‖²/(N − Σ_iγ_i), where "
            "Σ_iγ_i counts the well-determined parameters (Bishop (7.88)).",
            _re_beta_over_n,
        ),
        Mistake(
            "Your Σγ_i runs over the first N basis functions only, as the lecture prints it: "
            "it runs over all M of them (here M = N + 1, and the bias's γ is left out; "
            "section 'Derivatives and the update rules').",
            _re_gamma_to_n,
        ),
    ),
    outputs=("alpha_new", "beta_new"),
    section="rvm-derivatives",
)

EXERCISES = (RVM_POSTERIOR, RVM_REESTIMATE)
