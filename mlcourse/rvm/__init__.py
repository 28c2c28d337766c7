"""Relevance vector machines for regression (lecture 001) and classification (lecture 000; Tipping
2001; Bishop §7.2).

y(x) = Σₙ wₙ k(x, xₙ) + b with one prior precision αᵢ per weight, p(wᵢ | αᵢ) = N(wᵢ | 0, αᵢ⁻¹),
Gaussian noise of precision β, and α, β chosen by maximising the evidence p(t | α, β). Most αᵢ go
to infinity; the training inputs whose weights survive are the relevance vectors.

The pieces are public so that the chapters can check each step, and the RVM classifier can reuse
them: :func:`posterior`, :func:`log_evidence` (and :func:`log_evidence_direct`, the O(N³) route),
:func:`evidence_gradient`, :func:`reestimate` (the lecture's update), :func:`sparsity_quality`,
:func:`alpha_marginal` and :func:`optimal_alpha` (the fast algorithm's building blocks), and the
two loops :func:`fit_em` and :func:`fit_sequential` over any design matrix.

Classification (:class:`RVMClassifier`) replaces the Gaussian likelihood by a Bernoulli (or
softmax) one: :func:`laplace_posterior` gives the Laplace approximation at fixed α and
:func:`working_problem` the equivalent Gaussian regression problem at the mode, so that the
same re-estimation and sparsity factors serve; :func:`fit_em_classifier` and
:func:`fit_sequential_classifier` are the two loops.
"""

from ..exceptions import ConvergenceWarning
from ._classification_loops import (
    ClassifierFit,
    fit_em_classifier,
    fit_sequential_classifier,
)
from ._classifier import RVMClassifier
from ._em import fit_em
from ._fast import (
    ALIGNMENT_GAIN,
    ALIGNMENT_MAX,
    ALIGNMENT_Z,
    BETA_UPDATE_START,
    HOLD_STEP,
    alpha_marginal,
    fit_sequential,
    optimal_alpha,
    sparsity_quality,
)
from ._laplace_step import (
    NEWTON_TOL,
    LaplacePosterior,
    laplace_posterior,
    working_problem,
)
from ._loop_state import EvidenceFit, SBLFit
from ._reestimate import NOISE_FLOOR, evidence_gradient, reestimate
from ._regressor import RVMRegressor
from ._sparse_bayes import (
    PRUNE_ALPHA,
    RCOND_MIN,
    Posterior,
    log_evidence,
    log_evidence_direct,
    posterior,
)

__all__ = [
    "RVMRegressor",
    "RVMClassifier",
    "laplace_posterior",
    "working_problem",
    "LaplacePosterior",
    "fit_em_classifier",
    "fit_sequential_classifier",
    "ClassifierFit",
    "NEWTON_TOL",
    "ConvergenceWarning",
    "posterior",
    "log_evidence",
    "log_evidence_direct",
    "evidence_gradient",
    "reestimate",
    "sparsity_quality",
    "alpha_marginal",
    "optimal_alpha",
    "fit_em",
    "fit_sequential",
    "Posterior",
    "SBLFit",
    "EvidenceFit",
    "PRUNE_ALPHA",
    "RCOND_MIN",
    "NOISE_FLOOR",
    "ALIGNMENT_MAX",
    "ALIGNMENT_Z",
    "ALIGNMENT_GAIN",
    "BETA_UPDATE_START",
    "HOLD_STEP",
]
