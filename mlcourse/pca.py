"""Principal component analysis and Fisher's direction: the PCA chapter's import path.

The code lives in :mod:`mlcourse.decomposition` (beside the latent-variable models of the next
chapter); this module re-exports the chapter's names, so ``from mlcourse.pca import PCA`` keeps
working.
"""

from .decomposition import PCA, profile_likelihood
from .linear import fisher_criterion, fisher_direction

__all__ = ["PCA", "profile_likelihood", "fisher_direction", "fisher_criterion"]
