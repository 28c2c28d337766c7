"""Exercises that answer back: the student writes a derivation's result in code, and the checker
says whether it is right, and if not, what is wrong (issue 29).

=============  =====================================================================================
``EXERCISES``  dict from a short name (``"irls-step"``) to its :class:`Exercise`
``Exercise``   ``name``, ``chapter``, one-line ``prompt``, the ``reference`` callable (the student's
               signature) and ``check(answer)``
``Feedback``   what ``check`` returns: ``correct`` and ``message``; shows itself in Jupyter
``check``      ``check(name, answer)``, the same as ``EXERCISES[name].check(answer)``
=============  =====================================================================================

A chapter's exercise cell defines the function with a body of ``...`` and calls
``EXERCISES["irls-step"].check(irls_update)``: "not attempted yet" until the body is written, then
either "correct", or the first case that fails and what differs there — the shape (transposed?),
a constant factor or shift, the sign, a typical entry — or, where the answer matches a catalogued
mistake, that mistake named in the lecture's terms ("your Hessian is missing the prior term A:
compare with Bishop (7.111)"). The chapters' exercises live in one private module per chapter;
CONTRIBUTING.md says how to add one.
"""

from . import (
    _evaluation,
    _feature_selection,
    _gaussian_processes,
    _laplace,
    _latent_variable_models,
    _linear_classifiers,
    _pca,
    _rbf_networks,
    _rvm_classification,
    _rvm_regression,
)
from ._exercise import Exercise
from ._feedback import Feedback

# in the book's order of chapters
_CHAPTERS = (
    _evaluation,
    _linear_classifiers,
    _laplace,
    _rbf_networks,
    _gaussian_processes,
    _rvm_regression,
    _rvm_classification,
    _feature_selection,
    _pca,
    _latent_variable_models,
)
EXERCISES: dict[str, Exercise] = {
    ex.name: ex for module in _CHAPTERS for ex in module.EXERCISES
}


def check(name: str, answer) -> Feedback:
    """Check `answer` against the exercise called `name`: ``EXERCISES[name].check(answer)``.

    An unknown name gives a Feedback that lists the names, not an error.
    """
    exercise = EXERCISES.get(name)
    if exercise is None:
        return Feedback(
            False,
            f"there is no exercise called {name!r}; the exercises are: "
            + ", ".join(sorted(EXERCISES)),
            str(name),
        )
    return exercise.check(answer)


__all__ = ["EXERCISES", "Exercise", "Feedback", "check"]
