"""The estimator contract every class in :mod:`mlcourse` follows: scikit-learn's, on
scikit-learn's own plumbing.

mlcourse implements every *algorithm* from scratch; the estimator *plumbing* is scikit-learn's.
:class:`BaseEstimator` derives from :class:`sklearn.base.BaseEstimator` (``get_params``,
``set_params``, ``clone``, the repr and the HTML repr, tags, pickling), and the mixins from
scikit-learn's (:class:`ClassifierMixin`: accuracy ``score``; :class:`RegressorMixin`: R²
``score``; :class:`TransformerMixin`: ``fit_transform`` and ``set_output``), so the estimators
pass ``sklearn.utils.estimator_checks`` and work in ``cross_val_score``, ``GridSearchCV`` and
``Pipeline``.

Validation takes one path (:mod:`mlcourse.utils.validation`):

* each estimator declares its hyperparameters' constraints once, as data, in
  ``_parameter_constraints`` (scikit-learn's convention), and every ``fit`` (and
  ``partial_fit``) checks them first, through :meth:`BaseEstimator._validate_params`: the
  subclass's ``fit`` is wrapped, so none can forget;
* data go through :func:`~mlcourse.utils.validation.validate_data`: ``validate_data(self, X, y)``
  in ``fit``, ``validate_data(self, X, reset=False)`` in a prediction method (fitted, then the
  columns of ``fit``); class labels through
  :func:`~mlcourse.utils.validation.encode_labels`.

What mlcourse adds:

* ``fit`` first discards any previous fit (:meth:`BaseEstimator._reset`), and a ``fit`` that
  raises leaves the estimator unfitted (the wrapper resets it), so an estimator never looks
  fitted with a mixture of two fits' state;
* :class:`ClassifierMixin` predicts the most probable class of ``predict_proba`` and knows how
  many classes a model can take (``_n_classes``; the tag ``multi_class`` follows from it);
* :class:`LinearClassifierMixin`: activations a = Xwᵀ + w₀ with a link (the linear, Laplace and
  RVM classification chapters).

Tags: dense input only (no sparse matrices), no NaN or infinite values.
"""

from __future__ import annotations

import functools

import numpy as np
from sklearn import base as _sk

from .special import sigmoid, softmax
from .utils.validation import validate_data, validate_params

__all__ = [
    "BaseEstimator",
    "ClassifierMixin",
    "RegressorMixin",
    "TransformerMixin",
    "LinearClassifierMixin",
]


def _validating(method, reset_on_failure: bool):
    """`method` (``fit`` or ``partial_fit``) preceded by the hyperparameter check; ``fit`` also
    resets the estimator if it raises (``validate_data`` sets ``n_features_in_`` before later
    checks and the algorithm can fail). A ``partial_fit`` that raises keeps the state it had."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            self._validate_params()
            return method(self, *args, **kwargs)
        except BaseException:
            if reset_on_failure:
                self._reset()
            raise

    wrapper._validates_params = True
    return wrapper


class BaseEstimator(_sk.BaseEstimator):
    """scikit-learn's base estimator, with the hyperparameter check and a reset before each fit.

    A subclass declares ``_parameter_constraints`` (every ``__init__`` parameter → its allowed
    forms, :mod:`mlcourse.utils.validation`); its ``__init__`` only stores the hyperparameters,
    under their own names; its ``fit`` starts with ``self._reset()``, validates the data with
    :func:`~mlcourse.utils.validation.validate_data`, sets the learned attributes (ending in
    ``_``) and returns ``self``. The constraints are checked before ``fit`` runs.
    """

    # Parameter name -> list of allowed forms; {} checks nothing (a reader's own subclass).
    _parameter_constraints: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, reset in (("fit", True), ("partial_fit", False)):
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "_validates_params", False):
                setattr(cls, name, _validating(method, reset))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False  # dense arrays only
        tags.input_tags.allow_nan = (
            False  # NaN and inf are refused, naming the argument
        )
        return tags

    def _validate_params(self) -> None:
        """Check the hyperparameters against ``_parameter_constraints``
        (:func:`mlcourse.utils.validation.validate_params`): an ``InvalidParameterError``
        naming the estimator, the parameter, what it must be and what it got."""
        constraints = self._parameter_constraints
        validate_params(
            constraints,
            {name: getattr(self, name) for name in constraints},
            type(self).__name__,
        )

    def _reset(self) -> None:
        """Forget learned state (attributes ending in ``_``), so a refit starts fresh."""
        for key in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, key)


class ClassifierMixin(_sk.ClassifierMixin):
    """scikit-learn's classifier mixin (tags, accuracy ``score``), with ``predict`` as the most
    probable class of ``predict_proba``.

    ``_n_classes`` is the number of classes the model takes: ``None`` for any number ≥ 2, 2 for
    a binary model (whose tag ``multi_class`` is then False, and which refuses three classes).
    """

    _n_classes = None

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self._n_classes is None
        return tags

    def predict(self, X) -> np.ndarray:
        """Most probable class for each row of `X`, as a label from ``classes_``."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


RegressorMixin = _sk.RegressorMixin

TransformerMixin = _sk.TransformerMixin


class LinearClassifierMixin(ClassifierMixin):
    """A classifier whose activations are linear in x (or in fixed features of x): a = Xwᵀ + w₀
    (the linear, Laplace and RVM classification chapters).

    ``coef_`` of shape (1, d) is a binary model (the activation is the argument of ``_link``, the
    log-odds of ``classes_[1]`` for the logistic sigmoid); shape (K, d) gives one activation per
    class, passed through the softmax. For a model with a ``fit_intercept`` hyperparameter, the
    weight vector follows the columns of Φ = [1, X] (:func:`mlcourse.kernels.design_matrix`):
    :meth:`_prior_precision` leaves w₀ unpenalised and :meth:`_set_weights` splits w into
    ``intercept_`` and ``coef_``.
    """

    _link = staticmethod(sigmoid)

    def _activations(self, X):
        """a = Xwᵀ + w₀, shape (n, 1) for a binary model, else (n, K)."""
        return validate_data(self, X, reset=False) @ self.coef_.T + self.intercept_

    def decision_function(self, X):
        """Activations: shape (n,) for two classes, else (n, K).

        For two classes the one activation is the log-odds of ``classes_[1]`` (the argument of
        the link); a model with one weight vector per class (K = 2 rows in ``coef_``) gives
        a₁ − a₀, whose sign is the prediction, as scikit-learn requires.
        """
        a = self._activations(X)
        if a.shape[1] == 1:
            return a[:, 0]
        return a[:, 1] - a[:, 0] if a.shape[1] == 2 else a

    def predict_proba(self, X):
        """Class probabilities, shape (n, K), columns in ``classes_`` order."""
        a = self._activations(X)
        if a.shape[1] == 1:
            return np.column_stack([self._link(-a[:, 0]), self._link(a[:, 0])])
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
        self.coef_, self.intercept_ = (
            (W[:, 1:], W[:, 0]) if self.fit_intercept else (W, np.zeros(len(W)))
        )
