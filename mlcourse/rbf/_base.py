"""What the RBF chapter's estimators share (private to :mod:`mlcourse.rbf`).

* :class:`_RBFEstimator` — :class:`mlcourse.base.BaseEstimator` with the tag for multi-output
  targets (input goes through :func:`mlcourse.utils.validation.validate_data`, hyperparameters
  through each estimator's ``_parameter_constraints``, as everywhere);
* :func:`check_distinct` — more centres (or components) than distinct points is refused.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import Tags

from ..base import BaseEstimator

__all__ = ["check_distinct"]


class _RBFEstimator(BaseEstimator):
    """An mlcourse estimator whose targets may have several columns.

    Subclasses put scikit-learn's ``RegressorMixin`` or ``ClassifierMixin`` first, so that their
    ``__sklearn_tags__`` runs first and calls this one for the base tags.
    """

    # Whether y may be 2-D (C outputs); a subclass that takes only 1-D targets sets it False.
    _multi_output_targets = True

    def __sklearn_tags__(self) -> Tags:
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = self._multi_output_targets
        return tags


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
