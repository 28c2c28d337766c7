"""Exercises of the chapter on the Laplace approximation: the covariance of Bayesian logistic
regression's Laplace posterior, and the moderated predictive probability σ(κ(σ_a²)μ_a)."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..checks import EPS
from ..rvm import laplace_posterior
from ..special import sigmoid
from ._exercise import Case, Exercise, Mistake

CHAPTER = "laplace"


def _blr_problem(rng, N, M, alpha, scale=1.0):
    """Inputs with a bias column, labels from a random logistic model, and the MAP weights
    under the prior N(0, α⁻¹I) (found by mlcourse's Newton solver)."""
    Phi = np.c_[np.ones(N), rng.normal(size=(N, M - 1))]
    t = (rng.random(N) < sigmoid(Phi @ rng.normal(scale=scale, size=M))).astype(float)
    w_map = laplace_posterior(Phi, t, np.full(M, alpha)).mean
    return Phi, t, w_map


# --- the posterior covariance --------------------------------------------------------------


def posterior_covariance(Phi, w_map, alpha):
    """The covariance S_N of the Laplace approximation to Bayesian logistic regression's
    posterior, with the prior p(w) = N(w | 0, α⁻¹I).

    Parameters
    ----------
    Phi : ndarray of shape (N, M)
        Design matrix; row n is φ_nᵀ.
    w_map : ndarray of shape (M,)
        The posterior mode w_MAP.
    alpha : float
        The prior precision α > 0.

    Returns
    -------
    S_N : ndarray of shape (M, M)
        The covariance of q(w) = N(w | w_MAP, S_N).
    """
    Phi, w_map = np.asarray(Phi, float), np.asarray(w_map, float)
    y = sigmoid(Phi @ w_map)
    precision = alpha * np.eye(len(w_map)) + Phi.T @ ((y * (1 - y))[:, None] * Phi)
    return linalg.cho_solve(linalg.cho_factor(precision), np.eye(len(w_map)))


def _precision(Phi, w_map, prior, weighted=True):
    y = sigmoid(Phi @ w_map)
    R = y * (1 - y) if weighted else np.ones(len(Phi))
    return prior * np.eye(len(w_map)) + Phi.T @ (R[:, None] * Phi)


def _cov_is_precision(Phi, w_map, alpha):
    return _precision(Phi, w_map, alpha)


def _cov_no_prior(Phi, w_map, alpha):
    return np.linalg.inv(_precision(Phi, w_map, 0.0))


def _cov_no_weights(Phi, w_map, alpha):
    return np.linalg.inv(_precision(Phi, w_map, alpha, weighted=False))


def _cov_alpha_as_variance(Phi, w_map, alpha):
    return np.linalg.inv(_precision(Phi, w_map, 1 / alpha))


def _covariance_cases():
    rng = np.random.default_rng(292)

    def case(label, N, M, alpha, scale=1.0):
        Phi, _, w_map = _blr_problem(rng, N, M, alpha, scale)
        P = _precision(Phi, w_map, alpha)
        # The precision is a sum of N terms (relative rounding N·EPS); inverting it amplifies
        # that by cond(S_N⁻¹): entries err by about N·EPS·cond·max|S_N|; ten times that.
        atol = 10 * (N + M) * EPS * np.linalg.cond(P) * np.abs(np.linalg.inv(P)).max()
        return Case(label, (Phi, w_map, alpha), rtol=0.0, atol=float(atol))

    return [
        case("one input and a bias (M = 2), 8 points", 8, 2, 1.0),
        case("a strong prior (α = 100)", 10, 2, 100.0),
        case("fewer points than weights (N = 2, M = 4)", 2, 4, 2.0),
        case("a confident fit (large weights, small y_n(1 − y_n))", 30, 3, 0.01, 4.0),
        case("40 points, 5 weights", 40, 5, 0.5),
    ]


POSTERIOR_COVARIANCE = Exercise(
    name="laplace-covariance",
    chapter=CHAPTER,
    prompt="Compute the covariance S_N of the Laplace posterior of Bayesian logistic "
    "regression.",
    reference=posterior_covariance,
    make_cases=_covariance_cases,
    mistakes=(
        Mistake(
            "You return the posterior precision S_N⁻¹ = −∇∇ln p(w | t), which the lecture "
            "calls S_N: the covariance is its inverse (section 'Is the covariance S_N or "
            "its inverse?').",
            _cov_is_precision,
        ),
        Mistake(
            "Your precision is missing the prior term S₀⁻¹ = αI: "
            "S_N⁻¹ = S₀⁻¹ + Σ_n y_n(1 − y_n)φ_nφ_nᵀ (section 'Bayesian logistic "
            "regression').",
            _cov_no_prior,
        ),
        Mistake(
            "Your precision is missing the weights y_n(1 − y_n) of the data term: "
            "S_N⁻¹ = S₀⁻¹ + Σ_n y_n(1 − y_n)φ_nφ_nᵀ, with y_n = σ(w_MAPᵀφ_n).",
            _cov_no_weights,
        ),
        Mistake(
            "Your prior term is α⁻¹I: α is the prior *precision*, p(w) = N(w | 0, α⁻¹I), "
            "so S₀⁻¹ = αI.",
            _cov_alpha_as_variance,
        ),
    ),
    outputs=("S_N",),
    section="lap-blr",
)


# --- the moderated prediction --------------------------------------------------------------


def predictive_probability(Phi_new, w_map, S_N):
    """p(C₁ | φ, t) at new points, by the probit approximation to the Laplace predictive
    distribution.

    Parameters
    ----------
    Phi_new : ndarray of shape (Q, M)
        One row φᵀ per new point.
    w_map : ndarray of shape (M,)
        The posterior mode w_MAP.
    S_N : ndarray of shape (M, M)
        The posterior covariance.

    Returns
    -------
    p : ndarray of shape (Q,)
        σ(κ(σ_a²)μ_a) with μ_a = w_MAPᵀφ, σ_a² = φᵀS_Nφ and κ(σ²) = (1 + πσ²/8)^(−1/2).
    """
    Phi_new, w_map = np.asarray(Phi_new, float), np.asarray(w_map, float)
    mu = Phi_new @ w_map
    var = np.einsum("qi,ij,qj->q", Phi_new, np.asarray(S_N, float), Phi_new)
    return sigmoid(mu / np.sqrt(1 + np.pi * var / 8))


def _activation(Phi_new, w_map, S_N):
    mu = Phi_new @ w_map
    return mu, np.einsum("qi,ij,qj->q", Phi_new, S_N, Phi_new)


def _pred_plug_in(Phi_new, w_map, S_N):
    return sigmoid(Phi_new @ w_map)


def _pred_no_root(Phi_new, w_map, S_N):
    mu, var = _activation(Phi_new, w_map, S_N)
    return sigmoid(mu / (1 + np.pi * var / 8))


def _pred_sd_for_var(Phi_new, w_map, S_N):
    mu, var = _activation(Phi_new, w_map, S_N)
    return sigmoid(mu / np.sqrt(1 + np.pi * np.sqrt(var) / 8))


def _pred_row_sums(Phi_new, w_map, S_N):
    mu = Phi_new @ w_map
    var = (Phi_new @ S_N @ Phi_new.T).sum(axis=1)
    return sigmoid(mu / np.sqrt(1 + np.pi * np.abs(var) / 8))


def _predictive_cases():
    rng = np.random.default_rng(293)

    def case(label, Phi_new, w_map, S_N):
        # μ_a and σ_a² are sums of M and M² terms (relative rounding M·EPS and M²·EPS of
        # |φ|ᵀ|w| and |φ|ᵀ|S_N||φ|); κ and the division add a few roundings. An absolute error
        # δ in κμ moves σ(κμ) by at most δ·σ(1 − σ) ≤ δ·σ: a relative tolerance of ten times
        # the largest δ.
        M = len(w_map)
        A = np.abs(Phi_new)
        delta = (
            (M * M + 4)
            * EPS
            * (
                A @ np.abs(w_map)
                + np.abs(Phi_new @ w_map) * (A @ np.abs(S_N) @ A.T).diagonal()
            )
        )
        return Case(
            label, (Phi_new, w_map, S_N), rtol=float(10 * delta.max() + 10 * EPS)
        )

    def posterior(M, spread):
        B = rng.normal(size=(M + 3, M))
        return rng.normal(size=M), spread * np.linalg.inv(B.T @ B / (M + 3))

    w2, S2 = posterior(2, 1.0)
    w3, S3 = posterior(3, 4.0)
    w4, S4 = posterior(4, 0.5)
    far = np.c_[np.ones(3), [[10.0, -10.0], [20.0, 5.0], [-30.0, 30.0]]]
    return [
        case("one point, two weights", np.array([[1.0, 0.5]]), w2, S2),
        case("φ = 0 (μ_a = 0: p = 1/2 whatever σ_a²)", np.zeros((2, 2)), w2, S2),
        case("points far out (large σ_a²)", far, w3, S3),
        case("no uncertainty (S_N = 0)", rng.normal(size=(4, 4)), w4, np.zeros((4, 4))),
        case("20 points, 4 weights", rng.normal(scale=2, size=(20, 4)), w4, S4),
    ]


PREDICTIVE_PROBABILITY = Exercise(
    name="probit-approximation",
    chapter=CHAPTER,
    prompt="Compute the moderated probability σ(κ(σ_a²)μ_a) of class C₁ at new points.",
    reference=predictive_probability,
    make_cases=_predictive_cases,
    mistakes=(
        Mistake(
            "Your probability ignores the uncertainty σ_a²: σ(μ_a) is the plug-in (MAP) "
            "prediction. The moderated one divides μ_a by (1 + πσ_a²/8)^(1/2) "
            "(section 'The probit approximation').",
            _pred_plug_in,
        ),
        Mistake(
            "Your κ is missing the square root: κ(σ²) = (1 + πσ²/8)^(−1/2), from "
            "λ² = π/8 in Φ(λμ/(1 + λ²σ²)^(1/2)).",
            _pred_no_root,
        ),
        Mistake(
            "Your κ uses the standard deviation σ_a where the variance σ_a² = φᵀS_Nφ "
            "belongs: κ(σ²) = (1 + πσ²/8)^(−1/2).",
            _pred_sd_for_var,
        ),
        Mistake(
            "Your σ_a² sums whole rows of ΦS_NΦᵀ: the variance of one point's activation "
            "is φᵀS_Nφ, the diagonal of that matrix (section 'The predictive "
            "distribution').",
            _pred_row_sums,
        ),
    ),
    outputs=("p",),
    section="lap-probit",
)

EXERCISES = (POSTERIOR_COVARIANCE, PREDICTIVE_PROBABILITY)
