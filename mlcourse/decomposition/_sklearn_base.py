"""The base class of the latent-variable estimators (private): :class:`mlcourse.base.BaseEstimator`
(scikit-learn's plumbing) with the tags of PPCA, supervised PCA, PLS, CCA and kernel
PCA. Their input is validated by :func:`mlcourse.utils.validation.validate_data`, their
hyperparameters by their ``_parameter_constraints``.
"""

from __future__ import annotations

from ..base import BaseEstimator

__all__ = ["_LatentBase"]


class _LatentBase(BaseEstimator):
    """The tags PPCA, supervised PCA, PLS, CCA and kernel PCA share."""

    _two_blocks = False  # PLS and CCA: y is a required block of one or more columns

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self._two_blocks:
            tags.target_tags.multi_output = True
            tags.target_tags.required = True
        return tags
