"""Probabilistic PCA (lecture 002; Tipping & Bishop 1999; Bishop §12.2): the closed-form maximum
likelihood, EM with missing values, and three ways to choose the number of components from the
spectrum — BIC and Minka's (2000) evidence beside the PCA chapter's profile likelihood.

Conventions. The lecture's likelihood needs the sample covariance with divisor N,
S = (1/N) Σ_n (x_n − x̄)(x_n − x̄)ᵀ, and λ_i are its eigenvalues (scikit-learn's
``explained_variance_`` uses N − 1). ``components_`` is the lecture's W, shape (p, r).
"""

from __future__ import annotations

import numbers
from numbers import Integral, Real

import numpy as np
from scipy.special import gammaln

from ..base import TransformerMixin
from ..utils.validation import (
    Interval,
    StrOptions,
    check_at_most,
    check_is_fitted,
    check_random_state,
    check_scalar,
    validate_data,
)
from ._latent import LOG_2PI, fit_em, noise_floor, posterior
from ._pca import check_spectrum
from ._pca_routes import ROUTES, flip_signs
from ._sklearn_base import _LatentBase

__all__ = ["PPCA", "ppca_bic", "ppca_evidence", "ppca_max_log_likelihood"]

METHODS = ("closed_form", "em")


def latent_dimension(n_components, n_features: int, what: str = "n_features") -> int:
    """r, which must be smaller than p: a latent space smaller than the data space (the noise
    variance is the mean of the p − r discarded eigenvalues, so at least one must be left)."""
    why = (
        f"{what} − 1 = {n_features - 1}: the noise variance is estimated from the "
        f"directions left out, and X has {n_features} feature(s)"
    )
    return int(check_at_most(n_components, "n_components", n_features - 1, why))


def check_missing(X, name: str = "X"):
    """The observed-entry mask of X with NaN as missing; None if nothing is missing. Rows or
    columns with nothing observed carry no information about the model: ValueError."""
    missing = np.isnan(X)
    if not missing.any():
        return None
    rows = np.flatnonzero(missing.all(axis=1))
    if rows.size:
        raise ValueError(
            f"{name} has {rows.size} row(s) with every value missing (rows "
            f"{rows[:5].tolist()}{' …' if rows.size > 5 else ''}); drop them."
        )
    cols = np.flatnonzero(missing.all(axis=0))
    if cols.size:
        raise ValueError(
            f"{name} has {cols.size} column(s) with every value missing (columns "
            f"{cols[:5].tolist()}{' …' if cols.size > 5 else ''}); drop them."
        )
    return ~missing


def closed_form(X, n_components: int):
    """The maximum-likelihood PPCA of complete data X (N, p), lecture 002 / Bishop (12.45–12.46).

        μ = x̄,   W = U_r(Λ_r − σ²I)^{1/2},   σ² = (1/(p − r)) Σ_{i>r} λ_i,

    λ_i the eigenvalues of S (divisor N), U_r the top r unit eigenvectors (R = I; the sign of
    each column fixed as PCA's). The eigenpairs come from the smaller of the p × p scatter and the
    N × N Gram matrix (PCA's ``eig`` and ``dual`` routes), and Σ_{i>r} λ_i = tr S − Σ_{i≤r} λ_i,
    so only r eigenpairs are computed. σ² is floored at :func:`noise_floor` (the discarded
    eigenvalues are zero when r ≥ rank X); a column of W whose λ_i does not exceed σ² is zero.

    The mean log-likelihood at the solution comes from the same spectrum: C = WWᵀ + σ²I has
    eigenvalues cᵢ = max(λᵢ, σ²) along the r kept eigenvectors of S and σ² across the rest, so

        (1/N) ln L = −½ {p ln 2π + ln|C| + tr C⁻¹S},
        ln|C| = Σ_{i≤r} ln cᵢ + (p − r) ln σ²,   tr C⁻¹S = Σ_{i≤r} λᵢ/cᵢ + (tr S − Σ_{i≤r} λᵢ)/σ²

    (lecture 002), without another pass over the data.

    Returns
    -------
    W : (p, r), mean : (p,), noise_variance : float, mean_log_likelihood : float
    """
    n, p = X.shape
    mean = X.mean(axis=0)
    Xc = X - mean
    trace = np.einsum("ij,ij->", Xc, Xc) / n  # tr S
    if trace == 0:
        raise ValueError(
            "X has no variance (all its rows are equal); PPCA needs a positive "
            "noise variance."
        )
    route = "dual" if n < p and n_components < n else "eig"
    scatter, U = ROUTES[route](Xc, n_components)
    lam = scatter / n
    sigma2 = max((trace - lam.sum()) / (p - n_components), noise_floor(trace, n, p))
    scale = np.sqrt(np.maximum(lam - sigma2, 0.0))
    U = np.where(scale[:, None] > 0, U, 0.0)  # 0/0 of the dual route: unused
    W = flip_signs(U).T * scale
    c = np.maximum(lam, sigma2)
    log_det = np.log(c).sum() + (p - n_components) * np.log(sigma2)
    fit = (lam / c).sum() + (trace - lam.sum()) / sigma2  # tr C⁻¹S
    return W, mean, sigma2, -0.5 * (p * LOG_2PI + log_det + fit)


class PPCA(TransformerMixin, _LatentBase):
    """Probabilistic PCA: x = Wz + μ + ε with z ~ N(0, I_r), ε ~ N(0, σ²I_p) (lecture 002).

    The marginal is p(x) = N(μ, WWᵀ + σ²I) and the posterior p(z | x) = N(M⁻¹Wᵀ(x − μ)/σ², M⁻¹),
    M = I + WᵀW/σ² (the lecture's M; Bishop's (12.41) M is σ² times it).

    Parameters
    ----------
    n_components : int
        r, with 1 ≤ r < p.
    method : {"closed_form", "em"}
        ``"closed_form"``: Tipping & Bishop's maximum likelihood from the top r eigenpairs of S
        (:func:`closed_form`). ``"em"``: EM from a random W (Bishop §12.2.2), which also
        accepts NaN entries in X as missing values and marginalises them out. Both reach the same
        maximum for complete data (EM up to its `tol`; W up to a rotation, removed by
        :func:`~._latent.canonical_rotation`).
    max_iter : int
        EM iterations at most (``"em"`` only); a ConvergenceWarning if reached.
    tol : float
        EM stops when the mean log-likelihood per sample rises by less than `tol` nats.
    random_state : None, int or numpy.random.Generator
        Draws EM's starting W.

    Attributes
    ----------
    components_ : ndarray of shape (p, r)
        W; orthogonal columns by decreasing norm √(λ_i − σ²), largest-|·| entry positive.
    mean_ : ndarray of shape (p,)
        μ (x̄ for complete data).
    noise_variance_ : float
        σ², at least :func:`~._latent.noise_floor`.
    n_iter_ : int
        EM iterations; 1 for the closed form (one eigendecomposition, as scikit-learn counts a
        direct solver).
    log_likelihood_history_ : list of float
        EM: the mean log-likelihood per sample at the start of each iteration and, last, that of
        the fitted model; closed form: the fitted model's only.
    n_components_, n_features_in_, n_samples_ : int

    See Also
    --------
    PCA : the subspace without the noise model.
    ppca_bic, ppca_evidence : choose the number of components.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.decomposition import PPCA
    >>> rng = np.random.default_rng(0)
    >>> z = rng.standard_normal((200, 1))  # one latent, three observed features
    >>> X = z @ [[2.0, 1.0, 0.5]] + 0.1 * rng.standard_normal((200, 3))
    >>> model = PPCA(n_components=1).fit(X)
    >>> round(float(model.noise_variance_), 4)
    0.0103
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "method": [StrOptions(METHODS)],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_components=2,
        method: str = "closed_form",
        max_iter: int = 1000,
        tol: float = 1e-6,
        random_state=None,
    ):
        self.n_components = n_components
        self.method = method
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def fit(self, X, y=None):
        """Fit W, μ, σ² to X of shape (N, p) (NaN = missing with ``method="em"``)."""
        self._reset()
        method = self.method
        rng = check_random_state(self.random_state)
        X = self._checked_X(X, fitting=True)
        n, p = X.shape
        r = latent_dimension(self.n_components, p)
        if method == "closed_form":
            W, mean, sigma2, log_lik = closed_form(X, r)
            history, n_iter = [float(log_lik)], 1
        else:
            fit = fit_em(
                X,
                r,
                np.zeros(p, dtype=int),
                max_iter=self.max_iter,
                tol=self.tol,
                rng=rng,
                observed=check_missing(X),
            )
            W, mean, sigma2, history, n_iter = (
                fit.W,
                fit.mean,
                fit.psi[0],
                fit.history,
                fit.n_iter,
            )
        self.components_, self.mean_, self.noise_variance_ = W, mean, float(sigma2)
        self.n_iter_, self.log_likelihood_history_ = n_iter, history
        self.n_components_, self.n_samples_ = r, n
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.method == "em"  # NaN = a missing value
        return tags

    def _checked_X(self, X, fitting=False):
        """X for ``fit`` (at least 2 rows) or a prediction method; NaN is a missing value
        with ``method="em"``."""
        allow_nan = self.method == "em"
        X = validate_data(
            self,
            X,
            reset=fitting,
            ensure_min_samples=2 if fitting else 1,
            ensure_all_finite="allow-nan" if allow_nan else True,
        )
        if not allow_nan:
            return X
        if fitting:  # the rows must inform
            check_missing(X, "X")
        elif np.isnan(X).all(axis=1).any():
            raise ValueError("X has a row with every value missing; drop it.")
        return X

    def _posterior(self, X):
        X = self._checked_X(X)
        observed = ~np.isnan(X)
        observed = None if observed.all() else observed
        E = X - self.mean_
        if observed is not None:
            E[~observed] = 0.0
        psi = np.full(self.n_features_in_, self.noise_variance_)
        return posterior(E, self.components_, psi, observed)

    def transform(self, X) -> np.ndarray:
        """E[z | x] = M⁻¹Wᵀ(x − μ)/σ², shape (N, r); NaN entries (``method="em"``) are left out
        (the posterior given the observed coordinates)."""
        return self._posterior(X).mean

    def fit_transform(self, X, y=None) -> np.ndarray:
        """``fit(X)`` then ``transform(X)``."""
        return self.fit(X).transform(X)

    def inverse_transform(self, Z) -> np.ndarray:
        """E[x | z] = Wz + μ, shape (N, p). ``inverse_transform(transform(X))`` fills each
        missing entry with its conditional mean E[x_j | x_O] = μ_j + w_jᵀE[z | x_O]."""
        Z = validate_data(self, Z, reset=False, name="Z", n_features=self.n_components_)
        return Z @ self.components_.T + self.mean_

    def score_samples(self, X) -> np.ndarray:
        """ln N(x_n | μ, WWᵀ + σ²I) for each row, shape (N,) (of the observed entries)."""
        return self._posterior(X).log_likelihood

    def score(self, X, y=None) -> float:
        """Mean log-likelihood per sample, (1/N) Σ_n ln p(x_n) (scikit-learn's ``PCA.score``)."""
        return float(np.mean(self.score_samples(X)))

    def get_covariance(self) -> np.ndarray:
        """The model covariance WWᵀ + σ²I, shape (p, p)."""
        check_is_fitted(self)
        C = self.components_ @ self.components_.T
        C[np.diag_indices_from(C)] += self.noise_variance_
        return C

    def sample(self, n_samples: int = 1, random_state=None) -> np.ndarray:
        """Draws x = Wz + μ + σε, z and ε standard normal, shape (n_samples, p)."""
        check_is_fitted(self)
        n = check_scalar(n_samples, "n_samples", low=1, integer=True)
        rng = check_random_state(random_state)
        z = rng.standard_normal((n, self.n_components_))
        eps = rng.standard_normal((n, self.n_features_in_))
        return z @ self.components_.T + self.mean_ + np.sqrt(self.noise_variance_) * eps


# --- choosing r from the spectrum ----------------------------------------------------------------


def _spectrum(eigenvalues, n_samples):
    """The eigenvalues, decreasing, with rounding below zero set to 0; N checked."""
    lam = check_spectrum(eigenvalues)
    if (
        not isinstance(n_samples, numbers.Integral)
        or isinstance(n_samples, bool)
        or n_samples < 2
    ):
        raise ValueError(f"n_samples must be an integer >= 2; got {n_samples!r}.")
    if lam[0] <= 0:
        raise ValueError("eigenvalues are all zero: the data have no variance.")
    return np.maximum(lam, 0.0)


def _noise_variances(lam, n_samples):
    """σ²(r) = mean of the discarded eigenvalues, r = 1..p − 1; NaN where it is below the
    rounding level of the spectrum, eps·max(N, p)·Σλ (:func:`noise_floor`): there the data lie
    in an r-dimensional subspace, the likelihood is unbounded and no choice of r is defined."""
    p = lam.size
    tail = np.cumsum(lam[::-1])[::-1][1:]  # Σ_{i>r} λ_i, r = 1..p − 1
    sigma2 = tail / (p - np.arange(1, p))
    return np.where(sigma2 > noise_floor(lam.sum(), n_samples, p), sigma2, np.nan)


def ppca_max_log_likelihood(eigenvalues, n_samples):
    """The maximised PPCA log-likelihood for r = 1, …, p − 1 from the spectrum of S (divisor N).

        ln L(r) = −(N/2) {p ln 2π + Σ_{i≤r} ln λ_i + (p − r) ln σ²(r) + p}

    (Tipping & Bishop 1999, eq. (16); the trace term is p at the maximum: lecture 002's
    r + Σ_{i>r} λ_i/σ²). NaN where σ²(r) is rounding noise (see ``_noise_variances``).

    Parameters
    ----------
    eigenvalues : array_like of shape (p,)
        All p eigenvalues of S, in any order.
    n_samples : int
        N.

    Returns
    -------
    ndarray of shape (p − 1,)
    """
    lam = _spectrum(eigenvalues, n_samples)
    p = lam.size
    r = np.arange(1, p)
    sigma2 = _noise_variances(lam, n_samples)
    with np.errstate(divide="ignore"):
        head = np.cumsum(np.log(lam))[:-1]
    return -0.5 * n_samples * (p * LOG_2PI + head + (p - r) * np.log(sigma2) + p)


def ppca_bic(eigenvalues, n_samples):
    """The Bayesian information criterion of PPCA for r = 1, …, p − 1, and its best r.

        BIC(r) = −2 ln L(r) + k(r) ln N,   k(r) = pr − r(r − 1)/2 + 1 + p,

    k(r) counting W up to rotation, σ² and μ (Minka 2000, §4; the constant 1 + p does not change
    the choice). Lower is better.

    Returns
    -------
    bic : ndarray of shape (p − 1,)
        NaN where σ²(r) is rounding noise.
    best : int
        The r with the smallest BIC.
    """
    lam = _spectrum(eigenvalues, n_samples)
    p = lam.size
    r = np.arange(1, p)
    k = p * r - r * (r - 1) / 2 + 1 + p
    bic = -2 * ppca_max_log_likelihood(lam, n_samples) + k * np.log(n_samples)
    return bic, int(np.nanargmin(bic)) + 1


def ppca_evidence(eigenvalues, n_samples):
    """Minka's (2000) Laplace approximation to the PPCA evidence ln p(D | r), r = 1, …, p − 1.

    Minka's eq. (30), in the form of scikit-learn's ``PCA(n_components="mle")``:

        ln p(D | r) ≈ ln p(U) − (N/2) Σ_{i≤r} ln λ_i − (N(p − r)/2) ln v + ((m + r)/2) ln 2π
                      − ½ ln|A_Z| − (r/2) ln N,

    with v = σ²(r), m = pr − r(r + 1)/2, p(U) = 2⁻ʳ Π_{i≤r} Γ((p − i + 1)/2) π^{−(p−i+1)/2}
    the uniform density on the Stiefel manifold, and
    ln|A_Z| = Σ_{i≤r} Σ_{j>i} ln[N (λ_i − λ_j)(λ̂_j⁻¹ − λ̂_i⁻¹)], λ̂_j = λ_j for j ≤ r, v beyond.
    Scaling every λ by c adds −(Np/2) ln c whatever r, so the choice is the same for S (divisor
    N) as for scikit-learn's spectrum (N − 1).

    Returns
    -------
    log_evidence : ndarray of shape (p − 1,)
        NaN where σ²(r) is rounding noise.
    best : int
        The r with the largest evidence.
    """
    lam = _spectrum(eigenvalues, n_samples)
    p, n = lam.size, n_samples
    out = np.full(p - 1, np.nan)
    sigma2 = _noise_variances(lam, n)
    i = np.arange(1, p + 1)
    log_pu = (
        -np.arange(1, p) * np.log(2.0)
        + np.cumsum(gammaln((p - i + 1) / 2.0) - np.log(np.pi) * (p - i + 1) / 2.0)[:-1]
    )
    for r in range(1, p):
        v = sigma2[r - 1]
        if np.isnan(v):
            continue
        hat = np.r_[lam[:r], np.full(p - r, v)]
        log_az = sum(
            np.sum(
                np.log((lam[a] - lam[a + 1 :]) * (1 / hat[a + 1 :] - 1 / hat[a]) * n)
            )
            for a in range(r)
        )
        m = p * r - r * (r + 1) / 2
        out[r - 1] = (
            log_pu[r - 1]
            - n / 2 * np.sum(np.log(lam[:r]))
            - n * (p - r) / 2 * np.log(v)
            + (m + r) / 2 * LOG_2PI
            - log_az / 2
            - r / 2 * np.log(n)
        )
    return out, int(np.nanargmax(out)) + 1
