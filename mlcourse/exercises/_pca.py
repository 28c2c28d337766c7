"""Exercises of the chapter on PCA: the principal directions (compared up to sign), and the
distortion J of keeping M components."""

from __future__ import annotations

import numpy as np

from ..checks import EPS
from ._exercise import Case, Exercise, Mistake

CHAPTER = "pca"


def spectrum_data(rng, N, D, sds, mean_scale=0.0):
    """N points in D dimensions with standard deviations `sds` along random orthogonal axes
    (distinct, so that every principal direction is well defined), and a random mean."""
    Q, _ = np.linalg.qr(rng.normal(size=(D, D)))
    X = rng.normal(size=(N, D)) * np.asarray(sds) @ Q.T
    return X + mean_scale * rng.normal(size=D)


def _eigh_centred(X):
    """Eigenvalues (decreasing) and unit eigenvectors of S = (1/N)Σ(x_n − x̄)(x_n − x̄)ᵀ, by
    the SVD of the centred data (no cancellation from forming S)."""
    Xc = X - X.mean(axis=0)
    _, sv, Vt = np.linalg.svd(Xc, full_matrices=True)
    lam = np.zeros(X.shape[1])
    lam[: len(sv)] = sv**2 / len(X)
    return lam, Vt.T


def align_columns(got, expected):
    """Flip the sign of each column of the first part to match the expected one's."""
    g, e = got[0], expected[0]
    signs = np.where(np.sum(g * e, axis=0) < 0, -1.0, 1.0)
    return [g * signs, *got[1:]]


def _direction_tolerance(X, M):
    # Forming S (or the SVD of the centred data) errs by relative_rounding·λ₁ in norm; by
    # Davis–Kahan a unit eigenvector moves by that over its eigengap (to the neighbours on
    # both sides, including λ_{M+1}); ten times over.
    lam, _ = _eigh_centred(X)
    gaps = [
        min(
            lam[i - 1] - lam[i] if i else np.inf,
            lam[i] - lam[i + 1] if i + 1 < len(lam) else np.inf,
        )
        for i in range(M)
    ]
    return 10 * 10 * EPS * max(*X.shape, 10) * lam[0] / min(gaps)


# --- the principal directions --------------------------------------------------------------


def principal_directions(X, M):
    """The first M principal directions of the data.

    Parameters
    ----------
    X : ndarray of shape (N, D)
        Data, one row per point (not centred).
    M : int
        How many directions, 1 ≤ M ≤ min(N − 1, D).

    Returns
    -------
    U_M : ndarray of shape (D, M)
        Column i is u_i, the unit eigenvector of S = (1/N)Σ_n(x_n − x̄)(x_n − x̄)ᵀ with
        the i-th largest eigenvalue. The sign of each column is free.
    """
    return _eigh_centred(np.asarray(X, float))[1][:, :M]


def _dir_uncentred(X, M):
    X = np.asarray(X, float)
    lam, U = np.linalg.eigh(X.T @ X / len(X))
    return U[:, ::-1][:, :M]


def _dir_smallest(X, M):
    X = np.asarray(X, float)
    _, U = np.linalg.eigh(np.cov(X.T, bias=True))
    return U[:, :M]


def _dir_ascending(X, M):
    return principal_directions(X, M)[:, ::-1]


def _dir_unnormalised_dual(X, M):
    X = np.asarray(X, float)
    Xc = X - X.mean(axis=0)
    lam, V = np.linalg.eigh(Xc @ Xc.T / len(X))
    return Xc.T @ V[:, ::-1][:, :M]  # Xᵀv_i has length √(Nλ_i), not 1


def _directions_cases():
    rng = np.random.default_rng(304)
    data = [
        ("two dimensions, M = 1", spectrum_data(rng, 10, 2, [2.0, 0.5]), 1),
        (
            "data far from the origin",
            spectrum_data(rng, 30, 3, [1.0, 0.6, 0.3], mean_scale=20.0),
            2,
        ),
        (
            "fewer points than dimensions (N = 6, D = 10)",
            spectrum_data(rng, 6, 10, np.linspace(3, 0.3, 10)),
            3,
        ),
        (
            "100 points, D = 6, M = 3",
            spectrum_data(rng, 100, 6, [4, 3, 2, 1, 0.5, 0.2]),
            3,
        ),
    ]
    return [
        Case(label, (X, M), rtol=0.0, atol=float(_direction_tolerance(X, M)))
        for label, X, M in data
    ]


PRINCIPAL_DIRECTIONS = Exercise(
    name="pca-directions",
    chapter=CHAPTER,
    prompt="Compute the first M principal directions u_1, …, u_M of a data set.",
    reference=principal_directions,
    make_cases=_directions_cases,
    mistakes=(
        Mistake(
            "Your directions are the eigenvectors of (1/N)XᵀX without centring: S subtracts "
            "the mean x̄ first, otherwise the first direction points towards the mean "
            "(section 'Maximum variance').",
            _dir_uncentred,
        ),
        Mistake(
            "Your directions belong to the M *smallest* eigenvalues: np.linalg.eigh returns "
            "the eigenvalues in increasing order, and the principal directions are those "
            "of the largest.",
            _dir_smallest,
        ),
        Mistake(
            "Your columns are in increasing order of eigenvalue: u_1 must be the direction "
            "of the largest variance λ_1, then u_2, and so on (np.linalg.eigh's order is "
            "increasing).",
            _dir_ascending,
        ),
        Mistake(
            "Your columns are not unit vectors: from the N × N problem, Xᵀv_i has length "
            "√(Nλ_i), so u_i = Xᵀv_i/√(Nλ_i) (section 'High-dimensional data').",
            _dir_unnormalised_dual,
        ),
    ),
    outputs=("U_M",),
    align=align_columns,
    section="pca-maxvar",
)


# --- the distortion ------------------------------------------------------------------------


def pca_distortion(X, M):
    """The distortion J of the best approximation of the data by M principal components.

    Parameters
    ----------
    X : ndarray of shape (N, D)
        Data, one row per point (not centred).
    M : int
        Components kept, 0 ≤ M ≤ D.

    Returns
    -------
    float
        J = (1/N)Σ_n‖x_n − x̃_n‖², the mean squared distance from each point to its
        reconstruction x̃_n = x̄ + Σ_{i≤M}((x_n − x̄)ᵀu_i)u_i.
    """
    lam, _ = _eigh_centred(np.asarray(X, float))
    return float(lam[M:].sum())


def _j_unbiased(X, M):
    return pca_distortion(X, M) * len(X) / (len(X) - 1)


def _j_kept(X, M):
    lam, _ = _eigh_centred(np.asarray(X, float))
    return float(lam[:M].sum())


def _j_uncentred(X, M):
    X = np.asarray(X, float)
    lam = np.linalg.eigvalsh(X.T @ X / len(X))[::-1]
    return float(lam[M:].sum())


def _j_fraction(X, M):
    lam, _ = _eigh_centred(np.asarray(X, float))
    return float(lam[M:].sum() / lam.sum())


def _distortion_cases():
    rng = np.random.default_rng(305)
    X4 = spectrum_data(rng, 20, 4, [3.0, 2.0, 1.0, 0.5], mean_scale=5.0)
    data = [
        ("M = 0: J is the total variance", X4[:8], 0),
        ("M = D − 1: J is the smallest eigenvalue", X4, 3),
        ("M = D: nothing is discarded (J = 0)", X4, 4),
        (
            "fewer points than dimensions (N = 5, D = 8)",
            spectrum_data(rng, 5, 8, np.ones(8)),
            2,
        ),
        (
            "200 points, D = 10, M = 4",
            spectrum_data(rng, 200, 10, np.linspace(5, 0.5, 10)),
            4,
        ),
    ]

    def case(label, X, M):
        N, D = X.shape
        spread = np.sum((X - X.mean(0)) ** 2, axis=1).max() + np.sum(X.mean(0) ** 2)
        # J sums D − M eigenvalues of S, or N·D squared residuals of size up to the
        # largest ‖x_n − x̄‖² (plus ‖x̄‖² where a route centres late): relative rounding
        # 10·EPS·max(N, D, 10) of that size, ten times over.
        atol = 10 * 10 * EPS * max(N, D, 10) * D * spread
        return Case(
            label,
            (X, M),
            rtol=0.0,
            atol=float(atol),
            factors={"N/(N − 1)": N / (N - 1)},
        )

    return [case(*d) for d in data]


PCA_DISTORTION = Exercise(
    name="pca-distortion",
    chapter=CHAPTER,
    prompt="Compute the distortion J of approximating the data by their first M principal "
    "components.",
    reference=pca_distortion,
    make_cases=_distortion_cases,
    mistakes=(
        Mistake(
            "Your J divides by N − 1: the book's S, and J = (1/N)Σ_n‖x_n − x̃_n‖², divide "
            "by N (section 'Covariance conventions'); the two differ by N/(N − 1).",
            _j_unbiased,
        ),
        Mistake(
            "That is the variance you keep, Σ_{i≤M}λ_i: the distortion is the variance you "
            "discard, J = Σ_{i>M}λ_i (section 'Minimum error').",
            _j_kept,
        ),
        Mistake(
            "Your eigenvalues are those of (1/N)XᵀX without centring: the reconstruction "
            "x̃_n adds back the mean x̄, and J = Σ_{i>M}λ_i uses the eigenvalues of S.",
            _j_uncentred,
        ),
        Mistake(
            "Your J is a fraction of the total variance, 1 − F(M): the distortion is the "
            "discarded variance itself, J = Σ_{i>M}λ_i.",
            _j_fraction,
        ),
    ),
    outputs=("distortion",),
    section="pca-minerror",
)

EXERCISES = (PRINCIPAL_DIRECTIONS, PCA_DISTORTION)
