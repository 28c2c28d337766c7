"""The estimator contract every class in :mod:`mlcourse` follows: scikit-learn's, on
scikit-learn's own plumbing.

mlcourse implements every *algorithm* from scratch; the estimator *plumbing* is scikit-learn's.
:class:`BaseEstimator` derives from :class:`sklearn.base.BaseEstimator` (``get_params``,
``set_params``, ``clone``, the repr and the HTML repr, tags, pickling), and the mixins from
scikit-learn's (:class:`ClassifierMixin`: accuracy ``score``; :class:`RegressorMixin`: R²
``score``; :class:`TransformerMixin`: ``fit_transform`` and ``set_output``). Input is checked by
scikit-learn's ``validate_data``, ``check_is_fitted`` and ``check_classification_targets``, so the
estimators pass ``sklearn.utils.estimator_checks`` and work in ``cross_val_score``,
``GridSearchCV`` and ``Pipeline``.

What mlcourse adds:

* ``fit`` first discards any previous fit (:meth:`BaseEstimator._reset`), and a ``fit`` that
  raises leaves the estimator unfitted (every subclass's ``fit`` is wrapped to reset on failure),
  so an estimator never looks fitted with a mixture of two fits' state;
* the prediction methods' preamble :meth:`BaseEstimator._check_X` (fitted, then the same columns
  as in ``fit``), and the mixins' ``_validate_data(X, y)`` for the training data;
* :class:`ClassifierMixin` predicts the most probable class of ``predict_proba`` and knows how
  many classes a model can take (``_n_classes``; the tag ``multi_class`` follows from it);
* :class:`LinearClassifierMixin`: activations a = Xwᵀ + w₀ with a link (the linear, Laplace and,
  next, RVM classification chapters).

Tags: dense input only (no sparse matrices), no NaN or infinite values.
"""

from __future__ import annotations

import functools

import numpy as np
from sklearn import base as _sk
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from .special import sigmoid, softmax
from .utils.validation import check_array, encode_labels, validate_data

__all__ = [
    "BaseEstimator",
    "ClassifierMixin",
    "RegressorMixin",
    "TransformerMixin",
    "LinearClassifierMixin",
]


def _unfitted_on_failure(fit):
    """`fit`, resetting the estimator if it raises (scikit-learn's ``validate_data`` sets
    ``n_features_in_`` before the later checks and the algorithm can fail)."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        try:
            return fit(self, *args, **kwargs)
        except BaseException:
            self._reset()
            raise

    wrapper._resets_on_failure = True
    return wrapper


class BaseEstimator(_sk.BaseEstimator):
    """scikit-learn's base estimator, with a reset before each fit and the prediction preamble.

    A subclass's ``__init__`` only stores its hyperparameters, under their own names; its ``fit``
    starts with ``self._reset()``, validates (hyperparameters, then data with
    :func:`sklearn.utils.validation.validate_data` or a mixin's ``_validate_data``), sets the
    learned attributes (ending in ``_``) and returns ``self``.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fit = cls.__dict__.get("fit")
        if fit is not None and not getattr(fit, "_resets_on_failure", False):
            cls.fit = _unfitted_on_failure(fit)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False  # dense arrays only
        tags.input_tags.allow_nan = (
            False  # NaN and inf are refused, naming the argument
        )
        return tags

    def _reset(self) -> None:
        """Forget learned state (attributes ending in ``_``), so a refit starts fresh."""
        for key in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, key)

    def _check_fitted(self, attributes=None) -> None:
        """:func:`sklearn.utils.validation.check_is_fitted`: ``NotFittedError`` before ``fit``."""
        check_is_fitted(self, attributes)

    def _check_X(
        self, X, name: str = "X", width_attr: str = "n_features_in_", dtype=np.float64
    ) -> np.ndarray:
        """Input to a prediction method: the estimator is fitted, and `X` is a finite 2-D float
        array with the columns of ``fit`` (scikit-learn's ``validate_data(reset=False)``).

        For another width than ``n_features_in_`` (``inverse_transform``'s `Z` has
        ``n_components_`` columns), name the argument and the attribute that holds the width.
        ``dtype=None`` keeps a numeric `X`'s own dtype (a feature selector's ``transform``).
        """
        self._check_fitted()
        if width_attr == "n_features_in_":
            return validate_data(self, X, reset=False, dtype=dtype)
        return self._check_width(check_array(X, name), name, width_attr)

    def _check_width(
        self, X, name: str = "X", width_attr: str = "n_features_in_"
    ) -> np.ndarray:
        """`X`, an already validated 2-D array, if it has ``getattr(self, width_attr)`` columns."""
        width = getattr(self, width_attr)
        if X.shape[1] != width:
            raise ValueError(
                f"{name} has {X.shape[1]} features, but {type(self).__name__} is "
                f"expecting {width} features as input."
            )
        return X


class ClassifierMixin(_sk.ClassifierMixin):
    """scikit-learn's classifier mixin (tags, accuracy ``score``), with ``predict`` as the most
    probable class of ``predict_proba`` and the validation of the training labels.

    ``_n_classes`` is the number of classes the model takes: ``None`` for any number ≥ 2, 2 for
    a binary model (whose tag ``multi_class`` is then False, and which refuses three classes).
    """

    _n_classes = None

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self._n_classes is None
        return tags

    def _validate_data(self, X, y, n_classes=None):
        """X as a finite float array (``n_features_in_`` set) and the labels encoded.

        Returns
        -------
        X : ndarray of shape (n, d)
        classes : ndarray of shape (K,)
            The sorted labels (``classes_``).
        idx : ndarray of shape (n,)
            Each sample's label as an index into `classes`.

        Raises
        ------
        ValueError
            Bad X or y (scikit-learn's messages), continuous y ("Unknown label type"), one class
            only, or more classes than the model takes (`n_classes`, default ``_n_classes``).
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        classes, idx = encode_labels(y, "y", n_classes=n_classes or self._n_classes)
        return X, classes, idx

    def predict(self, X) -> np.ndarray:
        """Most probable class for each row of `X`, as a label from ``classes_``."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class RegressorMixin(_sk.RegressorMixin):
    """scikit-learn's regressor mixin (tags, R² ``score``), with the validation of the training
    data: X and y finite floats, y one-dimensional (a column (n, 1) is raveled with scikit-learn's
    ``DataConversionWarning``)."""

    def _validate_data(self, X, y, reset=True):
        """X and y as finite float arrays of shapes (n, d) and (n,); ``n_features_in_`` is set
        (``reset=True``, in ``fit``) or X must have that many columns (``partial_fit``)."""
        X, y = validate_data(self, X, y, reset=reset, dtype=np.float64, y_numeric=True)
        return X, np.asarray(y, dtype=np.float64)


TransformerMixin = _sk.TransformerMixin


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

    def _activations(self, X):
        """a = Xwᵀ + w₀, shape (n, 1) for a binary model, else (n, K)."""
        return self._check_X(X) @ self.coef_.T + self.intercept_

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
