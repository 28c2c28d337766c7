"""Kernel functions shared by the RBF-network, RVM and Gaussian-process chapters.

Every kernel is a callable ``k(X, Y)`` that maps arrays of shape (n, d) and (m, d) to the
Gram matrix of shape (n, m). 1-D inputs of shape (n,) are read as n points in one dimension.
"""

from ._pairwise import BasisKernel, SquaredExponential, linear_spline, rbf, sq_dist

__all__ = ["sq_dist", "rbf", "linear_spline", "SquaredExponential", "BasisKernel"]
