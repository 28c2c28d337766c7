"""The shared core that the topic subpackages build on (public, so any chapter may use it).

=====================================  ===========================================================
module                                 what
=====================================  ===========================================================
:mod:`mlcourse.utils.validation`       the one validation path: hyperparameter constraints
                                       (``Interval``, ``StrOptions``, …, ``validate_params``),
                                       ``validate_data`` and ``check_array``, whose errors name
                                       the argument
:mod:`mlcourse.utils.optimize`         Newton–Raphson / IRLS, gradient descent and SGD
:mod:`mlcourse.utils.objectives`       Bernoulli and categorical likelihoods of a linear activation,
                                       penalised by a Gaussian prior, with gradients and Hessians
:mod:`mlcourse.utils.numdiff`          central-difference gradients and Hessians, for checks
=====================================  ===========================================================

The submodules are not imported here: ``import mlcourse.utils.validation`` loads only what it
needs.
"""

__all__: list[str] = []
