"""The estimator contract every class in :mod:`mlcourse` follows (scikit-learn's).

* ``__init__`` only stores hyperparameters, under their own names;
* ``fit`` first discards any previous fit (so a fit that raises leaves the estimator unfitted),
  validates its input, stores learned state in attributes ending in ``_`` and returns ``self``;
* predictions come from ``predict``, ``predict_proba`` and ``transform``; calling them before
  ``fit`` raises :class:`~mlcourse.exceptions.NotFittedError` (a ``ValueError``).

``get_params``/``set_params`` make the estimators usable with scikit-learn's ``clone`` and
model-selection tools. :class:`ClassifierMixin` and :class:`LinearClassifierMixin` hold what
classifiers of several chapters share (a model that derives from them lives in its topic's
subpackage).
"""

from __future__ import annotations

import inspect

import numpy as np

from .special import sigmoid, softmax
from .utils.validation import check_array, check_consistent_length, check_is_fitted, encode_labels

__all__ = ["BaseEstimator", "ClassifierMixin", "LinearClassifierMixin"]


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


class LinearClassifierMixin(ClassifierMixin):
    """A classifier whose activations are linear in x: a = Xwᵀ + w₀ (the linear, Laplace and, next,
    RVM classification chapters).

    ``coef_`` of shape (1, d) is a binary model (the activation is the argument of ``_link``, the
    log-odds of ``classes_[1]`` for the logistic sigmoid); shape (K, d) gives one activation per
    class, passed through the softmax. For a model with a ``fit_intercept`` hyperparameter, the
    weight vector follows the columns of Φ = [1, X] (:func:`mlcourse.kernels.design_matrix`):
    :meth:`_prior_precision` leaves w₀ unpenalised and :meth:`_set_weights` splits w into
    ``intercept_`` and ``coef_``.
    """

    _link = staticmethod(sigmoid)

    def _validate_data(self, X, y, n_classes=None):
        X = check_array(X, "X")
        classes, idx = encode_labels(y, "y", n_classes=n_classes)
        check_consistent_length(X=X, y=idx)
        return X, classes, idx

    def decision_function(self, X):
        """Activations: shape (n,) for a binary model (the argument of the link), else (n, K)."""
        a = self._check_X(X) @ self.coef_.T + self.intercept_
        return a[:, 0] if self.coef_.shape[0] == 1 else a

    def predict_proba(self, X):
        """Class probabilities, shape (n, K), columns in ``classes_`` order."""
        a = self.decision_function(X)
        if a.ndim == 1:
            return np.column_stack([self._link(-a), self._link(a)])
        return softmax(a, axis=1)

    def _prior_precision(self, n_weights: int, alpha: float) -> np.ndarray:
        """The diagonal prior precision: α for every weight, 0 (a flat prior) for the intercept
        w₀ = Φ's first column when ``fit_intercept`` (scikit-learn's convention)."""
        A = np.full(n_weights, float(alpha))
        if self.fit_intercept:
            A[0] = 0.0
        return A

    def _set_weights(self, W) -> None:
        """``coef_`` and ``intercept_`` from weights W of shape (K, M) ordered as Φ's columns."""
        self.coef_, self.intercept_ = \
            (W[:, 1:], W[:, 0]) if self.fit_intercept else (W, np.zeros(len(W)))
