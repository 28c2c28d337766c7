"""The exceptions and warnings of :mod:`mlcourse`, in one place (as ``sklearn.exceptions``).

Bad input raises a :class:`ValueError` (a :class:`TypeError` where scikit-learn expects one) that
names the argument (see :mod:`mlcourse.utils.validation`); the classes here are the ones a caller
may want to catch or filter by name. Where scikit-learn has the same class it is scikit-learn's
own, so one ``except`` or warnings filter serves both libraries (and scikit-learn's
model-selection tools recognise them):

* :class:`NotFittedError` — a prediction method called before ``fit``; both a
  :class:`ValueError` and an :class:`AttributeError` (so ``hasattr(est, "predict_proba")``-style
  probes behave as in scikit-learn);
* :class:`ConvergenceWarning` — an iterative solver stopped at ``max_iter`` before meeting its
  tolerance; the result is returned (finite) but may be inaccurate: raise ``max_iter`` or loosen
  ``tol``;
* :class:`UndefinedMetricWarning` — a ratio metric had a zero denominator (e.g. precision with no
  predicted positives).

:class:`SeparationWarning` is mlcourse's own, and so is :class:`InvalidParameterError` (a bad
hyperparameter or argument: scikit-learn raises a class of the same name and bases, from a private
module).
"""

from __future__ import annotations

from sklearn.exceptions import (
    ConvergenceWarning,
    NotFittedError,
    UndefinedMetricWarning,
)

__all__ = [
    "NotFittedError",
    "ConvergenceWarning",
    "SeparationWarning",
    "UndefinedMetricWarning",
    "InvalidParameterError",
]


class SeparationWarning(UserWarning):
    """The training data are linearly separable, so the maximum-likelihood weights are infinite."""


class InvalidParameterError(ValueError, TypeError):
    """A hyperparameter (or a function's argument) of the wrong type or out of its range.

    Both a :class:`ValueError` and a :class:`TypeError`, as scikit-learn's exception of the same
    name, so ``except ValueError`` catches a bad value and ``except TypeError`` a bad type, and
    code written for either library handles both. Raised by
    :func:`mlcourse.utils.validation.validate_params`; the message names the parameter, what it
    must be and what it got.
    """
