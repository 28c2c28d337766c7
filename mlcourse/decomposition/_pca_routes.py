"""The three routes to the principal components (private; the estimator is
:class:`mlcourse.decomposition.PCA`).

Each route takes the centred data ``Xc`` (N × D, row n is (x_n − x̄)ᵀ) and a number of
components k, and returns the k largest eigenvalues of the scatter matrix XcᵀXc (the squared
singular values of Xc, in decreasing order) and the matching unit eigenvectors as the rows of a
k × D array. Dividing the eigenvalues by N gives those of Bishop's S (lectures 000, 004); dividing
by N − 1 gives scikit-learn's ``explained_variance_``.

=========  ==========================================================  ======================
route      what is decomposed                                          cost
=========  ==========================================================  ======================
``eig``    the D × D scatter XcᵀXc (lecture 000/004: Su = λu)          O(ND² + D³)
``svd``    Xc = UΣVᵀ itself, XcᵀXc = VΣ²Vᵀ (lecture 002)               O(ND² + D³)
``dual``   the N × N Gram matrix XcXcᵀ, mapped back with              O(N²D + N³)
           u_i = Xcᵀv_i / √(Nλ_i) (lecture 000, "PCA for high-D data")
=========  ==========================================================  ======================
"""

from __future__ import annotations

import numpy as np
from scipy import linalg
from scipy.linalg.blas import dsyrk

# A component whose eigenvalue of XcᵀXc is at most a route's tolerance is treated as having zero
# variance: its direction cannot be whitened or mapped back by the dual route. The eig and dual
# routes compute the eigenvalues of XcᵀXc or XcXcᵀ with an absolute error of order eps·λ_max, so
# their tolerance is RANK_RTOL · max(N, D) · λ_max (NumPy's matrix_rank uses the same max(N, D)·eps
# scale). The svd route computes singular values with an absolute error of order eps·σ_max, but
# centring already rounds each x_n − x̄ with an error of order eps·|x_n|, so the same rule is
# applied to σ with the raw data's norm: σ_i ≤ RANK_RTOL · max(N, D) · ‖X‖_F, i.e.
# λ_i ≤ (RANK_RTOL · max(N, D))² · ‖X‖_F² (‖X‖_F ≥ σ_max; equal-order for centred data), which
# resolves variances down to (eps·max(N, D))² of the total for centred data, e.g. about 2·10⁻²⁷
# for max(N, D) = 200.
RANK_RTOL = np.finfo(float).eps

# The same tolerances in units of explained_variance_ (divided by N − 1), as the error messages of
# PCA.fit print them. σ₁ = singular_values_[0]; σ₁² is the top eigenvalue of XcᵀXc (N times that
# of Bishop's S), so eps·max(N, D)·σ₁²/(N − 1) = eps·max(N, D)·explained_variance_[0].
ZERO_VARIANCE_RULE = {
    "eig": "eps·max(N, D)·σ₁²/(N − 1), σ₁ the largest singular value of the centred X",
    "dual": "eps·max(N, D)·σ₁²/(N − 1), σ₁ the largest singular value of the centred X",
    "svd": "(eps·max(N, D)·‖X‖_F)²/(N − 1), ‖X‖_F the Frobenius norm of the uncentred X",
}


def zero_variance_tol(scatter_eigenvalues, X, method: str = "eig") -> float:
    """Eigenvalues of XcᵀXc at or below this are numerically zero for ``method`` (see
    ``RANK_RTOL``); ``X`` is the raw, uncentred data."""
    scale = RANK_RTOL * max(X.shape)
    if method == "svd":
        return scale * scale * float(np.einsum("ij,ij->", X, X))
    return scale * float(np.max(scatter_eigenvalues, initial=0.0))


def flip_signs(components: np.ndarray) -> np.ndarray:
    """Make the largest-|·| entry of each row positive (the first one on ties), in place.

    An eigenvector is only defined up to sign; this fixes one, the same as scikit-learn's
    ``svd_flip(..., u_based_decision=False)``, so the three routes return identical arrays.
    """
    components *= largest_signs(components)[:, None]
    return components


def largest_signs(rows: np.ndarray) -> np.ndarray:
    """The sign of the largest-|·| entry of each row (the first one on ties; +1 for a zero row):
    what :func:`flip_signs` multiplies by, for flipping a paired array the same way."""
    signs = np.sign(rows[np.arange(rows.shape[0]), np.argmax(np.abs(rows), axis=1)])
    signs[signs == 0] = 1.0
    return signs


def _top_eigh(A: np.ndarray, k: int):
    """k largest eigenpairs of a symmetric matrix given by its upper triangle, decreasing."""
    n = A.shape[0]
    vals, vecs = linalg.eigh(
        A,
        lower=False,
        subset_by_index=[n - k, n - 1],
        driver="evr",
        overwrite_a=True,
        check_finite=False,
    )
    return vals[::-1], vecs[:, ::-1]


def eig_route(Xc: np.ndarray, k: int):
    """Top-k eigenpairs of the D × D scatter matrix XcᵀXc = N·S.

    XcᵀXc is formed with one symmetric rank-N update (BLAS ``syrk``, half the work of a general
    product), and only the k wanted eigenpairs are computed (LAPACK ``syevr``). Small eigenvalues
    have an absolute error of order eps·λ_max, because forming XcᵀXc squares the condition number.
    """
    scatter = dsyrk(1.0, Xc.T, lower=0)  # Xc.T is Fortran-ordered: no copy
    vals, vecs = _top_eigh(scatter, k)
    return np.maximum(
        vals, 0.0
    ), vecs.T.copy()  # rounding can make a zero eigenvalue < 0


def svd_route(Xc: np.ndarray, k: int):
    """Top-k right singular vectors of Xc = UΣVᵀ, so that XcᵀXc = VΣ²Vᵀ (lecture 002).

    For tall data (N > D) the SVD is taken of the D × D triangular factor R of Xc = QR, which has
    the same singular values and right singular vectors, without ever forming Q or U (the
    R-SVD). Otherwise it is taken of Xcᵀ = VΣUᵀ, whose left singular vectors are Xc's right
    ones: Xcᵀ is Xc's memory in Fortran order, which LAPACK reads without the transposing copy
    that Xc itself would need. The singular values are accurate to eps·σ_max, so even tiny
    variances are resolved.
    """
    n, d = Xc.shape
    if n > d:
        R = linalg.qr(Xc, mode="r", overwrite_a=True, check_finite=False)[0][:d]
        _, s, vt = linalg.svd(
            R, full_matrices=False, overwrite_a=True, check_finite=False
        )
        return s[:k] ** 2, vt[:k].copy()
    v, s, _ = linalg.svd(
        Xc.T, full_matrices=False, overwrite_a=True, check_finite=False
    )
    return s[:k] ** 2, v[:, :k].T.copy()


def dual_route(Xc: np.ndarray, k: int):
    """Top-k components from the N × N Gram matrix XcXcᵀ (lecture 000, N < D).

    If XcXcᵀv = μv with ‖v‖ = 1, then XcᵀXc(Xcᵀv) = μ(Xcᵀv) and ‖Xcᵀv‖² = vᵀXcXcᵀv = μ, so
    u = Xcᵀv/√μ is a unit eigenvector of the scatter with the same eigenvalue μ = Nλ (Bishop
    12.26–12.30). Requires μ > 0: the caller checks that the k-th eigenvalue is not zero.
    """
    gram = dsyrk(1.0, Xc.T, trans=1, lower=0)
    vals, vecs = _top_eigh(gram, k)
    vals = np.maximum(vals, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        components = (Xc.T @ vecs / np.sqrt(vals)).T
    return vals, components


ROUTES = {"eig": eig_route, "svd": svd_route, "dual": dual_route}
