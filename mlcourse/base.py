"""The estimator contract every class in :mod:`mlcourse` follows (scikit-learn's).

* ``__init__`` only stores hyperparameters, under their own names;
* ``fit`` first discards any previous fit (so a fit that raises leaves the estimator unfitted),
  validates its input, stores learned state in attributes ending in ``_`` and returns ``self``;
* predictions come from ``predict``, ``predict_proba`` and ``transform``; calling them before
  ``fit`` raises :class:`~mlcourse.exceptions.NotFittedError` (a ``ValueError``).

``get_params``/``set_params`` make the estimators usable with scikit-learn's ``clone`` and
model-selection tools.
"""

from __future__ import annotations

import inspect

import numpy as np

from .utils.validation import check_array, check_is_fitted

__all__ = ["BaseEstimator", "ClassifierMixin"]


class BaseEstimator:
    """Hyperparameter bookkeeping from the ``__init__`` signature."""

    @classmethod
    def _param_names(cls):
        sig = inspect.signature(cls.__init__)
        return sorted(p.name for p in sig.parameters.values()
                      if p.name != "self" and p.kind is not p.VAR_KEYWORD)

    def get_params(self, deep: bool = True) -> dict:
        """Hyperparameters as a dict (``deep`` is accepted for scikit-learn compatibility)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        """Set hyperparameters; unknown names raise ``ValueError``. Returns ``self``."""
        valid = set(self._param_names())
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for {type(self).__name__}; "
                                 f"valid parameters are {sorted(valid)}.")
            setattr(self, name, value)
        return self

    def _reset(self) -> None:
        """Forget learned state (attributes ending in ``_``), so a refit starts fresh."""
        for key in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, key)

    def _check_fitted(self, attributes=None) -> None:
        check_is_fitted(self, attributes)

    def _check_X(self, X, name: str = "X", width_attr: str = "n_features_in_") -> np.ndarray:
        """Input to a prediction method: the estimator is fitted, and `X` is a finite 2-D array
        with as many columns as the fitted attribute `width_attr` says."""
        self._check_fitted()
        return self._check_width(check_array(X, name), name, width_attr)

    def _check_width(self, X, name: str = "X", width_attr: str = "n_features_in_") -> np.ndarray:
        """`X`, an already validated 2-D array, if it has ``getattr(self, width_attr)`` columns."""
        width = getattr(self, width_attr)
        if X.shape[1] != width:
            raise ValueError(f"{name} has {X.shape[1]} features; this {type(self).__name__} "
                             f"expects {width} features.")
        return X

    def __repr__(self) -> str:
        sig = inspect.signature(type(self).__init__)
        changed = []
        for name in self._param_names():
            default = sig.parameters[name].default
            value = getattr(self, name)
            same = value is default or (not isinstance(value, np.ndarray) and value == default)
            if not same:
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"


class ClassifierMixin:
    """``predict`` as the most probable class of ``predict_proba``, and accuracy ``score``."""

    def predict(self, X) -> np.ndarray:
        """Most probable class for each row of `X`, as a label from ``classes_``."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def score(self, X, y) -> float:
        """Fraction of samples whose predicted label equals `y`."""
        return float(np.mean(self.predict(X) == np.asarray(y)))
