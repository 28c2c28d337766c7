"""Exercises of the chapter on latent-variable models: probabilistic PCA's maximum-likelihood
W and σ² (compared up to a rotation), and the first PLS direction (up to sign)."""

from __future__ import annotations

import numpy as np

from ..checks import EPS
from ._exercise import Case, Exercise, Mistake
from ._pca import _eigh_centred, align_columns, spectrum_data

CHAPTER = "latent_variable_models"


def align_rotation(got, expected):
    """Rotate the answer's W by the orthogonal R that brings it closest to the expected W
    (orthogonal Procrustes: R = UVᵀ from the SVD UΣVᵀ of W_gotᵀW_expected). W is defined only
    up to such an R, W = U_r(Λ_r − σ²I)^(1/2)R."""
    U, _, Vt = np.linalg.svd(got[0].T @ expected[0])
    return [got[0] @ U @ Vt, *got[1:]]


# --- PPCA by maximum likelihood ------------------------------------------------------------


def ppca_ml(X, r):
    """The maximum-likelihood W and σ² of probabilistic PCA with r latent dimensions.

    Parameters
    ----------
    X : ndarray of shape (N, p)
        Data, one row per point (not centred).
    r : int
        Latent dimensions, 1 ≤ r < p.

    Returns
    -------
    W : ndarray of shape (p, r)
        A maximum-likelihood loading matrix (any rotation WR of it is one too).
    sigma2 : float
        The maximum-likelihood noise variance σ².
    """
    lam, U = _eigh_centred(np.asarray(X, float))
    sigma2 = lam[r:].mean()
    return U[:, :r] * np.sqrt(lam[:r] - sigma2), float(sigma2)


def _ppca_from(lam, U, r, sigma2, subtract=True):
    return U[:, :r] * np.sqrt(lam[:r] - (sigma2 if subtract else 0.0)), float(sigma2)


def _ppca_no_subtraction(X, r):
    lam, U = _eigh_centred(np.asarray(X, float))
    return _ppca_from(lam, U, r, lam[r:].mean(), subtract=False)


def _ppca_all_eigenvalues(X, r):
    lam, U = _eigh_centred(np.asarray(X, float))
    return _ppca_from(lam, U, r, lam.mean())


def _ppca_sum(X, r):
    lam, U = _eigh_centred(np.asarray(X, float))
    W, _ = _ppca_from(lam, U, r, lam[r:].mean())
    return W, float(lam[r:].sum())


def _ppca_scatter(X, r):
    lam, U = _eigh_centred(np.asarray(X, float))
    return _ppca_from(lam * len(X), U, r, (lam * len(X))[r:].mean())


def _ppca_cases():
    rng = np.random.default_rng(306)
    data = [
        ("p = 2, r = 1", spectrum_data(rng, 12, 2, [2.0, 0.5]), 1),
        (
            "r = p − 1: σ² is the smallest eigenvalue",
            spectrum_data(rng, 40, 3, [3, 1.5, 0.5]),
            2,
        ),
        (
            "fewer points than dimensions (N = 8, p = 10)",
            spectrum_data(rng, 8, 10, np.linspace(4, 0.5, 10), mean_scale=3.0),
            2,
        ),
        (
            "300 points, p = 5, r = 2",
            spectrum_data(rng, 300, 5, [3, 2, 0.5, 0.45, 0.4], mean_scale=1.0),
            2,
        ),
    ]

    def case(label, X, r):
        N, p = X.shape
        lam, _ = _eigh_centred(X)
        # The eigenvalues are good to rr·λ₁ (rr = 10·EPS·max(N, p, 10)), so σ² is; the
        # columns of U_r move by rr·λ₁/gap (Davis–Kahan), and √(λ_i − σ²) by
        # rr·λ₁/(2√(λ_i − σ²)): W's entries by the sum of both times √λ₁; ten times over.
        rr = 10 * EPS * max(N, p, 10)
        gap = min(lam[i] - lam[i + 1] for i in range(r))
        root = np.sqrt(lam[r - 1] - lam[r:].mean())
        atol_w = 10 * rr * lam[0] * (np.sqrt(lam[0]) / gap + 1 / root)
        return Case(
            label,
            (X, r),
            rtol=0.0,
            atol=(float(atol_w), float(10 * rr * lam[0])),
            factors={"N": N},
        )

    return [case(*d) for d in data]


PPCA_ML = Exercise(
    name="ppca-ml",
    chapter=CHAPTER,
    prompt="Fit probabilistic PCA by maximum likelihood: return W and σ².",
    reference=ppca_ml,
    make_cases=_ppca_cases,
    mistakes=(
        Mistake(
            "Your W is missing the −σ²: W = U_r(Λ_r − σ²I)^(1/2)R. The noise already "
            "accounts for σ² of the variance along every direction, so the loadings carry "
            "only the excess λ_i − σ² (section 'Maximum likelihood').",
            _ppca_no_subtraction,
        ),
        Mistake(
            "Your σ² averages all p eigenvalues: it is the average of the p − r discarded "
            "ones, σ² = (1/(p − r))Σ_{i>r}λ_i, the variance lost per discarded direction.",
            _ppca_all_eigenvalues,
        ),
        Mistake(
            "Your σ² is the sum of the discarded eigenvalues: it is their average, "
            "σ² = (1/(p − r))Σ_{i>r}λ_i.",
            _ppca_sum,
        ),
        Mistake(
            "Your eigenvalues are N times too large: the lecture defines S without the 1/N, "
            "but the likelihood with the factor N/2 in front needs the average, "
            "S = (1/N)Σ_n(x_n − x̄)(x_n − x̄)ᵀ.",
            _ppca_scatter,
        ),
    ),
    outputs=("W", "sigma2"),
    align=align_rotation,
    section="lvm-ml",
)


# --- the first PLS direction ---------------------------------------------------------------


def pls_direction(X, Y):
    """The first PLS direction: the unit vector whose scores covary most with Y.

    Parameters
    ----------
    X : ndarray of shape (N, p)
        Inputs, one row per point (not centred).
    Y : ndarray of shape (N, q)
        Targets, one row per point (not centred).

    Returns
    -------
    u : ndarray of shape (p,)
        The unit vector u maximising ‖(X_c u)ᵀY_c‖ for the centred blocks X_c, Y_c:
        the top left singular vector of X_cᵀY_c. Its sign is free.
    """
    X, Y = np.asarray(X, float), np.asarray(Y, float)
    Xc, Yc = X - X.mean(axis=0), Y - Y.mean(axis=0)
    return np.linalg.svd(Xc.T @ Yc)[0][:, 0]


def _pls_pca(X, Y):
    return _eigh_centred(np.asarray(X, float))[1][:, 0]


def _pls_uncentred(X, Y):
    return np.linalg.svd(np.asarray(X, float).T @ np.asarray(Y, float))[0][:, 0]


def _pls_whitened(X, Y):
    X, Y = np.asarray(X, float), np.asarray(Y, float)
    Xc, Yc = X - X.mean(axis=0), Y - Y.mean(axis=0)
    a = np.linalg.lstsq(Xc, Yc, rcond=None)[
        0
    ]  # S_xx⁻¹S_xy: CCA's (and regression's) side
    u = np.linalg.svd(a)[0][:, 0]
    return u


def _pls_unnormalised(X, Y):
    X, Y = np.asarray(X, float), np.asarray(Y, float)
    Xc, Yc = X - X.mean(axis=0), Y - Y.mean(axis=0)
    U, s, _ = np.linalg.svd(Xc.T @ Yc)
    return U[:, 0] * s[0]


def _not_unit(got, case, expected):
    g, e = got[0], expected[0]
    if g.shape != e.shape:
        return False
    norm = np.linalg.norm(g)
    return bool(
        norm > 0
        and abs(norm - 1) > 1e-6
        and np.allclose(np.abs(g / norm), np.abs(e), atol=1e-6)
    )


def _pls_cases():
    rng = np.random.default_rng(307)

    def data(N, p, q, mean_scale=0.0):
        X = spectrum_data(rng, N, p, np.linspace(2, 0.5, p), mean_scale)
        B = rng.normal(size=(p, q))
        return X, X @ B + 0.5 * rng.normal(size=(N, q)) + mean_scale * rng.normal(
            size=q
        )

    def case(label, X, Y):
        Xc, Yc = X - X.mean(0), Y - Y.mean(0)
        s = np.linalg.svd(Xc.T @ Yc, compute_uv=False)
        gap = s[0] - (s[1] if len(s) > 1 else 0.0)
        # X_cᵀY_c sums N products (error N·EPS·‖X_c‖‖Y_c‖, plus the centring of data as
        # large as its mean); its top left singular vector moves by that over the gap
        # σ₁ − σ₂ (Wedin's bound); ten times over.
        size = np.linalg.norm(X, 2) * np.linalg.norm(Y, 2)
        atol = 10 * (len(X) + 10) * EPS * size / gap
        return Case(label, (X, Y), rtol=0.0, atol=float(atol))

    return [
        case("one target (q = 1)", *data(10, 3, 1)),
        case("three targets (q = 3)", *data(30, 4, 3)),
        case("data far from the origin", *data(25, 3, 2, mean_scale=10.0)),
        case("fewer points than inputs (N = 6, p = 10)", *data(6, 10, 1)),
    ]


PLS_DIRECTION = Exercise(
    name="pls-direction",
    chapter=CHAPTER,
    prompt="Compute the first PLS direction u_1 of inputs X and targets Y.",
    reference=pls_direction,
    make_cases=_pls_cases,
    mistakes=(
        Mistake(
            "That is the first principal direction of X: it ignores the targets. PLS "
            "chooses the direction whose scores covary most with Y, the top left singular "
            "vector of X_cᵀY_c (section 'Partial least squares').",
            _pls_pca,
        ),
        Mistake(
            "Your blocks are not centred: the covariance of the scores with the targets "
            "needs X and Y centred first (X_cᵀY_c, not XᵀY).",
            _pls_uncentred,
        ),
        Mistake(
            "Your direction is whitened by S_xx⁻¹, as in CCA or least squares: PLS "
            "maximises the covariance, not the correlation, so it takes X_cᵀY_c as it is.",
            _pls_whitened,
        ),
        Mistake(
            "Your direction is not a unit vector: u_1 is normalised, ‖u_1‖ = 1.",
            _pls_unnormalised,
            test=_not_unit,
        ),
    ),
    outputs=("u",),
    align=align_columns,
    section="lvm-pls",
)

EXERCISES = (PPCA_ML, PLS_DIRECTION)
