"""Exercises of the chapter on linear classifiers: one IRLS step for logistic regression, and the
weights of the shared-covariance generative classifier from maximum likelihood."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..checks import EPS
from ..special import sigmoid
from ._exercise import Case, Exercise, Mistake

CHAPTER = "linear_classifiers"


# --- one IRLS step ------------------------------------------------------------------------


def irls_update(Phi, t, w):
    """One Newton–Raphson step of logistic regression (IRLS): the new weights.

    Parameters
    ----------
    Phi : ndarray of shape (N, M)
        Design matrix; row n is φ_nᵀ (with a column of ones for the bias w₀, if any).
    t : ndarray of shape (N,)
        Labels, 0 or 1.
    w : ndarray of shape (M,)
        The current weights w_old.

    Returns
    -------
    w_new : ndarray of shape (M,)
        w_old − H⁻¹∇E for the cross-entropy E(w), at w_old.
    """
    Phi, t, w = np.asarray(Phi, float), np.asarray(t, float), np.asarray(w, float)
    y = sigmoid(Phi @ w)
    H = Phi.T @ ((y * (1 - y))[:, None] * Phi)
    return w - linalg.cho_solve(linalg.cho_factor(H), Phi.T @ (y - t))


def _irls_parts(Phi, t, w):
    y = sigmoid(Phi @ w)
    return y, y * (1 - y)


def _irls_uphill(Phi, t, w):
    return 2 * w - irls_update(Phi, t, w)  # w + H⁻¹∇E


def _irls_no_weights(Phi, t, w):
    y, _ = _irls_parts(Phi, t, w)
    return w - np.linalg.solve(Phi.T @ Phi, Phi.T @ (y - t))


def _irls_step_only(Phi, t, w):
    return irls_update(Phi, t, w) - w


def _irls_gradient_twice(Phi, t, w):
    y, R = _irls_parts(Phi, t, w)
    return w - np.linalg.solve(Phi.T @ (R[:, None] * Phi), Phi.T @ (R * (y - t)))


def _irls_cases():
    rng = np.random.default_rng(290)

    def case(label, N, M, scale, zero=False):
        Phi = (
            np.c_[np.ones(N), rng.normal(size=(N, M - 1))]
            if M > 1
            else rng.normal(size=(N, 1))
        )
        w = np.zeros(M) if zero else rng.normal(scale=scale, size=M)
        t = (rng.random(N) < sigmoid(Phi @ rng.normal(size=M))).astype(float)
        t[:2] = [0.0, 1.0]  # both classes occur
        y, R = _irls_parts(Phi, t, w)
        z = Phi @ w - (y - t) / R  # the working response, for the IRLS route's rounding
        H = Phi.T @ (R[:, None] * Phi)
        # Forming H and ∇E from N terms perturbs them by N·EPS of their size; the solve
        # amplifies that by cond(H), on the size of w and of the working response z (the
        # chapter's bound for the two routes, Newton and weighted least squares), times 10.
        atol = (
            10 * (N + M) * EPS * np.linalg.cond(H) * (np.abs(w).max() + np.abs(z).max())
        )
        return Case(label, (Phi, t, w), rtol=0.0, atol=float(atol))

    return [
        case("a single weight (M = 1)", 4, 1, 1.0),
        case("w = 0, where every y_n = 1/2", 6, 2, 0.0, zero=True),
        case("as many points as weights (N = M = 3)", 3, 3, 0.5),
        case("confident points (activations up to about 6)", 30, 3, 2.0),
        case("40 points, 4 weights", 40, 4, 0.5),
    ]


IRLS_STEP = Exercise(
    name="irls-step",
    chapter=CHAPTER,
    prompt="Take one Newton–Raphson (IRLS) step for logistic regression.",
    reference=irls_update,
    make_cases=_irls_cases,
    mistakes=(
        Mistake(
            "Your step goes uphill: the gradient of the cross-entropy is ∇E = Φᵀ(y − t), "
            "and Newton's method subtracts H⁻¹∇E, w_new = w_old − H⁻¹∇E (Bishop (4.92), "
            "(4.99)).",
            _irls_uphill,
        ),
        Mistake(
            "Your Hessian is missing the weighting matrix R = diag(y_n(1 − y_n)): "
            "H = ΦᵀRΦ (Bishop (4.97)). Without R it is the least-squares step of "
            "linear regression.",
            _irls_no_weights,
        ),
        Mistake(
            "You return the Newton step −H⁻¹∇E, not the new weights: add w_old "
            "(Bishop (4.92)).",
            _irls_step_only,
        ),
        Mistake(
            "Your gradient has the factor y_n(1 − y_n) once too often: dσ/da is already "
            "used up in ∇E = Φᵀ(y − t) (Bishop (4.96); section 'The gradient').",
            _irls_gradient_twice,
        ),
    ),
    outputs=("w_new",),
    section="lin-irls",
)


# --- the generative classifier's weights ---------------------------------------------------


def generative_weights(X, t):
    """The weights of the two-class generative classifier with a shared covariance,
    from the maximum-likelihood estimates of its parameters.

    Parameters
    ----------
    X : ndarray of shape (N, D)
        Inputs, one row per point.
    t : ndarray of shape (N,)
        Labels: 1 for class C₁, 0 for class C₂; both occur.

    Returns
    -------
    w : ndarray of shape (D,)
    w0 : float
        p(C₁ | x) = σ(wᵀx + w₀), with γ = p(C₁), μ₁, μ₂ and the shared Σ at their
        maximum-likelihood values.
    """
    X, t = np.asarray(X, float), np.asarray(t)
    X1, X2 = X[t == 1], X[t == 0]
    mu1, mu2 = X1.mean(axis=0), X2.mean(axis=0)
    scatter = (X1 - mu1).T @ (X1 - mu1) + (X2 - mu2).T @ (X2 - mu2)
    factor = linalg.cho_factor(scatter / len(X))
    a1, a2 = linalg.cho_solve(factor, mu1), linalg.cho_solve(factor, mu2)
    w0 = -0.5 * mu1 @ a1 + 0.5 * mu2 @ a2 + np.log(len(X1) / len(X2))
    return a1 - a2, float(w0)


def _with_covariance(X, t, Sigma, log_ratio=True):
    X, t = np.asarray(X, float), np.asarray(t)
    mu1, mu2 = X[t == 1].mean(axis=0), X[t == 0].mean(axis=0)
    a1, a2 = np.linalg.solve(Sigma, mu1), np.linalg.solve(Sigma, mu2)
    prior = np.log(np.sum(t == 1) / np.sum(t == 0)) if log_ratio else 0.0
    return a1 - a2, float(-0.5 * mu1 @ a1 + 0.5 * mu2 @ a2 + prior)


def _class_covariances(X, t):
    X, t = np.asarray(X, float), np.asarray(t)
    return [np.cov(X[t == k].T, bias=True).reshape(X.shape[1], -1) for k in (1, 0)]


def _gen_total_covariance(X, t):
    X = np.asarray(X, float)
    return _with_covariance(X, t, np.cov(X.T, bias=True).reshape(X.shape[1], -1))


def _gen_unweighted(X, t):
    S1, S2 = _class_covariances(X, t)
    return _with_covariance(X, t, (S1 + S2) / 2)


def _gen_unbiased(X, t):
    S1, S2 = _class_covariances(X, t)
    n1, n2 = np.sum(np.asarray(t) == 1), np.sum(np.asarray(t) == 0)
    return _with_covariance(X, t, (n1 * S1 + n2 * S2) / (n1 + n2 - 2))


def _gen_no_prior(X, t):
    S1, S2 = _class_covariances(X, t)
    n1, n2 = np.sum(np.asarray(t) == 1), np.sum(np.asarray(t) == 0)
    return _with_covariance(X, t, (n1 * S1 + n2 * S2) / (n1 + n2), log_ratio=False)


def _generative_cases():
    rng = np.random.default_rng(291)

    def case(label, n1, n2, D):
        X = np.r_[rng.normal(size=(n1, D)) + 1.0, rng.normal(size=(n2, D))]
        X = X @ rng.normal(size=(D, D)) if D > 1 else X
        t = np.r_[np.ones(n1, int), np.zeros(n2, int)]
        order = rng.permutation(n1 + n2)
        X, t = X[order], t[order]
        S1, S2 = _class_covariances(X, t)
        Sigma = (n1 * S1 + n2 * S2) / (n1 + n2)
        mus = [X[t == k].mean(axis=0) for k in (1, 0)]
        a = [np.linalg.solve(Sigma, mu) for mu in mus]
        # Σ is a sum of N products, good to N·EPS relative; solving with it amplifies that by
        # cond(Σ): w errs by N·EPS·cond(Σ)·max|Σ⁻¹μ_k| and w₀ by that times the size of its
        # terms μ_kᵀΣ⁻¹μ_k (plus one rounding of the log ratio); ten times that.
        rel = 10 * (n1 + n2) * EPS * np.linalg.cond(Sigma)
        atol_w = rel * max(np.abs(ak).max() for ak in a)
        atol_w0 = rel * sum(abs(mu @ ak) for mu, ak in zip(mus, a)) + 10 * EPS
        return Case(label, (X, t), rtol=0.0, atol=(float(atol_w), float(atol_w0)))

    return [
        case("one input (D = 1), two points per class", 2, 2, 1),
        case("a class with a single point", 1, 6, 2),
        case("equal class sizes", 8, 8, 2),
        case("unequal classes, D = 3", 35, 15, 3),
    ]


GENERATIVE_WEIGHTS = Exercise(
    name="generative-weights",
    chapter=CHAPTER,
    prompt="Fit the shared-covariance Gaussian classifier by maximum likelihood and return "
    "its w and w₀.",
    reference=generative_weights,
    make_cases=_generative_cases,
    mistakes=(
        Mistake(
            "Your Σ is the covariance of all the points around their overall mean: that "
            "includes the spread between the class means. The shared covariance is the "
            "within-class one, Σ = (N₁/N)S₁ + (N₂/N)S₂ (section 'Maximum likelihood for the "
            "generative model').",
            _gen_total_covariance,
        ),
        Mistake(
            "Your Σ averages the two class covariances with equal weights: maximum "
            "likelihood weights them by the class sizes, Σ = (N₁/N)S₁ + (N₂/N)S₂.",
            _gen_unweighted,
        ),
        Mistake(
            "Your Σ divides the within-class scatter by N − 2 (the unbiased estimate): "
            "maximum likelihood divides by N.",
            _gen_unbiased,
        ),
        Mistake(
            "Your w₀ is missing the log prior ratio ln(p(C₁)/p(C₂)), with the "
            "maximum-likelihood prior p(C₁) = γ = N₁/N.",
            _gen_no_prior,
        ),
    ),
    outputs=("w", "w0"),
    section="lin-ml",
)

EXERCISES = (IRLS_STEP, GENERATIVE_WEIGHTS)
