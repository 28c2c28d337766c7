"""Exercises of the chapter on RVM classification: one Newton step towards the posterior mode,
and the Laplace evidence p(t | α)."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..checks import EPS
from ..rvm import laplace_posterior
from ..special import log_sigmoid, sigmoid
from ._exercise import Case, Exercise, Mistake
from ._tolerance import scaled_cond

CHAPTER = "rvm_classification"
LOG_2PI = float(np.log(2 * np.pi))


def _problem(rng, N, M, separable=False, kernel_and_bias=False):
    """Two-class data in one dimension, Gaussian kernels (and a bias column)."""
    x = np.sort(rng.uniform(-2, 2, N))
    t = (
        (x > 0).astype(float)
        if separable
        else (rng.random(N) < sigmoid(2 * x)).astype(float)
    )
    t[[0, -1]] = [0.0, 1.0]
    centers = x if kernel_and_bias else np.linspace(-2, 2, M)
    Phi = np.exp(-((x[:, None] - centers[None, :]) ** 2) / 2)
    if kernel_and_bias:
        Phi = np.c_[Phi, np.ones(N)]
    return Phi, t


def _precision(Phi, alpha, w):
    y = sigmoid(Phi @ w)
    return Phi.T @ ((y * (1 - y))[:, None] * Phi) + np.diag(alpha)


def _case_list(seed):
    """(label of the Newton case, label of the evidence case, Phi, t, alpha, w), smallest
    first; w is a point to step from (the evidence cases use the mode instead)."""
    rng = np.random.default_rng(seed)
    out = []
    Phi, t = _problem(rng, 6, 1)
    out.append(
        (
            "one basis function (M = 1)",
            "one basis function (M = 1)",
            Phi,
            t,
            np.array([1.0]),
            np.array([0.5]),
        )
    )
    Phi, t = _problem(rng, 8, 3)
    out.append(
        (
            "w = 0, where every y_n = 1/2",
            "three basis functions, 8 points",
            Phi,
            t,
            np.ones(3),
            np.zeros(3),
        )
    )
    Phi, t = _problem(rng, 5, 6, kernel_and_bias=True)
    label = "more basis functions than points (M = N + 1)"
    out.append((label, label, Phi, t, np.full(6, 0.5), rng.normal(size=6)))
    Phi, t = _problem(rng, 12, 4, separable=True)
    label = "separable data and a weak prior (α = 10⁻³)"
    out.append((label, label, Phi, t, np.full(4, 1e-3), rng.normal(scale=3, size=4)))
    Phi, t = _problem(rng, 40, 5)
    label = "a nearly pruned weight (α_i = 10⁸), 40 points"
    out.append(
        (label, label, Phi, t, np.array([1.0, 1e8, 0.3, 2.0, 0.5]), rng.normal(size=5))
    )
    return out


# --- one Newton step -----------------------------------------------------------------------


def rvm_newton_step(Phi, t, alpha, w):
    """One Newton step towards the mode of the RVM classifier's ln p(w | t, α).

    Parameters
    ----------
    Phi : ndarray of shape (N, M)
        Design matrix; row n is φ_nᵀ.
    t : ndarray of shape (N,)
        Labels, 0 or 1.
    alpha : ndarray of shape (M,)
        Prior precisions, p(w_i | α_i) = N(w_i | 0, α_i⁻¹).
    w : ndarray of shape (M,)
        The current weights.

    Returns
    -------
    w_new : ndarray of shape (M,)
        w − (∇∇ln p)⁻¹∇ln p at w: the step that raises ln p(w | t, α).
    """
    Phi, t, w = np.asarray(Phi, float), np.asarray(t, float), np.asarray(w, float)
    alpha = np.asarray(alpha, float)
    gradient = Phi.T @ (t - sigmoid(Phi @ w)) - alpha * w
    return w + linalg.cho_solve(linalg.cho_factor(_precision(Phi, alpha, w)), gradient)


def _newton(Phi, t, alpha, w, hessian, gradient, sign=1.0):
    return w + sign * np.linalg.solve(hessian, gradient)


def _nt_no_prior_hessian(Phi, t, alpha, w):
    y = sigmoid(Phi @ w)
    H = Phi.T @ ((y * (1 - y))[:, None] * Phi)
    return _newton(Phi, t, alpha, w, H, Phi.T @ (t - y) - alpha * w)


def _nt_no_prior_gradient(Phi, t, alpha, w):
    y = sigmoid(Phi @ w)
    return _newton(Phi, t, alpha, w, _precision(Phi, alpha, w), Phi.T @ (t - y))


def _nt_no_weights(Phi, t, alpha, w):
    y = sigmoid(Phi @ w)
    return _newton(
        Phi, t, alpha, w, Phi.T @ Phi + np.diag(alpha), Phi.T @ (t - y) - alpha * w
    )


def _nt_downhill(Phi, t, alpha, w):
    return 2 * np.asarray(w) - rvm_newton_step(Phi, t, alpha, w)


def _newton_cases():
    def make(label, Phi, t, alpha, w):
        y = sigmoid(Phi @ w)
        P = _precision(Phi, alpha, w)
        step = np.linalg.solve(P, Phi.T @ (t - y) - alpha * w)
        # ∇ln p and ΦᵀBΦ are sums of N terms (relative N·EPS of their sizes, with A·w and A);
        # solving with ΦᵀBΦ + A amplifies that by its condition number, on the size of w and
        # of the step (the diagonally scaled condition number: see _tolerance); ten times
        # that.
        size = np.abs(w).max() + np.abs(step).max()
        atol = 10 * (len(t) + len(w)) * EPS * scaled_cond(P) * size
        return Case(label, (Phi, t, alpha, w), rtol=0.0, atol=float(atol))

    return [make(c[0], *c[2:]) for c in _case_list(300)]


RVM_NEWTON_STEP = Exercise(
    name="rvm-newton-step",
    chapter=CHAPTER,
    prompt="Take one Newton step towards the mode w* of the RVM classifier's posterior.",
    reference=rvm_newton_step,
    make_cases=_newton_cases,
    mistakes=(
        Mistake(
            "Your Hessian is missing the prior term A = diag(α_i): ∇∇ln p(w | t, α) = "
            "−(ΦᵀBΦ + A), compare with Bishop (7.111) (section 'The posterior mode').",
            _nt_no_prior_hessian,
        ),
        Mistake(
            "Your gradient is missing the prior's −Aw: ∇ln p(w | t, α) = Φᵀ(t − y) − Aw "
            "(Bishop (7.110)).",
            _nt_no_prior_gradient,
        ),
        Mistake(
            "Your Hessian is missing B = diag(y_n(1 − y_n)): ∇∇ln p = −(ΦᵀBΦ + A) "
            "(Bishop (7.111)).",
            _nt_no_weights,
        ),
        Mistake(
            "Your step lowers ln p(w | t, α): Newton's step to a maximum is "
            "w − (∇∇ln p)⁻¹∇ln p = w + (ΦᵀBΦ + A)⁻¹(Φᵀ(t − y) − Aw).",
            _nt_downhill,
        ),
    ),
    outputs=("w_new",),
    section="rvmc-mode",
)


# --- the Laplace evidence ------------------------------------------------------------------


def rvm_laplace_evidence(Phi, t, alpha, w_star):
    """The Laplace approximation to the RVM classifier's log evidence ln p(t | α).

    Parameters
    ----------
    Phi : ndarray of shape (N, M)
        Design matrix; row n is φ_nᵀ.
    t : ndarray of shape (N,)
        Labels, 0 or 1.
    alpha : ndarray of shape (M,)
        Prior precisions, p(w_i | α_i) = N(w_i | 0, α_i⁻¹).
    w_star : ndarray of shape (M,)
        The posterior mode w*.

    Returns
    -------
    float
        ln[p(t | w*) p(w* | α) (2π)^(M/2) |Σ|^(1/2)], Σ = (ΦᵀBΦ + A)⁻¹ at w*.
    """
    Phi, t, w = np.asarray(Phi, float), np.asarray(t, float), np.asarray(w_star, float)
    alpha = np.asarray(alpha, float)
    a = Phi @ w
    log_lik = np.sum(t * log_sigmoid(a) + (1 - t) * log_sigmoid(-a))
    log_prior = (
        0.5 * np.sum(np.log(alpha)) - 0.5 * alpha @ w**2 - 0.5 * len(w) * LOG_2PI
    )
    L = linalg.cholesky(_precision(Phi, alpha, w), lower=True)
    return float(
        log_lik + log_prior + 0.5 * len(w) * LOG_2PI - np.sum(np.log(np.diag(L)))
    )


def _ev_parts(Phi, t, alpha, w, prior_term=True):
    a = Phi @ w
    log_lik = np.sum(t * log_sigmoid(a) + (1 - t) * log_sigmoid(-a))
    log_prior = (
        0.5 * np.sum(np.log(alpha)) - 0.5 * alpha @ w**2 - 0.5 * len(w) * LOG_2PI
    )
    P = _precision(Phi, alpha if prior_term else np.zeros_like(alpha), w)
    return log_lik, log_prior, np.linalg.slogdet(P)[1], 0.5 * len(w) * LOG_2PI


def _ev_no_2pi(Phi, t, alpha, w_star):
    lik, prior, logdet, _ = _ev_parts(Phi, t, alpha, w_star)
    return lik + prior - 0.5 * logdet


def _ev_det_sign(Phi, t, alpha, w_star):
    lik, prior, logdet, c = _ev_parts(Phi, t, alpha, w_star)
    return lik + prior + c + 0.5 * logdet


def _ev_prior_unnormalised(Phi, t, alpha, w_star):
    lik, _, logdet, c = _ev_parts(Phi, t, alpha, w_star)
    return lik - 0.5 * np.asarray(alpha) @ np.asarray(w_star) ** 2 + c - 0.5 * logdet


def _ev_sigma_without_a(Phi, t, alpha, w_star):
    lik, prior, logdet, c = _ev_parts(Phi, t, alpha, w_star, prior_term=False)
    return lik + prior + c - 0.5 * logdet


def _evidence_cases():
    def make(label, Phi, t, alpha, w):
        w_star = laplace_posterior(Phi, t, alpha).mean  # mlcourse's Newton solver
        P = _precision(Phi, alpha, w_star)
        a = Phi @ w_star
        terms = np.abs(t * log_sigmoid(a) + (1 - t) * log_sigmoid(-a)).sum()
        # The log-likelihood sums N terms (relative N·EPS, plus the rounding of each a_n,
        # EPS·|φ_n|ᵀ|w*|); ½ln|ΦᵀBΦ + A| from a Cholesky factor or a determinant is good
        # to M·EPS·cond; the prior's M logarithms and quadratic form to M·EPS of their size.
        size = (
            terms
            + np.abs(Phi).sum(1) @ np.ones(len(t)) * np.abs(w_star).max()
            + len(w_star) * scaled_cond(P)
            + np.abs(np.log(alpha)).sum()
            + alpha @ w_star**2
            + len(w_star) * LOG_2PI
        )
        atol = 10 * (len(t) + len(w_star)) * EPS * size
        return Case(
            label,
            (Phi, t, alpha, w_star),
            rtol=0.0,
            atol=float(atol),
            factors={"(M/2) ln 2π": 0.5 * len(w_star) * LOG_2PI},
        )

    return [make(*c[1:]) for c in _case_list(301)]


RVM_LAPLACE_EVIDENCE = Exercise(
    name="rvm-laplace-evidence",
    chapter=CHAPTER,
    prompt="Compute the Laplace approximation to the RVM classifier's log evidence "
    "ln p(t | α).",
    reference=rvm_laplace_evidence,
    make_cases=_evidence_cases,
    mistakes=(
        Mistake(
            "Your evidence is missing the factor (2π)^(M/2) of the Gaussian integral: "
            "p(t | α) ≈ p(t | w*)p(w* | α)(2π)^(M/2)|Σ|^(1/2) (Bishop (7.114); section "
            "'The Laplace evidence').",
            _ev_no_2pi,
        ),
        Mistake(
            "Your determinant term has the wrong sign: the Gaussian integral gives "
            "|Σ|^(+1/2), and Σ = (ΦᵀBΦ + A)⁻¹ is the covariance, so the term is "
            "−½ln|ΦᵀBΦ + A| (Bishop (7.114)).",
            _ev_det_sign,
        ),
        Mistake(
            "Your prior term is missing its normaliser: ln p(w* | α) = "
            "Σ_i[½ln α_i − ½ln 2π] − ½w*ᵀAw*; the ½ln α_i are what make the evidence "
            "depend on α beyond the quadratic term.",
            _ev_prior_unnormalised,
        ),
        Mistake(
            "Your Σ is missing the prior term A: Σ = (ΦᵀBΦ + A)⁻¹ (Bishop (7.113)).",
            _ev_sigma_without_a,
        ),
    ),
    outputs=("log evidence",),
    section="rvmc-evidence",
)

EXERCISES = (RVM_NEWTON_STEP, RVM_LAPLACE_EVIDENCE)
