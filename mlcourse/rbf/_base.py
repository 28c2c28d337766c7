"""What the RBF chapter's estimators share (private to :mod:`mlcourse.rbf`).

* :class:`_RBFEstimator` — :class:`mlcourse.base.BaseEstimator` with scikit-learn's tags, input
  validation (``validate_data``) and a ``fit`` that leaves nothing behind when it raises;
* :func:`check_positive`, :func:`check_count` — the hyperparameter checks, with messages that name
  the argument;
* :func:`check_distinct` — more centres (or components) than distinct points is refused.
"""

from __future__ import annotations

import numpy as np
from sklearn.exceptions import NotFittedError as _SklearnNotFittedError
from sklearn.utils import Tags, TargetTags

from ..base import BaseEstimator
from ..exceptions import NotFittedError
from ..utils.validation import check_is_fitted, check_scalar, validate_data

__all__ = ["check_positive", "check_count", "check_distinct"]


if issubclass(NotFittedError, _SklearnNotFittedError):
    _NotFittedError = NotFittedError
else:

    class _NotFittedError(NotFittedError, _SklearnNotFittedError):
        """mlcourse's NotFittedError that is scikit-learn's too (its estimator checks catch only
        theirs). Issue 14 makes mlcourse's the same class; then this is not needed."""


class _RBFEstimator(BaseEstimator):
    """An mlcourse estimator that scikit-learn's ``check_estimator`` accepts.

    Subclasses put scikit-learn's ``RegressorMixin`` or ``ClassifierMixin`` first, so that their
    ``__sklearn_tags__`` runs first and calls this one for the base tags.
    """

    # Whether y may be 2-D (C outputs); a subclass that takes only 1-D targets sets it False.
    _multi_output_targets = True

    def __sklearn_tags__(self) -> Tags:
        # Issue 14 makes mlcourse's BaseEstimator scikit-learn's, which has the base tags; until
        # then they are built here, as scikit-learn's BaseEstimator builds them.
        parent = getattr(super(), "__sklearn_tags__", None)
        tags = (
            parent()
            if parent is not None
            else Tags(estimator_type=None, target_tags=TargetTags(required=False))
        )
        tags.target_tags.multi_output = self._multi_output_targets
        return tags

    def _validate_fit(self, X, y, **check_params):
        """(X, y) as float arrays, with ``n_features_in_`` set (scikit-learn's ``validate_data``:
        NaN, infinities, complex and object data, empty arrays and length mismatches raise
        ``ValueError``)."""
        return validate_data(self, X, y, **check_params)

    def _validate_predict(self, X) -> np.ndarray:
        """`X` for a prediction method: the estimator is fitted (else ``NotFittedError``), and
        `X` is a finite 2-D array with ``n_features_in_`` columns."""
        try:
            check_is_fitted(self)
        except NotFittedError as error:
            raise _NotFittedError(str(error)) from None
        return validate_data(self, X, reset=False)

    def _fail(self, error: Exception):
        """Forget any learned state (``validate_data`` sets ``n_features_in_`` before later checks
        can fail), then raise `error`."""
        self._reset()
        raise error


def check_positive(value, name: str, *, allow_none: bool = False):
    """A positive finite number (or ``None`` if allowed), else ValueError naming it."""
    if allow_none and value is None:
        return None
    return check_scalar(value, name, low=0, low_inclusive=False)


def check_count(value, name: str, low: int = 1) -> int:
    """An integer ≥ `low`, else ValueError naming it."""
    return int(check_scalar(value, name, low=low, integer=True))


def check_distinct(X, n: int, name: str) -> None:
    """Refuse more centres or components than `X` has distinct rows.

    k-means cannot place more distinct centres than there are distinct points (k-means++ would
    have to pick a point twice), and a mixture component without a point of its own collapses
    onto the covariance floor. We raise ``ValueError`` rather than fit fewer units silently.
    """
    n_distinct = len(np.unique(X, axis=0))
    if n > n_distinct:
        raise ValueError(
            f"{name}={n} is more than the number of distinct rows of X "
            f"({n_distinct}; n_samples = {len(X)}); use at most {n_distinct}."
        )
