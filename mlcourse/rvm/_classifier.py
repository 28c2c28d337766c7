"""The relevance vector classifier: a kernel design matrix, then either classification loop."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np

from ..base import BaseEstimator, LinearClassifierMixin
from ..exceptions import ConvergenceWarning
from ..kernels import KERNELS, design_matrix, get_kernel
from ..laplace import PROBA_METHODS, moderated_activation
from ..special import sigmoid, softmax
from ..utils.validation import (
    Interval,
    StrOptions,
    check_is_fitted,
    check_option,
    encode_labels,
    validate_data,
)
from ._loops import fit_em_classifier, fit_sequential_classifier

__all__ = ["RVMClassifier"]

_METHODS = ("fast", "em")
_MULTICLASS = ("softmax", "ovr")


class RVMClassifier(LinearClassifierMixin, BaseEstimator):
    """Relevance vector machine for classification (lecture 000; Tipping 2001 §3).

    p(C₁ | x) = σ(wᵀφ(x)) with φ(x) = [k(x, x₁), …, k(x, x_N), 1] and one prior precision per
    weight, p(wᵢ | αᵢ) = N(0, αᵢ⁻¹); α maximises the Laplace approximation of the evidence
    p(t | α), and most αᵢ go to infinity. For K > 2 classes, either a softmax over K activations
    with one α per weight per class (``multiclass="softmax"``), or K binary RVMs, class k
    against the rest (``"ovr"``).

    Parameters
    ----------
    kernel : {"rbf", "linear_spline", "linear"}, Kernel or callable
        The basis functions φₙ(x) = k(x, xₙ), as for :class:`RVMRegressor`.
    gamma : float > 0
        Inverse squared width of the ``"rbf"`` kernel, exp(−γ‖x − x′‖²); Tipping's width r is
        γ = 1/r².
    bias : bool
        Add the constant basis function; it has its own α and can be pruned like the others.
    method : {"fast", "em"}
        ``"fast"``: Tipping & Faul's (2003) sequential algorithm from the empty model
        (:func:`fit_sequential_classifier`); ``"em"``: the lecture's re-estimation αᵢ ← γᵢ/wᵢ*²
        from every basis function in the model (:func:`fit_em_classifier`). They can stop at
        different local maxima of the evidence.
    max_iter : int ≥ 1
        Iterations of the chosen loop (per binary problem for ``"ovr"``).
    tol : float ≥ 0
        Convergence tolerance on the log-precisions ln αᵢ.
    multiclass : {"softmax", "ovr"}
        How K > 2 classes are modelled (ignored for two classes).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        The labels, sorted; with two classes the model gives the probability of ``classes_[1]``.
    kernel_ : Kernel or callable
    relevance_indices_ : ndarray of shape (n_rv,)
        Training rows whose basis function has a weight in the model (for any class).
    relevance_vectors_ : ndarray of shape (n_rv, n_features)
    coef_, alpha_ : ndarrays of shape (K′, n_rv)
        The weights w* of the relevance vectors' basis functions and their precisions α (0 and
        ``inf`` where a class does not use one); K′ = 1 for two classes, else K.
    intercept_, intercept_alpha_ : ndarrays of shape (K′,)
        The bias weights and their α (0 and ``inf`` if pruned or ``bias=False``).
    sigma_ : ndarray of shape (K′, n_rv + 1, n_rv + 1)
        For each activation, the Laplace covariance of its weights (coef_ then intercept_; rows
        and columns of pruned weights are 0): the full Σ for two classes and for "ovr", the
        diagonal blocks of the softmax's Σ.
    log_evidence_ : float
        The Laplace estimate of ln p(t | α) at the optimum (for "ovr", the sum over the K
        binary problems).
    n_iter_ : int
        Iterations taken (summed over the binary problems of "ovr").
    converged_ : bool
    multiclass_ : {"binary", "softmax", "ovr"}
        The model fitted: two classes, or how K > 2 were handled.

    See Also
    --------
    RVMRegressor : the same prior for regression.
    BayesianLogisticRegression : the Laplace posterior of a linear model.
    fit_sequential_classifier, fit_em_classifier : the two loops, on any design matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.datasets import gaussian_classes
    >>> from mlcourse.rvm import RVMClassifier
    >>> X, y = gaussian_classes(30, [[-1, 0], [1, 0.5]], np.eye(2), random_state=0)
    >>> clf = RVMClassifier(gamma=0.5).fit(X, y)
    >>> len(clf.relevance_vectors_), round(float(clf.score(X, y)), 2)
    (3, 0.88)
    >>> far = [[4.0, 2.0]]  # far out: the moderated value is pulled towards 1/2
    >>> moderated = clf.predict_proba(far)[0, 1]
    >>> plugin = clf.predict_proba(far, method='plugin')[0, 1]
    >>> round(float(moderated), 3), round(float(plugin), 3)
    (0.79, 0.818)
    """

    _parameter_constraints = {
        "kernel": [StrOptions(tuple(KERNELS)), callable],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "bias": ["boolean"],
        "method": [StrOptions(_METHODS)],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "multiclass": [StrOptions(_MULTICLASS)],
    }

    def __init__(
        self,
        kernel="rbf",
        gamma=1.0,
        bias=True,
        method="fast",
        max_iter=5000,
        tol=1e-3,
        multiclass="softmax",
    ):
        self.kernel = kernel
        self.gamma = gamma
        self.bias = bias
        self.method = method
        self.max_iter = max_iter
        self.tol = tol
        self.multiclass = multiclass

    def fit(self, X, y):
        """Maximise the Laplace evidence over α, and keep the Laplace posterior of the weights.

        Parameters
        ----------
        X : array_like of shape (n, d)
            Training inputs, also the centres of the basis functions.
        y : array_like of shape (n,)
            Labels: any two or more distinct values.

        Returns
        -------
        self : RVMClassifier
            Fitted; warns :class:`ConvergenceWarning` if a loop stopped at `max_iter`.

        Raises
        ------
        ValueError
            Bad input (NaN, inconsistent lengths, a single class, continuous targets) or bad
            hyperparameters (unknown kernel, method or multiclass, gamma ≤ 0, …).
        """
        self._reset()  # first: a failed fit leaves the estimator unfitted
        X, y = validate_data(self, X, y)
        classes, idx = encode_labels(y)
        kernel = get_kernel(self.kernel, gamma=self.gamma)
        method, multiclass = self.method, self.multiclass
        Phi = design_matrix(X, kernel, X, bias=self.bias, bias_last=True, name="kernel")
        K, n = len(classes), X.shape[0]
        if K == 2:
            targets = [idx.astype(float)]
        elif multiclass == "softmax":
            targets = [np.eye(K)[idx]]
        else:
            targets = [(idx == k).astype(float) for k in range(K)]
        loop = fit_sequential_classifier if method == "fast" else fit_em_classifier
        fits = [loop(Phi, t, max_iter=self.max_iter, tol=self.tol) for t in targets]
        if not all(f.converged for f in fits):
            warnings.warn(
                f"RVMClassifier(method={method!r}) stopped after max_iter="
                f"{self.max_iter} iterations before reaching tol={self.tol}.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self._store(fits, Phi.shape[1], n, X)
        self.kernel_, self.classes_ = kernel, classes
        self.multiclass_ = "binary" if K == 2 else multiclass
        return self

    def _store(self, fits, M, n, X):
        """coef_, alpha_, intercept_, sigma_ … from the loops' results over M basis functions."""
        weights = np.vstack([f.weights.reshape(-1, M) for f in fits])  # (K′, M)
        alpha = np.vstack([f.alpha.reshape(-1, M) for f in fits])
        used = np.isfinite(alpha).any(axis=0)
        rv = np.flatnonzero(used[:n])
        cols = np.r_[rv, n] if M > n else rv  # the bias column last, if any
        sigma = np.zeros((len(weights), len(rv) + 1, len(rv) + 1))
        row = 0
        for f in fits:
            k_here = f.alpha.size // M
            where = np.full((k_here, M), -1)  # position in f.active, per weight
            where.flat[f.active] = np.arange(len(f.active))
            cov = f.cov
            for k in range(k_here):
                pos = where[k, cols]
                ok = pos >= 0
                block = np.zeros((len(cols), len(cols)))
                block[np.ix_(ok, ok)] = cov[np.ix_(pos[ok], pos[ok])]
                sigma[row, : len(cols), : len(cols)] = block
                row += 1
        self.relevance_indices_ = rv
        self.relevance_vectors_ = X[rv]
        self.coef_ = weights[:, rv]
        self.alpha_ = alpha[:, rv]
        self.intercept_ = weights[:, n] if M > n else np.zeros(len(weights))
        self.intercept_alpha_ = alpha[:, n] if M > n else np.full(len(weights), np.inf)
        self.sigma_ = sigma
        self.log_evidence_ = float(sum(f.log_evidence for f in fits))
        self.n_iter_ = int(sum(f.n_iter for f in fits))
        self.converged_ = all(f.converged for f in fits)

    def _features(self, X):
        """Validated X (fitted, same columns as in ``fit``) and Φ = [k(X, relevance vectors), 1],
        shape (n, n_rv + 1)."""
        return design_matrix(
            validate_data(self, X, reset=False),
            self.kernel_,
            self.relevance_vectors_,
            bias=True,
            bias_last=True,
            name="kernel",
        )

    def _mode_activations(self, Phi):
        """μ = ΦWᵀ + w₀ at the posterior mode, shape (n, K′), from Φ = [k(X, relevance
        vectors), 1]."""
        return Phi[:, :-1] @ self.coef_.T + self.intercept_

    def _activations(self, X, Phi=None):
        """The moderated activations κ(σ_k²)μ_k, shape (n, K′), σ_k² = φᵀΣ_kφ: the log-odds of
        ``classes_[1]`` (two classes) or the arguments of the softmax of the default
        :meth:`predict_proba`, so that :class:`LinearClassifierMixin`'s ``decision_function``
        and ``predict`` agree with it. κ < 1 only shrinks μ towards 0: with two classes the
        decision is the mode's."""
        Phi = self._features(X) if Phi is None else Phi
        var = np.maximum(
            np.einsum("ni,kij,nj->nk", Phi, self.sigma_, Phi), 0.0
        )  # φᵀΣφ ≥ 0 up to rounding
        return moderated_activation(self._mode_activations(Phi), var)  # Bishop (4.154)

    def decision_function(self, X):
        """The moderated activations: shape (n,) for two classes, else (n, K).

        For two classes κ(σ_a²)μ_a, the log-odds of ``classes_[1]`` under the default
        (moderated) :meth:`predict_proba`, whose sign is the mode's decision; for K classes the
        K activations κ(σ_k²)μ_k (the arguments of the softmax, or of the one-vs-rest
        sigmoids), whose largest is :meth:`predict`'s class.
        """
        return super().decision_function(X)

    def predict_proba(self, X, method="moderated"):
        """Class probabilities, shape (n, K), columns in ``classes_`` order.

        Parameters
        ----------
        X : array_like of shape (n, n_features)
        method : {"moderated", "plugin"}, default="moderated"
            ``"moderated"``: the activation integrated over the Laplace posterior,
            ∫σ(a)N(a | μ_a, σ_a²)da ≈ σ(κ(σ_a²)μ_a), κ(σ²) = (1 + πσ²/8)^(−½)
            (:func:`mlcourse.laplace.moderated_activation`, Bishop (4.155)), σ_a² = φᵀΣφ; for
            the softmax each activation is scaled by its own κ(σ_k²) before the softmax (the
            same approximation per class, ignoring the covariances between classes). For
            "ovr" the K moderated one-vs-rest probabilities are normalised to sum to 1.
            ``"plugin"``: the mode's probabilities, σ(w*ᵀφ) (softmax(W*φ)), as Tipping (2001)
            uses them.
        """
        check_is_fitted(self)  # NotFittedError before any attribute
        method = check_option(method, "method", PROBA_METHODS)
        Phi = self._features(X)
        if method == "plugin":
            a = self._mode_activations(Phi)
        else:
            a = self._activations(X, Phi)
        if a.shape[1] == 1:  # σ(−a) = 1 − σ(a): both columns without cancellation
            return np.column_stack([sigmoid(-a[:, 0]), sigmoid(a[:, 0])])
        if self.multiclass_ == "softmax":
            return softmax(a, axis=1)
        p = sigmoid(a)  # "ovr": K one-vs-rest probabilities
        return p / p.sum(axis=1, keepdims=True)
