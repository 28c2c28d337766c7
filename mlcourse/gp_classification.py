"""Deprecated import path: the GP classifier is :class:`mlcourse.gp.GaussianProcessClassifier`.

A re-export kept while chapters and readers still import from here; new code imports from
:mod:`mlcourse.gp`. Nothing is defined here.
"""

from .gp import GaussianProcessClassifier, laplace_mode

__all__ = ["GaussianProcessClassifier", "laplace_mode"]
