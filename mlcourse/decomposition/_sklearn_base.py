"""The base class of the latent-variable estimators: mlcourse's estimator contract on
scikit-learn's plumbing (private).

Issue 14 makes :class:`mlcourse.base.BaseEstimator` scikit-learn's own; until then the two are
combined here, so that ``__sklearn_tags__``, ``clone`` and ``check_estimator`` work. Once
mlcourse's base derives from scikit-learn's, it is used as it is (a class cannot list the same
base twice). Input arrays are validated by scikit-learn's ``validate_data`` (which also records
and checks ``n_features_in_``); hyperparameters by :mod:`mlcourse.utils.validation`.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator as _SklearnBase
from sklearn.exceptions import NotFittedError as _SklearnNotFitted
from sklearn.utils.validation import check_is_fitted, validate_data

from ..base import BaseEstimator as _MlcourseBase
from ..exceptions import NotFittedError as _MlcourseNotFitted

__all__ = ["_LatentBase"]

if issubclass(_MlcourseNotFitted, _SklearnNotFitted):    # pragma: no cover - after issue 14
    _NotFittedError = _MlcourseNotFitted
else:
    class _NotFittedError(_MlcourseNotFitted, _SklearnNotFitted):
        """Caught by ``except`` clauses for either library's NotFittedError."""

if issubclass(_MlcourseBase, _SklearnBase):     # pragma: no cover - after issue 14
    _Base = _MlcourseBase
else:
    class _Base(_MlcourseBase, _SklearnBase):
        """mlcourse's get_params/set_params/_reset first, scikit-learn's tags behind."""


class _LatentBase(_Base):
    """Validation shared by PPCA, supervised PCA, PLS, CCA and kernel PCA."""

    _two_blocks = False        # PLS and CCA: y is a required block of one or more columns

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self._two_blocks:
            tags.target_tags.multi_output = True
            tags.target_tags.required = True
        return tags

    def _validate_X(self, X, *, fitting: bool, min_samples: int = 1, allow_nan: bool = False):
        """X as a float (N, p) array; when not `fitting`, the estimator is fitted and X has
        ``n_features_in_`` columns. NaN is accepted only with `allow_nan` (missing values)."""
        if not fitting:
            self._check_fitted()
        return validate_data(self, X, reset=fitting, dtype=np.float64,
                             ensure_min_samples=min_samples,
                             ensure_all_finite="allow-nan" if allow_nan else True)

    def _validate_Xy(self, X, y, *, multi_output: bool, min_samples: int = 2):
        """Training inputs X (N, p) and targets y, (N,) or, with `multi_output`, (N, q) (returned
        as (N, q) with its original number of dimensions): finite, of the same length."""
        X, y = validate_data(self, X, y, reset=True, dtype=np.float64, y_numeric=True,
                             multi_output=multi_output, ensure_min_samples=min_samples)
        y = np.asarray(y, dtype=np.float64)
        return X, (y.reshape(len(y), -1) if multi_output else y), y.ndim

    def _check_fitted(self, attributes=None) -> None:
        # an error of both libraries' NotFittedError classes (mlcourse's contract tests and
        # scikit-learn's checks each expect their own). n_components_ is set last in every fit:
        # validate_data records n_features_in_ before a hyperparameter that depends on the data
        # can still make fit raise.
        try:
            check_is_fitted(self, "n_components_" if attributes is None else attributes)
        except _SklearnNotFitted as exc:
            raise _NotFittedError(str(exc)) from None
