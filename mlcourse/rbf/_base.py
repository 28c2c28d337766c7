"""What the RBF chapter's estimators share (private to :mod:`mlcourse.rbf`): :class:`_RBFEstimator`,
:class:`mlcourse.base.BaseEstimator` with the tag for multi-output targets (input goes through
:func:`mlcourse.utils.validation.validate_data`, hyperparameters through each estimator's
``_parameter_constraints``, as everywhere)."""

from __future__ import annotations

from sklearn.utils import Tags

from ..base import BaseEstimator

__all__: list[str] = []


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
