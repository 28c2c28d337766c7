"""Clustering: k-means and the Gaussian mixture fitted by EM (Bishop §9.1–9.2), from scratch.

=====================================  ==========================================================
name                                   what
=====================================  ==========================================================
:func:`kmeans`, :class:`KMeansResult`  Lloyd's iterations from k-means++ seeding (Bishop §9.1)
:func:`kmeans_plusplus`                the seeding: each centre drawn ∝ its squared distance
:func:`cluster_widths`                 the RMS distance of each cluster's points from its centre
:func:`gaussian_mixture`,              EM for a Gaussian mixture (Bishop §9.2.2), started from
:class:`MixtureResult`                 k-means, with a covariance floor
:func:`component_log_density`          ln N(x | μ_j, Σ_j) of every component, through Cholesky
:data:`COVARIANCE_FLOOR`               the floor on Σ_j, relative to the inputs' variance
=====================================  ==========================================================

The RBF chapter uses both (:mod:`mlcourse.rbf`): k-means places a generalised RBF network's
centres and the mixture is the normalised RBF classifier's.
"""

from ._kmeans import KMeansResult, cluster_widths, kmeans, kmeans_plusplus
from ._mixture import (
    COVARIANCE_FLOOR,
    MixtureResult,
    component_log_density,
    gaussian_mixture,
)

__all__ = [
    "kmeans",
    "kmeans_plusplus",
    "cluster_widths",
    "KMeansResult",
    "gaussian_mixture",
    "component_log_density",
    "MixtureResult",
    "COVARIANCE_FLOOR",
]
