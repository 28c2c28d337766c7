"""Kernel PCA (lecture 002, "replace x by φ(x)"; Schölkopf, Smola & Müller 1998; Bishop §12.3).

PCA of the feature vectors φ(x_n), computed from the kernel k(x, x′) = φ(x)ᵀφ(x′) alone. With
the centred kernel matrix (Bishop 12.85)

    K̃ = K − 1_N K − K 1_N + 1_N K 1_N,   1_N the N × N matrix of entries 1/N,

the principal directions in feature space are v_i = Σ_n a_in φ̃(x_n) with K̃a_i = λ_i a_i
(Bishop 12.80; λ_i = N times the variance along v_i), and ‖v_i‖² = a_iᵀK̃a_i = λ_i‖a_i‖², so a
unit-norm a_i gives a unit v_i after division by √λ_i. The projection of any x on v_i is
y_i(x) = Σ_n a_in k̃(x, x_n)/√λ_i (Bishop 12.82), with k̃ centred by the training means; at the
training points it is √λ_i a_in. With a linear kernel this is PCA (of the N × N Gram matrix, the
dual route).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.linalg import blas as _blas
from scipy.sparse.linalg import LinearOperator, eigsh

from ..base import TransformerMixin
from ..kernels import KERNELS, get_kernel
from ..utils.validation import Interval, StrOptions, check_at_most, validate_data
from ._pca_routes import RANK_RTOL, _top_eigh, flip_signs
from ._sklearn_base import _LatentBase

__all__ = ["KernelPCA"]

# The eigenproblem is N × N. A dense solver (LAPACK syevr, the top r pairs) costs O(N³) whatever
# r; Lanczos (ARPACK) needs only products K̃v, about 20 for a few components, and more as r
# grows. Measured on one BLAS thread, whole fits (RBF kernels of 2-D circles and of the
# standardised digits): at N = 100 the dense solver wins (0.25 vs 0.33 ms for r = 1); from
# N = 200 ARPACK does up to r ≈ N/8 and loses beyond (N = 800, r = 100: 26 vs 49 ms on the
# circles, 40 vs 55 on the digits; N = 1600, r = 200: 219 vs 264 and 272 vs 290; r = 266:
# 765 vs 283 and 476 vs 335). The switch, r ≤ N/10, keeps a margin below that crossover;
# scikit-learn's "auto" switches at r < 10.
ARPACK_MIN_N, ARPACK_COMPONENTS_PER_N = 200, 1 / 10


def centre_kernel(K, row_means=None, grand_mean=None, *, symmetric=False):
    """Centre a kernel matrix in place and return it with the training means it used.

    Training (``row_means=None``, or ``symmetric=True`` with the means already computed):
    K̃ = K − 1_N K − K 1_N + 1_N K 1_N for the symmetric K (its row and column means are
    equal). Test (K of shape (M, N) between new points and the training points):
    k̃(x, x_n) = k(x, x_n) − mean_m k(x, x_m) − mean_m k(x_m, x_n) + mean of K.
    """
    if row_means is None or symmetric:
        if row_means is None:
            row_means = K.mean(axis=0)
            grand_mean = row_means.mean()
        K -= row_means
        K -= row_means[:, None]
    else:
        K -= K.mean(axis=1)[:, None]
        K -= row_means
    K += grand_mean
    return K, row_means, grand_mean


class KernelPCA(TransformerMixin, _LatentBase):
    """Kernel principal component analysis.

    Parameters
    ----------
    n_components : int
        1 ≤ n_components ≤ N.
    kernel : str, Kernel or callable
        Resolved by :func:`mlcourse.kernels.get_kernel`: ``"rbf"``, ``"linear"``, …, a
        :class:`~mlcourse.kernels.Kernel`, or a callable k(A, B) → (n, m), always called with
        two arguments (k(X, X) for the training matrix).
    gamma : float or None
        The RBF kernel's γ in exp(−γ‖x − x′‖²); None: 1/p, as scikit-learn. Ignored by kernels
        without it.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (r,)
        The top eigenvalues λ_i of K̃, decreasing. Those at rounding level,
        |λ_i| ≤ eps·N·λ_1 (the eigensolver's and the kernel's rounding, Weyl's bound), and any
        below zero are set to 0, as scikit-learn does: their directions are noise, and
        dividing by √λ_i would blow the noise up in ``transform``.
    eigenvectors_ : ndarray of shape (N, r)
        The unit eigenvectors a_i, largest-|·| entry positive (scikit-learn's ``svd_flip``).
    X_fit_ : ndarray of shape (N, p)
        The training inputs (a new point is projected through its kernel with them).
    kernel_ : Kernel or callable
        The resolved kernel; ``gamma_`` its γ.
    K_fit_rows_ : ndarray of shape (N,)
        The column means of the training kernel matrix, and ``K_fit_all_`` their mean (the
        centring of a new point's kernel row; scikit-learn's ``KernelCenterer`` names).
    n_components_, n_features_in_ : int

    See Also
    --------
    PCA : the linear case.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.decomposition import KernelPCA
    >>> angle = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    >>> radius = np.repeat([1.0, 3.0], 20)[:, None]  # two rings
    >>> X = radius * np.c_[np.cos(angle), np.sin(angle)]
    >>> Z = KernelPCA(n_components=1, kernel='rbf', gamma=0.5).fit_transform(X)
    >>> inner, outer = Z[:20, 0], Z[20:, 0]
    >>> bool(inner.max() < outer.min() or outer.max() < inner.min())  # apart
    True
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "kernel": [StrOptions(tuple(KERNELS)), callable],
        "gamma": [None, Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, n_components=2, kernel="rbf", gamma=None):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma

    def fit(self, X, y=None):
        """Centre the kernel matrix of X (N, p) and take its top eigenpairs; ``y`` is ignored."""
        self._reset()
        X = validate_data(self, X, ensure_min_samples=2)
        n, p = X.shape
        r = check_at_most(
            self.n_components,
            "n_components",
            n,
            f"n_samples={n}, the order of the kernel matrix",
        )
        gamma = 1.0 / p if self.gamma is None else float(self.gamma)
        kernel = get_kernel(self.kernel, gamma=gamma)
        K = np.asarray(kernel(X, X), dtype=float)
        row_means = K.mean(axis=0) if K.shape == (n, n) else None
        # finite column means: finite entries (a mean can also overflow: then look at each)
        if row_means is None or not (
            np.isfinite(row_means).all() or np.isfinite(K).all()
        ):
            raise ValueError(
                f"kernel must return a finite ({n}, {n}) matrix for X of shape "
                f"{X.shape}; got shape {K.shape}."
            )
        grand_mean = row_means.mean()
        if n > ARPACK_MIN_N and r <= ARPACK_COMPONENTS_PER_N * n:
            # K̃v = PKPv with P = I − 1_N: centred implicitly, with two means per product,
            # so K itself is neither copied nor rewritten; and K v by BLAS symv, which reads
            # one triangle of the symmetric K (as the dense solver does): half the memory
            # traffic of a general product (0.35 vs 0.75 ms at N = 2000). Kᵀ is K in Fortran
            # order: no copy. tol=0: to machine precision. The start vector is seeded: the
            # result does not depend on it beyond rounding, and the seed makes it reproducible.
            K_f = K.T

            def centred_product(v):
                v = np.ravel(v)
                z = _blas.dsymv(1.0, K_f, v - v.mean())
                z -= z.mean()
                return z

            v0 = np.random.default_rng(0).uniform(-1, 1, n)
            vals, vecs = eigsh(
                LinearOperator((n, n), centred_product, dtype=float),
                r,
                which="LA",
                tol=0,
                v0=v0,
            )
            order = np.argsort(vals)[::-1]
            vals, vecs = vals[order], vecs[:, order]
        else:  # a copy: a callable kernel may return an array it keeps
            K = centre_kernel(np.array(K), row_means, grand_mean, symmetric=True)[0]
            vals, vecs = _top_eigh(K, r)
        level = RANK_RTOL * n * max(vals[0], 0.0)  # rounding of λ_i (see eigenvalues_)
        self.eigenvalues_ = np.where(vals > level, vals, 0.0)
        self.eigenvectors_ = flip_signs(vecs.T.copy()).T
        self.X_fit_, self.kernel_, self.gamma_ = X, kernel, gamma
        self.K_fit_rows_, self.K_fit_all_ = row_means, grand_mean
        self.n_components_ = r
        return self

    def _scaled_eigenvectors(self):
        """a_i/√λ_i (0 for λ_i = 0: a direction of no variance projects everything to 0)."""
        positive = self.eigenvalues_ > 0
        root = np.sqrt(np.where(positive, self.eigenvalues_, 1.0))
        return np.where(positive, self.eigenvectors_ / root, 0.0)

    def transform(self, X) -> np.ndarray:
        """y_i(x) = Σ_n a_in k̃(x, x_n)/√λ_i, shape (M, r) (Bishop 12.82)."""
        return self._project(validate_data(self, X, reset=False))[0]

    def _project(self, X):
        """The projections of validated X, and the row means of its raw kernel with X_fit_."""
        K = np.array(self.kernel_(X, self.X_fit_), dtype=float)
        row_means = K.mean(axis=1)
        K, _, _ = centre_kernel(K, self.K_fit_rows_, self.K_fit_all_)
        return K @ self._scaled_eigenvectors(), row_means

    def score(self, X, y=None) -> float:
        """The fraction of the feature-space variance of X about the training mean that the r
        components capture: Σ_n Σ_i y_i(x_n)² / Σ_n ‖φ(x_n) − φ̄‖², with
        ‖φ(x) − φ̄‖² = k(x, x) − 2 mean_m k(x, x_m) + mean(K) (on the training data,
        Σ_{i≤r} λ_i / tr K̃). ``y`` is ignored. Higher is better, as scikit-learn's model
        selection expects."""
        X = validate_data(self, X, reset=False)
        Y, row_means = self._project(X)
        self_k = np.array(
            [float(np.asarray(self.kernel_(x[None, :], x[None, :]))[0, 0]) for x in X]
        )
        total = np.sum(self_k - 2 * row_means + self.K_fit_all_)
        return float(np.sum(Y * Y) / total)

    def fit_transform(self, X, y=None) -> np.ndarray:
        """``fit(X)``, then the training projections √λ_i a_in, shape (N, r)."""
        self.fit(X)
        return self.eigenvectors_ * np.sqrt(self.eigenvalues_)
