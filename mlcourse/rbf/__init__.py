"""Radial basis function networks (lecture 002): regularised least squares and its kernel form,
regularisation theory, generalised RBF networks, Nadaraya–Watson, normalised RBF classifiers.

=====================================  ==========================================================
name                                   what
=====================================  ==========================================================
:class:`RBFNetwork`                    y = Wφ(x): k-means centres, cluster widths, ridge weights;
                                       or trained by gradient (joint, or alternating)
:class:`KernelRidge`                   y(x) = g(x)ᵀ(G + λI)⁻¹T, as scikit-learn's ``KernelRidge``
:class:`NadarayaWatson`                E[z | x] of a Gaussian Parzen estimate of p(x, z)
:class:`NormalizedRBFClassifier`       p(z = k | x) = Σ_j P(j | x) P(z = k | j) over a Gaussian
                                       mixture fitted by EM
:func:`gaussian_units`,                Φ of the Gaussian units; Φ̃ = [1, Φ]
:func:`rbf_design`
:func:`ridge_weights`                  Wᵀ by the primal (ΦᵀΦ + λI) or dual (ΦΦᵀ + λI) system
:func:`network_objective`              J and its gradients in W, μ_j, σ_j (the lecture's (1)–(3))
:func:`nadaraya_watson_weights`        the normalised kernel weights k(x, x_n)
:func:`gaussian_series_coefficients`,  regularisation theory: a_m = σ^{2m}/(m! 2^m), the symbol
:func:`operator_symbol`,               Σ a_m ω^{2m}, and the Green's function by FFT or
:func:`green_function_fft`,            quadrature
:func:`green_function_quad`
=====================================  ==========================================================

Notation: targets T (the lecture's Z), N × C; Φ̃ = [1, Φ] is N × (M+1); W is C × (M+1) with the
biases w_k0 in column 0; λ is ``alpha``.

k-means and the Gaussian mixture are in :mod:`mlcourse.cluster`.
"""

# Kept until the chapters import them from mlcourse.cluster (rbf.kmeans, rbf.cluster_widths,
# rbf.gaussian_mixture): the old path, silent. Then delete these lines.
from ..cluster import (  # noqa: F401
    COVARIANCE_FLOOR,
    KMeansResult,
    MixtureResult,
    cluster_widths,
    component_log_density,
    gaussian_mixture,
    kmeans,
    kmeans_plusplus,
)
from ._kernel_ridge import KernelRidge
from ._nadaraya_watson import NadarayaWatson, nadaraya_watson_weights
from ._network import (
    ALTERNATING_RTOL,
    INNER_STEPS,
    RBFNetwork,
    gaussian_units,
    network_objective,
    rbf_design,
    ridge_weights,
)
from ._normalized import NormalizedRBFClassifier
from ._regularization import (
    gaussian_series_coefficients,
    green_function_fft,
    green_function_quad,
    operator_symbol,
)

__all__ = [
    "RBFNetwork",
    "KernelRidge",
    "NadarayaWatson",
    "NormalizedRBFClassifier",
    "gaussian_units",
    "rbf_design",
    "ridge_weights",
    "network_objective",
    "ALTERNATING_RTOL",
    "INNER_STEPS",
    "nadaraya_watson_weights",
    "gaussian_series_coefficients",
    "operator_symbol",
    "green_function_fft",
    "green_function_quad",
]
