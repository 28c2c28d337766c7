"""Linear classifiers: generative (shared-covariance Gaussians) and discriminative (logistic,
softmax and probit regression), lecture 003 §4-3 and lecture 004; and Fisher's discriminant
direction (Bishop §4.1.4), which the PCA chapter contrasts with PCA (lecture 002).

Every model here has the prior convention of scikit-learn's ``LogisticRegression(C=1/alpha)``:
``alpha`` is the precision of a zero-mean Gaussian prior on the weights, *not* on the intercept,
so the fitted weights minimise  NLL(w, w₀) + ½·alpha·‖w‖².

The likelihood, gradient and Hessian code (:mod:`mlcourse.utils.objectives`) and the solvers
(:mod:`mlcourse.utils.optimize`) live in the shared core, because the Laplace, RVM and GP
chapters build on them too; they are re-exported here, where the chapter derives them.
"""

from ..exceptions import ConvergenceWarning, SeparationWarning
from ..utils.objectives import (
    check_precision,
    logistic_objective,
    logit_nll_terms,
    probit_nll_terms,
    probit_objective,
    softmax_objective,
    weighted_gram,
)
from ..utils.optimize import OptimizeResult, gradient_descent, newton_minimize, sgd
from ._base import design_matrix
from ._discriminative import LogisticRegression, ProbitRegression, SoftmaxRegression
from ._fisher import fisher_criterion, fisher_direction
from ._generative import COLLINEAR_TOL, GaussianGenerativeClassifier

__all__ = [
    "GaussianGenerativeClassifier",
    "LogisticRegression",
    "SoftmaxRegression",
    "ProbitRegression",
    "fisher_direction",
    "fisher_criterion",
    "SeparationWarning",
    "ConvergenceWarning",
    "design_matrix",
    "logistic_objective",
    "probit_objective",
    "softmax_objective",
    "logit_nll_terms",
    "probit_nll_terms",
    "check_precision",
    "weighted_gram",
    "newton_minimize",
    "gradient_descent",
    "sgd",
    "OptimizeResult",
    "COLLINEAR_TOL",
]
