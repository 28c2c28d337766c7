"""Canonical correlation analysis (lecture 002; Hotelling 1936; Björck & Golub 1973).

The canonical directions a_i, b_i maximise the correlation of the scores Xa and Yb, each new
pair uncorrelated with the previous ones. With C_xx, C_yy, C_xy the (cross-)covariances, they
come from one SVD,

    C_xx^{-1/2} C_xy C_yy^{-1/2} = Σ_i ρ_i ã_i b̃_iᵀ,
    a_i = C_xx^{-1/2} ã_i,  b_i = C_yy^{-1/2} b̃_i,

and the singular values are the canonical correlations ρ_1 ≥ ρ_2 ≥ …. Any square root of the
covariances will do: with the thin QR factorisations of the centred data, X_c = Q_x R_x and
Y_c = Q_y R_y, the matrix is Q_xᵀQ_y (Björck & Golub's algorithm), which never forms C_xx and so
does not square its condition number. For one target t, ρ_1² = C_tx C_xx⁻¹ C_xt / C_tt, the R² of
the least-squares regression of t on x.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy import linalg

from ..base import TransformerMixin
from ..utils.validation import Interval, check_at_most, validate_data
from ._pca_routes import RANK_RTOL, largest_signs
from ._pls import second_block
from ._sklearn_base import _LatentBase

__all__ = ["CCA"]


def _whitening(A, name: str):
    """Q (N, m) with orthonormal columns spanning the centred A's columns, and the map M (k, m)
    with A_c M = Q·√(N − 1): unit-variance, uncorrelated scores (m = k for full column rank).

    Full column rank: from the pivoted QR A_c P = Q R, M = P R⁻¹√(N − 1). A column that is
    (numerically) a combination of the others — a constant or duplicated column, collinear
    columns, more columns than N − 1 — makes C singular: |R_kk| ≤ eps·max(N, k)·|R_11| (the rank
    rule of :mod:`._pca_routes`, on singular values' scale). Then the pseudo-inverse: from the
    thin SVD A_c = U S Vᵀ, keep the m singular values above that level, Q = U_m and
    M = V_m S_m⁻¹√(N − 1), so that a = M ã is the minimum-norm direction with the scores Q ã
    (the canonical correlations are those of the column spaces, as scikit-learn's CCA fits
    such data). An A with no variance at all raises a ValueError.
    """
    n, k = A.shape
    Q, R, perm = linalg.qr(A, mode="economic", pivoting=True, check_finite=False)
    diag = np.abs(np.diag(R))
    rank = int(np.sum(diag > RANK_RTOL * max(n, k) * diag[0])) if diag[0] > 0 else 0
    if rank == 0:
        raise ValueError(
            f"{name} has no variance (every column is constant), so no direction of it "
            "correlates with anything; canonical correlations are not defined."
        )
    if rank == k:
        M = np.empty((k, k))
        M[perm] = linalg.solve_triangular(
            R, np.eye(k) * np.sqrt(n - 1), check_finite=False
        )
        return Q, M
    U, sv, Vt = linalg.svd(A, full_matrices=False, check_finite=False)
    m = int(np.sum(sv > RANK_RTOL * max(n, k) * sv[0]))
    return U[:, :m], Vt[:m].T * (np.sqrt(n - 1) / sv[:m])


class CCA(TransformerMixin, _LatentBase):
    """Canonical correlation analysis by the SVD of C_xx^{-1/2} C_xy C_yy^{-1/2}.

    Singular covariances fit: a constant or duplicated column, collinear columns, or more
    columns than samples make C_xx (or C_yy) singular, and the canonical directions are then
    found in the column space of the centred block, by its pseudo-inverse (see
    :func:`_whitening`): the minimum-norm directions, and correlations that are those of the
    column spaces (so p ≥ N − 1 gives correlations of 1: any y can be matched).

    Parameters
    ----------
    n_components : int
        r ≤ min(rank X_c, rank Y_c) (≤ min(p, q, N − 1)): the number of pairs of canonical
        directions.

    Attributes
    ----------
    canonical_correlations_ : ndarray of shape (r,)
        ρ_1 ≥ … ≥ ρ_r, the correlations of the paired scores.
    x_weights_ : ndarray of shape (p, r)
        a_i, scaled so that the scores (x − x̄)ᵀa_i have unit sample variance (divisor N − 1);
        the largest-|·| entry of each positive.
    y_weights_ : ndarray of shape (q, r)
        b_i, likewise, with signs that make each correlation positive.
    x_mean_, y_mean_ : ndarrays of shape (p,) and (q,)
    n_components_, n_features_in_, n_targets_ : int

    See Also
    --------
    PLSRegression : directions of largest covariance instead of correlation.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.decomposition import CCA
    >>> rng = np.random.default_rng(0)
    >>> z = rng.standard_normal((200, 1))  # one latent drives both views
    >>> X = z @ [[1.0, 0.5]] + 0.3 * rng.standard_normal((200, 2))
    >>> Y = z @ [[0.8, -1.0, 0.2]] + 0.3 * rng.standard_normal((200, 3))
    >>> cca = CCA(n_components=1).fit(X, Y)
    >>> [round(float(r), 2) for r in cca.canonical_correlations_]
    [0.94]
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, n_components=2):
        self.n_components = n_components

    _two_blocks = True  # X and a matrix y

    def fit(self, X, y):
        """Fit to X of shape (N, p) and Y (named `y`, as in scikit-learn) of shape (N, q) or
        (N,)."""
        self._reset()
        X, y = validate_data(
            self, X, y, y_numeric=True, multi_output=True, ensure_min_samples=2
        )
        Y = y.reshape(len(y), -1)
        n, p = X.shape
        q = Y.shape[1]
        x_mean, y_mean = X.mean(axis=0), Y.mean(axis=0)
        Qx, Mx = _whitening(X - x_mean, "X")
        Qy, My = _whitening(Y - y_mean, "y")
        r = check_at_most(
            self.n_components,
            "n_components",
            min(Qx.shape[1], Qy.shape[1]),
            f"the numerical ranks of the centred X ({Qx.shape[1]}) and y "
            f"({Qy.shape[1]}), each at most min(n_features, n_targets, n_samples − 1) "
            f"= {min(p, q, n - 1)}: there are no more pairs of canonical directions",
        )
        A, rho, Bt = linalg.svd(Qx.T @ Qy, full_matrices=False, check_finite=False)
        a, b = Mx @ A[:, :r], My @ Bt[:r].T
        signs = largest_signs(a.T)  # the same flip for the pair
        self.x_weights_, self.y_weights_ = a * signs, b * signs
        self.canonical_correlations_ = np.minimum(rho[:r], 1.0)  # rounding can exceed 1
        self.x_mean_, self.y_mean_ = x_mean, y_mean
        self.n_components_, self.n_targets_ = r, q
        return self

    def transform(self, X, y=None):
        """The x-scores (x − x̄)ᵀa_i, shape (N, r); with `y` also the y-scores (y − ȳ)ᵀb_i."""
        if y is None:
            X = validate_data(self, X, reset=False)
        else:
            X, Y = second_block(self, X, y)
        scores = (X - self.x_mean_) @ self.x_weights_
        if y is None:
            return scores
        return scores, (Y - self.y_mean_) @ self.y_weights_

    def fit_transform(self, X, y):
        """``fit(X, y)`` then ``transform(X, y)``."""
        return self.fit(X, y).transform(X, y)

    def score(self, X, y) -> float:
        """The mean correlation of the paired scores (x − x̄)ᵀa_i and (y − ȳ)ᵀb_i on (X, y): the
        canonical correlations the fitted directions reach on these data (on the training data,
        the mean of ``canonical_correlations_``). Higher is better, as scikit-learn's model
        selection expects."""
        U, V = self.transform(X, y)
        U, V = U - U.mean(axis=0), V - V.mean(axis=0)
        return float(
            np.mean(
                np.einsum("ni,ni->i", U, V)
                / np.sqrt(np.einsum("ni,ni->i", U, U) * np.einsum("ni,ni->i", V, V))
            )
        )
