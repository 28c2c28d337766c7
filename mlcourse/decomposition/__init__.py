"""Linear dimensionality reduction: principal component analysis (lectures 000, 002, 004) and
Fisher's discriminant direction; probabilistic and kernel PCA, PLS and CCA are to come.

* :class:`PCA` — maximum-variance / minimum-error projection, by three routes (``"eig"``,
  ``"svd"``, ``"dual"``; see ``_pca_routes``), with optional whitening.
* :func:`profile_likelihood` — Zhu & Ghodsi's (2006) choice of the number of components.
* :func:`fisher_direction`, :func:`fisher_criterion` — the two-class Fisher discriminant
  (Bishop §4.1.4), to contrast PCA's unsupervised direction with a supervised one (lecture 002).

Conventions. ``explained_variance_`` uses the divisor N − 1, like scikit-learn; Bishop's S and the
lectures' λ_i use 1/N, so λ_i = (N − 1)/N · ``explained_variance_[i]`` (same eigenvectors). Each
component's sign is fixed so that its largest-|·| entry is positive (scikit-learn's convention).
"""

from ._fisher import fisher_criterion, fisher_direction
from ._pca import PCA, profile_likelihood

__all__ = ["PCA", "profile_likelihood", "fisher_direction", "fisher_criterion"]
