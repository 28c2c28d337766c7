"""Relevance vector machines for regression (lecture 001) and classification (lecture 000; Tipping
2001; Bishop §7.2).

y(x) = Σₙ wₙ k(x, xₙ) + b with one prior precision αᵢ per weight, p(wᵢ | αᵢ) = N(wᵢ | 0, αᵢ⁻¹),
Gaussian noise of precision β, and α, β chosen by maximising the evidence p(t | α, β). Most αᵢ go
to infinity; the training inputs whose weights survive are the relevance vectors.

========================================  ==========================================================
name                                      what
========================================  ==========================================================
:class:`RVMRegressor`                     the relevance vector regressor (either loop below)
:class:`RVMClassifier`                    the relevance vector classifier (sigmoid or softmax)
:func:`posterior`, :class:`Posterior`     N(w | m, Σ) at fixed α, β (Bishop 7.82–7.83)
:func:`log_evidence`,                     ln p(t | α, β) in the decomposed form (7.85), and by the
:func:`log_evidence_direct`               O(N³) route, for checks
:func:`evidence_gradient`,                its derivatives; one pass of αᵢ ← γᵢ/mᵢ²,
:func:`reestimate`                        β⁻¹ ← ‖t − Φm‖²/(N − Σγᵢ) (7.87–7.89)
:func:`sparsity_quality`,                 sᵢ, qᵢ, ℓ(αᵢ) and its maximiser (7.97–7.103): the
:func:`alpha_marginal`,                   fast algorithm's building blocks
:func:`optimal_alpha`
:func:`fit_em`, :func:`fit_sequential`    the re-estimation loop and Tipping & Faul's sequential
                                          loop over any design matrix; :class:`SBLFit`
:func:`laplace_posterior`,                the classifier's Laplace approximation at fixed α, and
:func:`working_problem`,                  the equivalent Gaussian regression problem at its mode
:class:`LaplacePosterior`
:func:`fit_em_classifier`,                both loops for classification; :class:`ClassifierFit`
:func:`fit_sequential_classifier`
:data:`PRUNE_ALPHA`, :data:`NOISE_FLOOR`  when a weight is pruned (α > 1e12 on unit-norm
                                          columns), and the least noise variance, 1e-6·var(t)
========================================  ==========================================================

The modules, in the order they build on each other: ``_evidence`` (the regression evidence:
posterior, evidence, re-estimation, sparsity and quality), ``_laplace_step`` (the classifier's
Laplace approximation, which reduces it to the regression evidence), ``_span`` (the fast loop's
QR factorisation of the model's span), ``_loops`` (the four loops, side by side), then the two
estimators.
"""

from ..exceptions import ConvergenceWarning
from ._classifier import RVMClassifier
from ._evidence import (
    NOISE_FLOOR,
    PRUNE_ALPHA,
    EvidenceFit,
    Posterior,
    SBLFit,
    alpha_marginal,
    evidence_gradient,
    log_evidence,
    log_evidence_direct,
    optimal_alpha,
    posterior,
    reestimate,
    sparsity_quality,
)
from ._laplace_step import LaplacePosterior, laplace_posterior, working_problem
from ._loops import (
    ClassifierFit,
    fit_em,
    fit_em_classifier,
    fit_sequential,
    fit_sequential_classifier,
)
from ._regressor import RVMRegressor

__all__ = [
    "RVMRegressor",
    "RVMClassifier",
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
    "laplace_posterior",
    "working_problem",
    "fit_em_classifier",
    "fit_sequential_classifier",
    "Posterior",
    "LaplacePosterior",
    "EvidenceFit",
    "SBLFit",
    "ClassifierFit",
    "PRUNE_ALPHA",
    "NOISE_FLOOR",
    "ConvergenceWarning",
]
