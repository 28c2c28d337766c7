"""The Laplace approximation and Bayesian logistic regression (lecture 003, §4-4 and §4-5).

* :func:`laplace_approximation` — the Gaussian N(z | z₀, A⁻¹) at a mode of any density, with the
  Laplace estimate of its normalising constant;
* :func:`probit_approximation` — ∫σ(a)N(a | μ, σ²)da ≈ σ(κ(σ²)μ), and
  :func:`moderated_activation`, κ(σ²)μ: the moderated predictive, shared with the
  Gaussian-process and RVM classifiers (``predict_proba(method="moderated")``);
* :class:`BayesianLogisticRegression` — the Laplace posterior of logistic regression, its log
  evidence and its (moderated) predictive distribution.

The likelihood and the Newton solver are the linear chapter's, from the shared core
(:mod:`mlcourse.utils.objectives`, :mod:`mlcourse.utils.optimize`); :func:`fit_laplace` (the
Laplace approximation of such an objective at its mode) is public for the RVM classifier.
"""

from ._approximation import LaplaceResult, fit_laplace, laplace_approximation
from ._bayesian_logistic import (
    PROBA_METHODS,
    BayesianLogisticRegression,
    moderated_activation,
    probit_approximation,
)

__all__ = [
    "probit_approximation",
    "moderated_activation",
    "PROBA_METHODS",
    "laplace_approximation",
    "LaplaceResult",
    "fit_laplace",
    "BayesianLogisticRegression",
]
