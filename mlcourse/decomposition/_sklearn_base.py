"""The base class of the latent-variable estimators (private): :class:`mlcourse.base.BaseEstimator`
(scikit-learn's plumbing, issue 14) with the input validation PPCA, supervised PCA, PLS, CCA and
kernel PCA share.

Input arrays are validated by scikit-learn's ``validate_data`` (which also records and checks
``n_features_in_``); hyperparameters by :mod:`mlcourse.utils.validation`.
"""

from __future__ import annotations

import numpy as np

from ..base import BaseEstimator
from ..utils.validation import validate_data

__all__ = ["_LatentBase"]


class _LatentBase(BaseEstimator):
    """Validation shared by PPCA, supervised PCA, PLS, CCA and kernel PCA."""

    _two_blocks = False  # PLS and CCA: y is a required block of one or more columns

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self._two_blocks:
            tags.target_tags.multi_output = True
            tags.target_tags.required = True
        return tags

    def _validate_X(
        self, X, *, fitting: bool, min_samples: int = 1, allow_nan: bool = False
    ):
        """X as a float (N, p) array; when not `fitting`, the estimator is fitted and X has
        ``n_features_in_`` columns. NaN is accepted only with `allow_nan` (missing values)."""
        if not fitting:
            self._check_fitted()
        return validate_data(
            self,
            X,
            reset=fitting,
            dtype=np.float64,
            ensure_min_samples=min_samples,
            ensure_all_finite="allow-nan" if allow_nan else True,
        )

    def _validate_Xy(self, X, y, *, multi_output: bool, min_samples: int = 2):
        """Training inputs X (N, p) and targets y, (N,) or, with `multi_output`, (N, q) (returned
        as (N, q) with its original number of dimensions): finite, of the same length."""
        X, y = validate_data(
            self,
            X,
            y,
            reset=True,
            dtype=np.float64,
            y_numeric=True,
            multi_output=multi_output,
            ensure_min_samples=min_samples,
        )
        y = np.asarray(y, dtype=np.float64)
        return X, (y.reshape(len(y), -1) if multi_output else y), y.ndim
