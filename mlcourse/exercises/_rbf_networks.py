"""Exercises of the chapter on RBF networks: the regularised least-squares weights W, and the
Nadaraya–Watson estimate, stable far from the data."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..checks import EPS
from ._exercise import Case, Exercise, Mistake

CHAPTER = "rbf_networks"


def _sq_dist(A, B):
    """Squared distances ‖a − b‖², (len(A), len(B)), from the differences (no cancellation)."""
    return np.sum((A[:, None, :] - B[None, :, :]) ** 2, axis=-1)


# --- the regularised least-squares weights -------------------------------------------------


def ridge_weights(Phi, Z, lam):
    """The weights W of an RBF network by regularised least squares.

    They minimise E(W) = ½Σ_n‖Wφ(xⁿ) − zⁿ‖² + (λ/2)tr(WᵀW).

    Parameters
    ----------
    Phi : ndarray of shape (N, M + 1)
        Design matrix; row n is φ(xⁿ)ᵀ, the M units and the bias unit φ₀ = 1.
    Z : ndarray of shape (N, C)
        Targets; row n is zⁿᵀ.
    lam : float
        The regularisation weight λ > 0.

    Returns
    -------
    W : ndarray of shape (C, M + 1)
        Row k holds the weights of output k, so that y(x) = Wφ(x).
    """
    Phi, Z = np.asarray(Phi, float), np.asarray(Z, float)
    A = np.r_[
        Phi, np.sqrt(lam) * np.eye(Phi.shape[1])
    ]  # ridge as least squares: QR route
    B = np.r_[Z, np.zeros((Phi.shape[1], Z.shape[1]))]
    return linalg.lstsq(A, B)[0].T


def _ridge_normal(Phi, Z, lam):
    return np.linalg.solve(Phi.T @ Phi + lam * np.eye(Phi.shape[1]), Phi.T @ Z).T


def _ridge_transposed(Phi, Z, lam):
    return ridge_weights(Phi, Z, lam).T


def _ridge_no_penalty(Phi, Z, lam):
    return _ridge_normal(Phi, Z, 0.0)


def _ridge_twice(Phi, Z, lam):
    return _ridge_normal(Phi, Z, 2 * lam)


def _ridge_half(Phi, Z, lam):
    return _ridge_normal(Phi, Z, lam / 2)


def _ridge_cases():
    rng = np.random.default_rng(294)

    def units(x, centers, width):
        return np.c_[np.ones(len(x)), np.exp(-_sq_dist(x, centers) / (2 * width**2))]

    def case(label, N, M, C, lam, duplicate=False):
        x = rng.uniform(-1, 1, size=(N, 1))
        centers = rng.uniform(-1, 1, size=(M, 1))
        if duplicate:
            centers[1] = centers[0]  # two identical units: Φ has rank M
        Phi = units(x, centers, 0.4)
        Z = np.column_stack([np.sinc(2 * x[:, 0] + k) for k in range(C)])
        Z += 0.1 * rng.normal(size=Z.shape)
        P = Phi.T @ Phi + lam * np.eye(M + 1)
        W = np.linalg.solve(P, Phi.T @ Z)
        # Forming ΦᵀΦ sums N products (relative N·EPS); the solve amplifies that by cond(P),
        # on the size of W; ten times that bounds the normal-equation, QR and kernel routes.
        atol = 10 * (N + M) * EPS * np.linalg.cond(P) * np.abs(W).max()
        return Case(label, (Phi, Z, lam), rtol=0.0, atol=float(atol))

    return [
        case("one output, 6 points, 2 units", 6, 2, 1, 0.1),
        case("two outputs (C = 2)", 10, 3, 2, 0.5),
        case("fewer points than weights (N = 3, M + 1 = 6)", 3, 5, 1, 0.1),
        case("two identical units (Φ of deficient rank)", 12, 4, 1, 0.01),
        case("60 points, 12 units and the bias", 60, 12, 2, 0.01),
    ]


RIDGE_WEIGHTS = Exercise(
    name="ridge-weights",
    chapter=CHAPTER,
    prompt="Compute the RBF network's weights W by regularised least squares.",
    reference=ridge_weights,
    make_cases=_ridge_cases,
    mistakes=(
        Mistake(
            "You return Wᵀ: the lecture's W is C × (M + 1), one row per output, so that "
            "y(x) = Wφ(x); the normal equations (ΦᵀΦ + λI)Wᵀ = ΦᵀZ give its transpose.",
            _ridge_transposed,
        ),
        Mistake(
            "Your weights ignore the penalty: (ΦᵀΦ)⁻¹ΦᵀZ is plain least squares; the "
            "normal equations are (ΦᵀΦ + λI)Wᵀ = ΦᵀZ (section 'Regularised least squares "
            "and its kernel form').",
            _ridge_no_penalty,
        ),
        Mistake(
            "Your penalty is 2λ: differentiating (λ/2)tr(WᵀW) gives λW, so the normal "
            "equations have ΦᵀΦ + λI.",
            _ridge_twice,
        ),
        Mistake(
            "Your penalty is λ/2: the ½ of (λ/2)tr(WᵀW) goes when it is differentiated, so "
            "the normal equations have ΦᵀΦ + λI.",
            _ridge_half,
        ),
    ),
    outputs=("W",),
    section="rbf-least-squares",
)


# --- Nadaraya–Watson -----------------------------------------------------------------------


def nadaraya_watson(X, z, X_query, sigma_x):
    """The Nadaraya–Watson estimate y(x) = Σ_n k(x, xⁿ)zⁿ, Gaussian weights.

    Parameters
    ----------
    X : ndarray of shape (N, p)
        Training inputs, one row per point.
    z : ndarray of shape (N,)
        Training targets.
    X_query : ndarray of shape (Q, p)
        Where to estimate.
    sigma_x : float
        The kernel width σ_x > 0.

    Returns
    -------
    y : ndarray of shape (Q,)
        The estimate at each query point; far from every training point it is the
        nearest point's target (the limit of the formula).
    """
    X, z, X_query = (
        np.asarray(X, float),
        np.asarray(z, float),
        np.asarray(X_query, float),
    )
    exponent = -_sq_dist(X_query, X) / (2 * sigma_x**2)
    weights = np.exp(exponent - exponent.max(axis=1, keepdims=True))  # the largest is 1
    return weights @ z / weights.sum(axis=1)


def _nw_weights(X, X_query, divisor, squared=True):
    d2 = _sq_dist(np.asarray(X_query, float), np.asarray(X, float))
    exponent = -(d2 if squared else np.sqrt(d2)) / divisor
    return np.exp(exponent - exponent.max(axis=1, keepdims=True))


def _nw_unnormalised(X, z, X_query, sigma_x):
    return np.exp(-_sq_dist(X_query, X) / (2 * sigma_x**2)) @ z


def _nw_no_half(X, z, X_query, sigma_x):
    k = _nw_weights(X, X_query, sigma_x**2)
    return k @ z / k.sum(axis=1)


def _nw_width_not_squared(X, z, X_query, sigma_x):
    k = _nw_weights(X, X_query, 2 * sigma_x)
    return k @ z / k.sum(axis=1)


def _nw_naive(X, z, X_query, sigma_x):
    with np.errstate(all="ignore"):
        k = np.exp(-_sq_dist(X_query, X) / (2 * sigma_x**2))
        return k @ z / k.sum(axis=1)


def _nan_far_away(got, case, expected):
    g, e = got[0], expected[0]
    return g.shape == e.shape and bool(np.any(np.isnan(g) & np.isfinite(e)))


def _nw_cases():
    rng = np.random.default_rng(295)

    def case(label, X, z, X_query, sigma_x):
        # The exponents ‖x − xⁿ‖²/2σ_x² are good to EPS·(‖x‖² + ‖xⁿ‖²)/σ_x² (a route through
        # ‖x‖² + ‖xⁿ‖² − 2xᵀxⁿ cancels that much); each normalised weight then errs by twice
        # that, relative, plus N·EPS for the sum; times max|z|, and ten times over.
        size = (np.sum(X**2, 1).max() + np.sum(X_query**2, 1).max()) / sigma_x**2
        atol = 10 * (2 * size + len(X) + 2) * EPS * np.abs(z).max()
        return Case(label, (X, z, X_query, sigma_x), rtol=0.0, atol=float(atol))

    x1 = np.sort(rng.uniform(0, 1, 8))[:, None]
    z1 = np.sin(2 * np.pi * x1[:, 0]) + 0.1 * rng.normal(size=8)
    X2 = rng.normal(size=(30, 2))
    z2 = X2[:, 0] - X2[:, 1] ** 2 + 0.1 * rng.normal(size=30)
    return [
        case(
            "a single training point",
            np.array([[0.3]]),
            np.array([2.0]),
            np.array([[0.0], [0.3], [1.0]]),
            0.5,
        ),
        case("queries on training inputs", x1, z1, x1[[0, 3, 7]], 0.1),
        case("two inputs (p = 2), 30 points", X2, z2, rng.normal(size=(5, 2)), 0.7),
        case(
            "queries far from the data (every Gaussian underflows)",
            x1,
            z1,
            np.array([[0.5], [50.0], [-40.0]]),
            0.1,
        ),
    ]


NADARAYA_WATSON = Exercise(
    name="nadaraya-watson",
    chapter=CHAPTER,
    prompt="Compute the Nadaraya–Watson estimate, with weights that stay finite far from "
    "the data.",
    reference=nadaraya_watson,
    make_cases=_nw_cases,
    mistakes=(
        Mistake(
            "Your estimate is NaN far from the data: there every weight "
            "exp{−‖x − xⁿ‖²/2σ_x²} underflows to 0, and 0/0 is NaN. Subtract the largest "
            "exponent (the nearest point's) from all of them before exponentiating, the "
            "log-sum-exp trick; the estimate then tends to the nearest point's target "
            "(section 'Nadaraya–Watson').",
            _nw_naive,
            test=_nan_far_away,
        ),
        Mistake(
            "Your weights are not normalised: k(x, xⁿ) divides each Gaussian by their sum "
            "over the training points, so that the weights add up to 1.",
            _nw_unnormalised,
        ),
        Mistake(
            "Your exponent is missing the ½: the Gaussian of width σ_x is "
            "exp{−‖x − xⁿ‖²/2σ_x²}.",
            _nw_no_half,
        ),
        Mistake(
            "Your exponent divides by 2σ_x where the variance belongs: the Gaussian of "
            "width σ_x is exp{−‖x − xⁿ‖²/2σ_x²}.",
            _nw_width_not_squared,
        ),
    ),
    outputs=("estimate",),
    section="rbf-nadaraya-watson",
)

EXERCISES = (RIDGE_WEIGHTS, NADARAYA_WATSON)
