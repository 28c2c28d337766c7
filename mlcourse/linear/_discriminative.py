"""The discriminative linear classifiers: logistic, probit and softmax regression, fitted by
maximising a penalised likelihood (lecture 003 §4-3, lecture 004)."""

from __future__ import annotations

from numbers import Real

import numpy as np
from scipy import linalg

from ..special import probit, sigmoid
from ..utils.objectives import make_objective
from ..utils.optimize import gradient_descent, newton_minimize, restrict, sgd
from ..utils.validation import Interval, StrOptions
from ._base import _DEFAULTS, _Regression

__all__ = ["LogisticRegression", "SoftmaxRegression", "ProbitRegression"]


class LogisticRegression(_Regression):
    """Two-class logistic regression, p(C₁ | x) = σ(wᵀx + w₀) (lecture 003 §4-3-2, 004).

    Parameters
    ----------
    solver : {"irls", "gd", "sgd"}
        Newton–Raphson / IRLS (lecture 003 §4-3-3); batch gradient descent w ← w − η∇E;
        stochastic gradient descent w ← w − η_e∇E_n, one sample at a time, η_e = η/(1 + e) in
        epoch e (lecture 004).
    alpha : float ≥ 0
        Precision of the Gaussian prior N(w | 0, alpha⁻¹I) on the weights (not the intercept);
        the optimum equals scikit-learn's ``LogisticRegression(C=1/alpha)`` (``C=np.inf`` for 0).
    fit_intercept : bool
    max_iter : int or None
        Newton steps (default 100), gradient steps (10 000) or SGD epochs (200).
    tol : float or None
        irls: relative size of the Newton step (default 1e-8); gd and sgd: max|∇E|/N, the
        largest entry of the mean gradient (defaults 1e-6 and 1e-3), tested after each step
        (gd) or epoch (sgd).

        *How close that is to the optimum.* E/N is μ-strongly convex near the optimum w*
        (μ the smallest eigenvalue of ∇∇E/N there), so a mean gradient of at most tol in every
        entry puts the weights within ‖w − w*‖₂ ≤ √M·tol/μ (M the number of weights). irls
        stops at rounding level; gd at its default is close on well-conditioned data; **sgd at
        its defaults stops about 1e-2 from w* on standardised data** (√M·1e-3/μ with μ ≈ 0.2),
        and farther on ill-conditioned data (small μ). It is the lecture's algorithm, not an
        accurate solver: for weights that agree with irls and scikit-learn to 1e-6, use irls,
        or pass a smaller tol with a larger max_iter. Either first-order solver warns
        (ConvergenceWarning) when it reaches max_iter before tol.
    learning_rate : float or None
        η. Default: 1/L with L = ‖Φ‖₂²/4 + alpha, a Lipschitz constant of ∇E, so that every
        gradient step decreases E (gd); 1/max_n(‖φ_n‖²/4 + alpha/N) for sgd.
    random_state : None, int or Generator
        Order in which sgd visits the samples.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        Any two labels; the model gives the probability of ``classes_[1]``.
    coef_ : ndarray of shape (1, d)
    intercept_ : ndarray of shape (1,)
    n_iter_ : int
    loss_curve_ : ndarray
        E(w) = NLL + ½·alpha·‖w‖² at the start and after each iteration (epoch for sgd).

    See Also
    --------
    ProbitRegression : the probit link instead of the logistic sigmoid.
    SoftmaxRegression : K classes.
    BayesianLogisticRegression : the Laplace posterior of the same model.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.datasets import gaussian_classes
    >>> from mlcourse.linear import LogisticRegression
    >>> X, y = gaussian_classes(30, [[-1, 0], [1, 0.5]], np.eye(2), random_state=0)
    >>> model = LogisticRegression(alpha=1.0).fit(X, y)
    >>> model.coef_.round(2).tolist(), model.intercept_.round(2).tolist()
    ([[1.91, -0.12]], [0.03])
    >>> model.predict_proba([[1.0, 0.5]]).round(2).tolist()
    [[0.13, 0.87]]
    """

    def __init__(
        self,
        solver="irls",
        alpha=0.0,
        fit_intercept=True,
        max_iter=None,
        tol=None,
        learning_rate=None,
        random_state=None,
    ):
        self.solver = solver
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.learning_rate = learning_rate
        self.random_state = random_state

    _parameter_constraints = {
        **_Regression._parameter_constraints,
        "solver": [StrOptions(tuple(_DEFAULTS))],
        "learning_rate": [None, Interval(Real, 0, None, closed="neither")],
        "random_state": [
            "random_state"
        ],  # checked whatever the solver, as scikit-learn
    }

    def _solve(self, Phi, idx, stop):
        t = idx.astype(float)
        if self.solver == "irls":
            return self._newton("logit", Phi, t, stop)
        N, M = Phi.shape
        A = self._prior_precision(M, self.alpha)
        max_iter, tol = self._stopping(self.solver)
        tol *= N  # tol bounds the mean gradient, max|∇E|/N
        objective = make_objective(Phi, t, A)

        def fun(w):
            return objective(w, hessian=False)

        if self.solver == "gd":
            eta = self.learning_rate or 1.0 / (
                linalg.norm(Phi, 2) ** 2 / 4 + self.alpha
            )
            return gradient_descent(
                fun,
                np.zeros(M),
                learning_rate=eta,
                tol=tol,
                max_iter=max_iter,
                stop=stop,
            )
        A_n = A / N  # the prior, shared out over the N samples

        def step(w, n, eta):  # w −= η ∇E_n = η{(y_n − t_n)φ_n + A(w)/N}
            phi = Phi[n]
            w -= eta * ((sigmoid(float(phi @ w)) - t[n]) * phi + A_n * w)

        # η₀ ≤ 1/L_n for every n, L_n = ‖φ_n‖²/4 + alpha/N the curvature bound of E_n: no single
        # step overshoots the minimum of the sample's own loss
        eta = self.learning_rate or 1.0 / np.max(
            np.sum(Phi**2, axis=1) / 4 + self.alpha / N
        )
        return sgd(
            step,
            fun,
            np.zeros(M),
            N,
            learning_rate=eta,
            tol=tol,
            max_iter=max_iter,
            random_state=self.random_state,
            stop=stop,
        )


class ProbitRegression(_Regression):
    """Two-class probit regression, p(C₁ | x) = Φ(wᵀx + w₀), fitted by Newton's method
    (lecture 003 §4-3-5 / Bishop §4.3.5). The attributes are as for
    :class:`LogisticRegression` with ``solver="irls"``.

    Parameters
    ----------
    alpha : float ≥ 0
        Precision of the Gaussian prior on the weights (not the intercepts), as for
        :class:`LogisticRegression`.
    fit_intercept : bool
    max_iter : int or None
        Newton steps (default 100).
    tol : float or None
        The relative size of the Newton step at which to stop (default 1e-8, ``NEWTON_TOL``).

    See Also
    --------
    LogisticRegression : the logistic sigmoid instead of the probit.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.datasets import gaussian_classes
    >>> from mlcourse.linear import ProbitRegression
    >>> X, y = gaussian_classes(30, [[-1, 0], [1, 0.5]], np.eye(2), random_state=0)
    >>> ProbitRegression(alpha=1.0).fit(X, y).coef_.round(2).tolist()
    [[1.27, -0.1]]
    """

    _link = staticmethod(probit)

    def __init__(self, alpha=0.0, fit_intercept=True, max_iter=None, tol=None):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def _solve(self, Phi, idx, stop):
        return self._newton("probit", Phi, idx.astype(float), stop)


class SoftmaxRegression(_Regression):
    """Multiclass logistic regression with one weight vector per class (K vectors, as in lecture
    003 §4-3-4 and 004): p(C_k | x) = exp(a_k)/Σ_j exp(a_j), a_k = w_kᵀx + w_k0; Newton's method.

    The likelihood is unchanged by adding one vector to every w_k, so the K vectors are
    identifiable only through the prior: the penalised weights sum to zero over the classes at
    the optimum, and the unpenalised ones (intercepts; everything when alpha = 0) are centred to
    sum to zero. Probabilities are unaffected.

    Parameters
    ----------
    alpha : float ≥ 0
        Precision of the Gaussian prior on the weights (not the intercepts), as for
        :class:`LogisticRegression`.
    fit_intercept : bool
    max_iter : int or None
        Newton steps (default 100).
    tol : float or None
        The relative size of the Newton step at which to stop (default 1e-8, ``NEWTON_TOL``).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    coef_ : ndarray of shape (K, d)
    intercept_ : ndarray of shape (K,)

    See Also
    --------
    LogisticRegression : two classes.
    RVMClassifier : a sparse kernel softmax.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from mlcourse.linear import SoftmaxRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> model = SoftmaxRegression(alpha=1.0).fit(X, y)
    >>> model.coef_.shape, round(float(model.score(X, y)), 2)
    ((3, 4), 0.97)
    """

    _n_classes = None

    def __init__(self, alpha=0.0, fit_intercept=True, max_iter=None, tol=None):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    @staticmethod
    def _separates(Phi, w, idx):
        act = Phi @ w.reshape(-1, Phi.shape[1]).T
        own = act[np.arange(len(idx)), idx]
        act[np.arange(len(idx)), idx] = -np.inf
        return bool(np.all(own > act.max(axis=1)))

    def _solve(self, Phi, idx, stop):
        M, K = Phi.shape[1], int(idx.max()) + 1
        T = np.eye(K)[idx]
        A = self._prior_precision(M, self.alpha)
        # fix the last class's unpenalised weights at 0 (removes the shift redundancy) ...
        free = np.ones((K, M), dtype=bool)
        free[-1, A == 0] = False
        free = free.ravel()
        fun = restrict(make_objective(Phi, T, A, link="softmax"), free, np.zeros(K * M))
        max_iter, tol = self._stopping()
        full = np.zeros(K * M)

        def embed(v):
            full[free] = v
            return full

        res = newton_minimize(
            fun,
            np.zeros(free.sum()),
            tol=tol,
            max_iter=max_iter,
            stop=None if stop is None else (lambda v: stop(embed(v))),
        )
        # ... then centre them over the classes, which changes no probability
        W = embed(res.x).reshape(K, M).copy()
        W[:, A == 0] -= W[:, A == 0].mean(axis=0)
        res.x = W.ravel()
        return res
