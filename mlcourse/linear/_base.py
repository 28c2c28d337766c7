"""What the discriminative linear classifiers share: the penalised-likelihood fit
(:class:`_Regression`: hyperparameter constraints, Φ, the prior, separation and convergence
warnings)
and the linear model's design matrix. Prediction from the activations a = Xwᵀ + w₀ is
:class:`mlcourse.base.LinearClassifierMixin`, which the generative classifier and Bayesian
logistic regression share.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np

from .. import kernels
from ..base import BaseEstimator, LinearClassifierMixin
from ..exceptions import ConvergenceWarning, SeparationWarning
from ..utils.objectives import make_objective
from ..utils.optimize import NEWTON_TOL, newton_minimize
from ..utils.validation import Interval, encode_labels, validate_data

__all__ = ["design_matrix"]


_DEFAULTS = {
    "irls": (100, NEWTON_TOL),
    "gd": (10_000, 1e-6),
    "sgd": (200, 1e-3),
}  # max_iter, tol


def design_matrix(X, fit_intercept: bool = True) -> np.ndarray:
    """Φ = [1, X] (a leading column of ones for the intercept w₀, Bishop's φ₀ = 1) or X.

    :func:`mlcourse.kernels.design_matrix` with the inputs themselves as features.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Finite inputs.
    fit_intercept : bool
        Prepend the column of ones.

    Returns
    -------
    ndarray of shape (n_samples, n_features + 1) or (n_samples, n_features)
    """
    return kernels.design_matrix(X, bias=fit_intercept)


class _Regression(LinearClassifierMixin, BaseEstimator):
    """Hyperparameter constraints, Φ, the prior and the fit loop shared by the three models."""

    _n_classes = 2
    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "max_iter": [None, Interval(Integral, 1, None, closed="left")],
        "tol": [None, Interval(Real, 0, None, closed="neither")],
    }

    def _stopping(self, solver="irls"):
        """(max_iter, tol): the user's, or else the solver's defaults."""
        max_iter, tol = _DEFAULTS[solver]
        return self.max_iter or max_iter, self.tol or tol

    def fit(self, X, y):
        """Fit by maximising the (penalised) likelihood; returns self.

        Warns :class:`SeparationWarning` if ``alpha == 0`` and the classes are linearly
        separable (the maximum-likelihood weights do not exist: the fit stops at the first
        weights that separate the training data), and :class:`ConvergenceWarning` if the
        solver reaches ``max_iter`` first. The coefficients are finite in every case: a
        ``learning_rate`` so large that gradient descent diverges raises ``ValueError``.
        Quasi-complete separation (e.g. one class of three separable from the others, with no
        hyperplane separating all of them) is not detected as such: some weights then grow
        until ``max_iter``, and the ConvergenceWarning is the sign of it. The first-order
        solvers (``"gd"``, ``"sgd"``) may not reach separating weights within ``max_iter`` when
        the margin is small, so on separable data they can also end with a ConvergenceWarning
        instead of a SeparationWarning.
        """
        self._reset()  # first: a failed fit leaves the estimator unfitted
        X, y = validate_data(self, X, y)
        classes, idx = encode_labels(y, n_classes=self._n_classes)
        Phi = design_matrix(X, self.fit_intercept)
        stop = None if self.alpha > 0 else (lambda w: self._separates(Phi, w, idx))
        res = self._solve(Phi, idx, stop)
        if res.stopped:
            warnings.warn(
                f"The training data are linearly separable: the maximum-likelihood weights are "
                f"infinite (the likelihood grows without bound along the separating direction). "
                f"{type(self).__name__} stopped at the first weights that separate the data "
                f"(iteration {res.n_iter}); set alpha > 0 (a Gaussian prior) for a finite optimum.",
                SeparationWarning,
                stacklevel=2,
            )
        elif not res.converged:
            warnings.warn(
                f"{type(self).__name__} did not converge in {res.n_iter} iterations; "
                "increase max_iter or tol.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.classes_ = classes
        self._set_weights(res.x.reshape(-1, Phi.shape[1]))
        self.n_iter_, self.loss_curve_ = res.n_iter, np.array(res.history)
        return self

    @staticmethod
    def _separates(Phi, w, idx):
        """Every training point strictly on its own side: then E(c·w) → 0 as c → ∞."""
        s = 2.0 * idx - 1.0
        return bool(np.all(s * (Phi @ w) > 0))

    def _newton(self, link, Phi, t, stop):
        max_iter, tol = self._stopping()
        A = self._prior_precision(Phi.shape[1], self.alpha)
        return newton_minimize(
            make_objective(Phi, t, A, link=link),
            np.zeros(Phi.shape[1]),
            tol=tol,
            max_iter=max_iter,
            stop=stop,
        )
