"""Deprecated import path: the Kalman form is :class:`mlcourse.gp.KalmanGPRegressor`.

A re-export kept while the Gaussian-process chapter imports ``affine_basis`` from here; new code
imports from :mod:`mlcourse.gp`. Nothing is defined here.
"""

from .gp import KalmanGPRegressor, affine_basis

__all__ = ["KalmanGPRegressor", "affine_basis"]
