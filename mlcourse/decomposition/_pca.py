"""Principal component analysis (lectures 000, 002, 004) and the profile-likelihood choice of the
number of components.

Conventions. ``explained_variance_`` uses the divisor N − 1, like scikit-learn; Bishop's S and the
lectures' λ_i use 1/N, so λ_i = (N − 1)/N · ``explained_variance_[i]`` (same eigenvectors). Each
component's sign is fixed so that its largest-|·| entry is positive (scikit-learn's convention).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import ClassNamePrefixFeaturesOutMixin

from ..base import BaseEstimator, TransformerMixin
from ..utils.validation import (
    Interval,
    StrOptions,
    check_array,
    check_at_most,
    validate_data,
)
from ._pca_routes import (
    RANK_RTOL,
    ROUTES,
    ZERO_VARIANCE_RULE,
    flip_signs,
    zero_variance_tol,
)

__all__ = ["PCA", "profile_likelihood"]

METHODS = tuple(ROUTES)


class PCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Principal component analysis: the M directions of largest variance.

    The components are the unit eigenvectors u_1, …, u_M of the sample covariance with the M
    largest eigenvalues (Su_i = λ_i u_i, lecture 000 / Bishop 12.5); projecting on them maximises
    the retained variance and minimises the mean squared reconstruction error J = Σ_{i>M} λ_i
    (Bishop 12.18).

    Parameters
    ----------
    n_components : int or None
        M, the number of components kept. ``None`` keeps min(N, D) for ``"eig"`` and ``"svd"``,
        and every component with non-zero variance (at most N − 1) for ``"dual"``.
    method : {"eig", "svd", "dual"}
        ``"eig"``: eigendecomposition of the D × D covariance; ``"svd"``: SVD of the centred
        data (lecture 002); ``"dual"``: eigendecomposition of the N × N Gram matrix, mapped back
        with u_i = Xᵀv_i/√(Nλ_i) (lecture 000, for N < D). All give the same result.
    whiten : bool
        If True, :meth:`transform` divides each projection by its standard deviation, so the
        output has zero mean and identity sample covariance (divisor N − 1), lecture 000's
        y_n = L^{-1/2}Uᵀ(x_n − x̄). Components with numerically zero variance (below the
        route's rounding level, see :mod:`mlcourse._pca_routes`) cannot be whitened: ValueError.

    Attributes
    ----------
    mean_ : ndarray of shape (D,)
        x̄.
    components_ : ndarray of shape (M, D)
        Unit rows u_iᵀ, by decreasing variance; largest-|·| entry of each row positive.
    explained_variance_ : ndarray of shape (M,)
        Variance of the data along each component, with divisor N − 1 (scikit-learn's).
    explained_variance_ratio_ : ndarray of shape (M,)
        explained_variance_ / total variance; its cumulative sum is lecture 002's F(L).
    singular_values_ : ndarray of shape (M,)
        Singular values σ_i of the centred data, σ_i² = (N − 1)·explained_variance_[i].
    n_components_, n_samples_, n_features_in_ : int

    See Also
    --------
    PPCA : the probabilistic model whose maximum-likelihood subspace is PCA's.
    KernelPCA : PCA in a kernel's feature space.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.decomposition import PCA
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((100, 2)) @ [[3.0, 0.0], [1.0, 0.5]]
    >>> pca = PCA(n_components=2).fit(X)
    >>> pca.explained_variance_ratio_.round(3).tolist()
    [0.982, 0.018]
    >>> pca.components_[0].round(2).tolist()
    [1.0, 0.06]
    """

    _parameter_constraints = {
        "n_components": [None, Interval(Integral, 1, None, closed="left")],
        "method": [StrOptions(METHODS)],
        "whiten": ["boolean"],
    }

    def __init__(self, n_components=None, method: str = "eig", whiten: bool = False):
        self.n_components = n_components
        self.method = method
        self.whiten = whiten

    def fit(self, X, y=None):
        """Learn the mean and the components from X of shape (N, D); ``y`` is ignored."""
        self._reset()  # any failed fit leaves no fitted state
        X = validate_data(self, X, ensure_min_samples=2)
        method = self.method
        n, d = X.shape
        limit = min(n, d) if method != "dual" else min(n - 1, d)
        why = (
            "N − 1, the rank of centred data in the dual route"
            if method == "dual"
            else "min(n_samples, n_features)"
        )
        k = (
            limit
            if self.n_components is None
            else check_at_most(
                self.n_components,
                "n_components",
                limit,
                f"{why} for X of shape {X.shape}",
            )
        )
        mean = X.mean(axis=0)
        Xc = X - mean
        total = np.einsum("ij,ij->", Xc, Xc)  # trace of XcᵀXc, before a route reuses Xc
        scatter_vals, comps = ROUTES[method](Xc, k)
        tol = zero_variance_tol(scatter_vals, X, method)
        zero = scatter_vals <= tol
        if method == "dual" and self.n_components is None:
            keep = max(int(np.count_nonzero(~zero)), 1)
            scatter_vals, comps, zero = scatter_vals[:keep], comps[:keep], zero[:keep]
        if zero.any() and (method == "dual" or self.whiten):
            first = int(np.argmax(zero)) + 1
            what = "mapped back by the dual route" if method == "dual" else "whitened"
            if first == 1:
                raise ValueError(
                    f"X has no variance (all its rows are equal), so no component "
                    f"can be {what}."
                )
            raise ValueError(
                f"Component {first} of X has numerically zero variance (at most "
                f"{tol / (n - 1):.3g} = {ZERO_VARIANCE_RULE[method]}; the "
                f"rounding level of the {method!r} route) and cannot be {what}; "
                f"use n_components <= {first - 1}."
            )
        # learned attributes are set only now, after the last check that can raise
        self.components_ = flip_signs(comps)
        self.singular_values_ = np.sqrt(scatter_vals)
        self.explained_variance_ = scatter_vals / (n - 1)
        self.explained_variance_ratio_ = (
            scatter_vals / total if total > 0 else np.zeros_like(scatter_vals)
        )
        self.n_components_, self.n_samples_ = len(scatter_vals), n
        self.mean_ = mean
        return self

    @property
    def _n_features_out(self):
        """M, for ``get_feature_names_out`` ("pca0", "pca1", …; scikit-learn's mixin)."""
        return self.n_components_

    def transform(self, X) -> np.ndarray:
        """Projections z_ni = (x_n − x̄)ᵀu_i, shape (N, M); divided by √variance if ``whiten``."""
        X = validate_data(self, X, reset=False)
        Z = (X - self.mean_) @ self.components_.T
        if self.whiten:
            Z /= np.sqrt(self.explained_variance_)
        return Z

    def inverse_transform(self, Z) -> np.ndarray:
        """Reconstruction x̃_n = x̄ + Σ_{i≤M} z_ni u_i (lecture 000 / Bishop 12.20), shape (N, D)."""
        Z = validate_data(self, Z, reset=False, name="Z", n_features=self.n_components_)
        if self.whiten:
            Z = Z * np.sqrt(self.explained_variance_)
        return Z @ self.components_ + self.mean_


def check_spectrum(eigenvalues, min_size: int = 2) -> np.ndarray:
    """`eigenvalues` as a 1-D array in decreasing order, at least `min_size` of them, after
    checking that they are non-negative: values down to −eps·p·max|λ| (eigensolver rounding of a
    zero eigenvalue) are accepted, and returned as they are."""
    lam = check_array(eigenvalues, "eigenvalues", ndim=1, min_samples=min_size)
    lam = np.sort(lam)[::-1]
    if (
        lam[-1] < -RANK_RTOL * lam.size * np.abs(lam).max()
    ):  # more than eigensolver rounding
        raise ValueError(
            f"eigenvalues must be non-negative (variances); got {lam[-1]:.3g}."
        )
    return lam


def profile_likelihood(eigenvalues):
    """Zhu & Ghodsi's (2006) profile log-likelihood of each split of a scree plot (lecture 002).

    The eigenvalues, in decreasing order λ_1 ≥ … ≥ λ_p, are modelled as two Gaussian groups with
    a common variance: λ_1..λ_L ~ N(μ_1, σ²) and λ_{L+1}..λ_p ~ N(μ_2, σ²). At the maximum-
    likelihood μ_1(L), μ_2(L) (group means) and σ²(L) = [Σ_{k≤L}(λ_k − μ_1)² +
    Σ_{k>L}(λ_k − μ_2)²]/p, the log-likelihood is

        ℓ(L) = −(p/2)·ln(2πσ²(L)) − p/2,

    the negative of lecture 002's NLL(L) = p ln σ(L) + p/2 less (p/2)·ln 2π.

    Parameters
    ----------
    eigenvalues : array_like of shape (p,), p ≥ 3
        The spectrum, non-negative (values down to −eps·p·max|λ|, eigensolver rounding of a zero
        eigenvalue, are accepted), in any order: it is sorted into decreasing order first. Any
        positive scale
        (eigenvalues of S, of XᵀX, or explained variances) gives the same ``best``.

    Returns
    -------
    log_likelihood : ndarray of shape (p − 1,)
        ℓ(L) for L = 1, …, p − 1; +inf where both groups are constant (σ² = 0).
    best : int
        The L that maximises ℓ(L) (the smallest such L on ties).
    """
    lam = check_spectrum(eigenvalues, min_size=3)
    p = lam.size
    ss = np.empty(p - 1)
    for L in range(1, p):  # O(p²): p is a number of features
        head, tail = lam[:L], lam[L:]
        ss[L - 1] = np.sum((head - head.mean()) ** 2) + np.sum(
            (tail - tail.mean()) ** 2
        )
    if np.all(ss == 0):
        raise ValueError(
            "eigenvalues are all equal; no split into two groups is preferred."
        )
    with np.errstate(divide="ignore"):
        log_likelihood = -0.5 * p * np.log(2 * np.pi * ss / p) - 0.5 * p
    return log_likelihood, int(np.argmax(log_likelihood)) + 1
