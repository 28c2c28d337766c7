"""Gaussian processes (lecture 002): regression, classification, hyperparameter learning.

=====================================  ==========================================================
name                                   what
=====================================  ==========================================================
:class:`GaussianProcessRegressor`      exact GP regression, GPML Algorithm 2.1; hyperparameters by
                                       maximising the log marginal likelihood (GPML §5.4.1)
:class:`GaussianProcessClassifier`     binary Laplace classifier, GPML Algorithms 3.1/3.2/5.1
:class:`KalmanGPRegressor`             the finite-basis GP as a Kalman filter over the weights
=====================================  ==========================================================

Notation: targets z (Bishop's t), latent f = y(x), noise variance σ_n² (the lecture's σ_v²),
K the Gram matrix of the kernel on the training inputs, C_N = K + σ_n² I.
"""

from ._classification import GaussianProcessClassifier, laplace_mode
from ._kalman import KalmanGPRegressor, affine_basis
from ._regression import GaussianProcessRegressor

__all__ = [
    "GaussianProcessRegressor",
    "GaussianProcessClassifier",
    "KalmanGPRegressor",
    "laplace_mode",
    "affine_basis",
]
