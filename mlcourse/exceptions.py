"""The exceptions and warnings of :mod:`mlcourse`, in one place (as ``sklearn.exceptions``).

Bad input raises a :class:`ValueError` that names the argument (see
:mod:`mlcourse.utils.validation`); the classes here are the ones a caller may want to catch or
filter by name.
"""

from __future__ import annotations

from sklearn.exceptions import NotFittedError as _SklearnNotFittedError

__all__ = ["NotFittedError", "ConvergenceWarning", "SeparationWarning",
           "UndefinedMetricWarning"]


class NotFittedError(_SklearnNotFittedError, ValueError, AttributeError):
    """Raised when a prediction method is called before ``fit``.

    Subclasses :class:`ValueError` (the project's contract for bad calls) and
    :class:`AttributeError` (so ``hasattr(est, "predict_proba")``-style probes behave as in
    scikit-learn), through scikit-learn's own ``NotFittedError``, which its estimator checks
    expect.
    """


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped at ``max_iter`` before meeting its tolerance.

    The result is returned (finite) but may be inaccurate; raise ``max_iter`` or loosen ``tol``.
    """


class SeparationWarning(UserWarning):
    """The training data are linearly separable, so the maximum-likelihood weights are infinite."""


class UndefinedMetricWarning(UserWarning):
    """A ratio metric had a zero denominator (e.g. precision with no predicted positives)."""
