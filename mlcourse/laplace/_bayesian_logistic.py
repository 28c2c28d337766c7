"""Bayesian logistic regression with the Laplace posterior (lecture 003 §4-5), and the probit
approximation of its predictive distribution (§4-5-2), which the GP classifier shares."""

from __future__ import annotations

from numbers import Real

import numpy as np
from scipy import linalg

from ..base import BaseEstimator, LinearClassifierMixin
from ..kernels import design_matrix
from ..special import sigmoid
from ..utils.objectives import make_objective
from ..utils.validation import (
    Interval,
    check_option,
    check_random_state,
    check_scalar,
    encode_labels,
    validate_data,
)
from ._approximation import fit_laplace

__all__ = ["moderated_activation", "probit_approximation", "BayesianLogisticRegression"]

# The words of predict_proba(method=...), the same in every estimator that has it: "moderated"
# (the activation integrated over the posterior, by the probit approximation; the default) or
# "plugin" (the posterior mode's probabilities).
PROBA_METHODS = ("moderated", "plugin")
# Kept until the chapters move (laplace: method="map"; "probit" is the default anyway); silent,
# so that no stored output changes. Then delete this dict and its one use below.
_OLD_PROBA_WORDS = {"probit": "moderated", "map": "plugin"}


def moderated_activation(mean, var):
    """κ(var) · mean, κ(σ²) = (1 + πσ²/8)^(−1/2): the moderated activation, Bishop (4.154).

    Its sigmoid approximates ∫ σ(a) N(a | mean, var) da (:func:`probit_approximation`); the
    RVM classifier's softmax applies it to each class's activation (the same approximation per
    class, ignoring the covariances between classes).

    Parameters
    ----------
    mean, var : array_like
        Mean and variance (≥ 0) of the Gaussian over the activation a; broadcast together.

    Returns
    -------
    ndarray or float
        κ(var) · mean, elementwise.

    Raises
    ------
    ValueError
        If `mean` or `var` is not numeric or not finite, `var` < 0, or the shapes do not
        broadcast.

    Examples
    --------
    >>> from mlcourse.laplace import moderated_activation
    >>> float(moderated_activation(2.0, 0.0))
    2.0
    >>> round(float(moderated_activation(2.0, 8.0)), 4)  # κ(8) = (1 + π)^(−1/2)
    0.9828
    """
    mean, var = _finite_array(mean, "mean"), _finite_array(var, "var")
    if np.any(var < 0):
        raise ValueError("var must be non-negative (it is a variance).")
    try:
        out = _kappa(var) * mean
    except ValueError:
        raise ValueError(
            f"mean and var must broadcast together; got shapes {mean.shape} and "
            f"{var.shape}."
        ) from None
    return out[()] if out.ndim == 0 else out


def probit_approximation(mean, var):
    """∫ σ(a) N(a | mean, var) da ≈ σ(κ(var) · mean), κ(σ²) = (1 + πσ²/8)^(−1/2).

    Bishop (4.153)–(4.155), lecture 003 §4-5-2: replace σ(a) by the probit Φ(λa) with
    λ² = π/8 (same slope at 0), convolve exactly with the Gaussian, and map back; the sigmoid
    of :func:`moderated_activation`.

    Parameters
    ----------
    mean, var : array_like
        As for :func:`moderated_activation` (which raises on bad ones).

    Returns
    -------
    ndarray or float
        The approximate predictive probability, elementwise.

    Examples
    --------
    A wide posterior over the activation pulls the probability towards ½:

    >>> from mlcourse.laplace import probit_approximation
    >>> round(float(probit_approximation(2.0, 0.0)), 4)
    0.8808
    >>> round(float(probit_approximation(2.0, 8.0)), 4)
    0.7277
    """
    return sigmoid(moderated_activation(mean, var))


def _kappa(var):
    """κ(σ²) = (1 + πσ²/8)^(−1/2), Bishop (4.154)."""
    return 1.0 / np.sqrt(1.0 + np.pi * var / 8.0)


def _finite_array(a, name):
    try:
        a = np.asarray(a, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numeric; got {a!r}.") from None
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return a


class BayesianLogisticRegression(LinearClassifierMixin, BaseEstimator):
    """Bayesian logistic regression with the Laplace posterior (lecture 003 §4-5, Bishop §4.5).

    Prior N(w | 0, α⁻¹I) on the weights (α = `prior_precision`), likelihood
    ∏ σ(a_n)^{t_n}(1 − σ(a_n))^{1−t_n} with a_n = wᵀx_n + w₀. The posterior is approximated by
    q = N(m_N, S_N) at its mode, with S_N⁻¹ = αI′ + Σ_n y_n(1 − y_n)φ_nφ_nᵀ (Bishop (4.143)),
    where I′ is the identity with a 0 for the intercept when ``fit_intercept=True`` (its flat
    prior, below) and I′ = I otherwise.

    **The intercept** w₀ has a flat prior, as in scikit-learn (and
    :class:`mlcourse.linear.LogisticRegression`): the MAP weights equal
    ``sklearn.linear_model.LogisticRegression(C=1/prior_precision)``. Its prior density is taken
    to be 1, so ``log_evidence_`` is ln ∫ p(t | w, w₀) N(w | 0, α⁻¹I) dw dw₀ — comparable across
    α and feature sets, as the evidence is used, but defined only up to an additive constant
    (minus the log of the flat prior's arbitrary scale). For a proper prior on every weight, as in
    Bishop, use
    ``fit_intercept=False`` with a column of ones in X.

    Parameters
    ----------
    prior_precision : float > 0
        α, the prior precision of each weight (prior variance 1/α).
    fit_intercept : bool

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The model gives the probability of ``classes_[1]``.
    posterior_mean_ : ndarray of shape (M,)
        m_N = w_MAP, ordered as the columns of Φ = [1, X] (intercept first) or X.
    posterior_cov_ : ndarray of shape (M, M)
        S_N.
    posterior_precision_ : ndarray of shape (M, M)
        S_N⁻¹ = −∇∇ ln p(w | t) at w_MAP.
    posterior_precision_cholesky_ : ndarray of shape (M, M)
        Lower-triangular L with S_N⁻¹ = LLᵀ (used for σ_a² and to draw w ~ q).
    log_evidence_ : float
        Laplace estimate ln p(t | w_MAP) + ln p(w_MAP) + (M/2) ln 2π − ½ ln|S_N⁻¹|
        (Bishop (4.137)); with ``fit_intercept=True`` only up to an additive constant (see
        above).
    coef_ : ndarray of shape (1, d)
    intercept_ : ndarray of shape (1,)
        The MAP weights (``decision_function`` is the MAP activation μ_a).
    n_iter_ : int
        Newton steps to the mode.

    See Also
    --------
    LogisticRegression : the same model's MAP weights, without the posterior.
    RVMClassifier : a Laplace posterior over kernel weights, one prior precision each.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.datasets import gaussian_classes
    >>> from mlcourse.laplace import BayesianLogisticRegression
    >>> X, y = gaussian_classes(30, [[-1, 0], [1, 0.5]], np.eye(2), random_state=0)
    >>> model = BayesianLogisticRegression(prior_precision=1.0).fit(X, y)
    >>> far = [[6.0, 3.0]]  # far from the data: the moderated value is less sure
    >>> moderated = model.predict_proba(far)[0, 1]
    >>> plugin = model.predict_proba(far, method='plugin')[0, 1]
    >>> round(float(moderated), 3), round(float(plugin), 3)
    (0.997, 1.0)
    >>> round(model.log_evidence_, 2)
    -21.0
    """

    _n_classes = 2
    _parameter_constraints = {
        "prior_precision": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
    }

    def __init__(self, prior_precision=1.0, fit_intercept=True):
        self.prior_precision = prior_precision
        self.fit_intercept = fit_intercept

    def fit(self, X, y):
        """Find w_MAP by Newton's method and the Laplace posterior around it; returns self.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
        y : array_like of shape (n_samples,)
            Exactly two distinct labels.
        """
        self._reset()  # first: a failed fit leaves the estimator unfitted
        alpha = self.prior_precision
        X, y = validate_data(self, X, y)
        classes, idx = encode_labels(y, n_classes=self._n_classes)
        Phi = design_matrix(X, bias=self.fit_intercept)
        t = idx.astype(float)
        A = self._prior_precision(Phi.shape[1], alpha)  # flat on the intercept
        # ln f(w) = ln p(t|w) + ln N(w_pen | 0, α⁻¹I) = −E(w) + ½ d ln(α/2π), d = #penalised
        offset = 0.5 * np.count_nonzero(A) * np.log(alpha / (2 * np.pi))
        post = fit_laplace(
            make_objective(Phi, t, A), np.zeros(Phi.shape[1]), log_f_offset=offset
        )
        self.classes_ = classes
        self.posterior_mean_, self.posterior_cov_ = post.mode, post.covariance
        self.posterior_precision_, self.log_evidence_ = (
            post.precision,
            post.log_normalizer,
        )
        self._set_weights(post.mode[None, :])
        self.n_iter_ = post.n_iter
        self.posterior_precision_cholesky_ = post.cholesky  # L with S_N⁻¹ = LLᵀ
        return self

    def predict_activation(self, X):
        """Mean and variance of a = wᵀφ(x) under q(w) (lecture 003 §4-5-2, Bishop (4.149)–(4.150)).

        Parameters
        ----------
        X : array_like of shape (n, n_features_in_)

        Returns
        -------
        mean : ndarray of shape (n,)
            μ_a = w_MAPᵀφ.
        var : ndarray of shape (n,)
            σ_a² = φᵀS_Nφ = ‖L⁻¹φ‖², with S_N⁻¹ = LLᵀ.
        """
        Phi = design_matrix(
            validate_data(self, X, reset=False), bias=self.fit_intercept
        )
        V = linalg.solve_triangular(
            self.posterior_precision_cholesky_, Phi.T, lower=True
        )
        return Phi @ self.posterior_mean_, np.einsum("ij,ij->j", V, V)

    def predict_proba(self, X, method="moderated", n_samples=10_000, random_state=None):
        """p(C | φ, t) = ∫σ(wᵀφ) q(w) dw = ∫σ(a)N(a | μ_a, σ_a²)da, columns in ``classes_`` order.

        Parameters
        ----------
        X : array_like of shape (n, n_features_in_)
        method : {"moderated", "plugin", "monte_carlo"}, default="moderated"
            "moderated": σ(κ(σ_a²)μ_a), the probit approximation (:func:`moderated_activation`,
            Bishop (4.155)); "plugin": σ(μ_a), the mode's probability, no moderation;
            "monte_carlo": the average of σ(wᵀφ) over `n_samples` draws w ~ q(w) (the same draws
            for every row of X; standard error ≤ 0.5/√n_samples).
        n_samples : int ≥ 1, default=10000
            Monte Carlo draws.
        random_state : None, int or Generator, default=None
            Seeds the Monte Carlo draws.

        Returns
        -------
        ndarray of shape (n, 2)
        """
        if isinstance(method, str):
            method = _OLD_PROBA_WORDS.get(method, method)
        check_option(method, "method", (*PROBA_METHODS, "monte_carlo"))
        check_scalar(n_samples, "n_samples", low=1, integer=True)
        rng = check_random_state(random_state)
        if method == "plugin":
            return super().predict_proba(X)  # σ(μ_a) from coef_ and intercept_ = w_MAP
        if method == "moderated":
            a = moderated_activation(*self.predict_activation(X))
            # σ(−a) = 1 − σ(a): both columns without cancellation
            return np.column_stack([sigmoid(-a), sigmoid(a)])
        Phi = design_matrix(
            validate_data(self, X, reset=False), bias=self.fit_intercept
        )
        Z = rng.standard_normal((len(self.posterior_mean_), n_samples))
        # w = m_N + L⁻ᵀz has covariance L⁻ᵀL⁻¹ = S_N: a triangular solve, no SVD or eigenvectors,
        # so the draws do not depend on a LAPACK's choice of signs
        L = self.posterior_precision_cholesky_
        W = self.posterior_mean_[:, None] + linalg.solve_triangular(L.T, Z)
        rows = max(1, 2**22 // n_samples)  # bound the (rows × n_samples) block
        p = np.concatenate(
            [
                sigmoid(Phi[i : i + rows] @ W).mean(axis=1)
                for i in range(0, len(Phi), rows)
            ]
        )
        return np.column_stack([1.0 - p, p])
