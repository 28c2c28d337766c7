"""Derivatives by central differences, for checking analytic ones (and for
:func:`mlcourse.laplace.laplace_approximation` when none are given).

Each step is relative to 1 + |z_i|, so the same rule serves parameters of any size.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "central_differences",
    "numerical_gradient",
    "numerical_jacobian",
    "numerical_hessian",
    "FD_STEP_FIRST",
    "FD_STEP_SECOND",
]

_EPS = np.finfo(float).eps
# Central-difference steps, relative to 1 + |z_i|: ε^(1/3) ≈ 6e-6 balances the O(h²) truncation
# error of a first difference against its O(ε/h) rounding error (both ≈ 4e-11 relative), and
# ε^(1/4) ≈ 1.2e-4 does the same for a second difference (O(h²) against O(ε/h²), ≈ 1.5e-8).
FD_STEP_FIRST = _EPS ** (1 / 3)
FD_STEP_SECOND = _EPS ** (1 / 4)


def _steps(z, rel):
    return rel * (1.0 + np.abs(z))


def central_differences(f, z, h) -> np.ndarray:
    """Central differences of f at z with the given steps: row i is (f(z + h_i e_i) − f(z −
    h_i e_i)) / 2h_i ≈ ∂f/∂z_i, shape (M,) for a scalar f (the gradient) or (M, K) for f with
    K outputs (the transposed Jacobian; for f = ∇g, the Hessian of g).

    Parameters
    ----------
    f : callable(z) -> float or ndarray of shape (K,)
    z : array_like of shape (M,)
    h : float or array_like of shape (M,)
        One step for every coordinate, or one each. The error is O(h²) truncation plus
        O(ε/h) rounding (:func:`mlcourse.checks.fd_error` bounds both).
    """
    z = np.asarray(z, dtype=float)
    steps = np.broadcast_to(np.asarray(h, dtype=float), z.shape)
    return np.array(
        [
            (f(z + hi * e) - f(z - hi * e)) / (2 * hi)
            for hi, e in zip(steps, np.eye(len(z)))
        ]
    )


def numerical_gradient(f, z) -> np.ndarray:
    """∇f(z) by central differences, shape (M,): (f(z + h_i e_i) − f(z − h_i e_i)) / 2h_i,
    h_i = FD_STEP_FIRST·(1 + |z_i|)."""
    z = np.asarray(z, dtype=float)
    return central_differences(f, z, _steps(z, FD_STEP_FIRST))


def numerical_jacobian(g, z) -> np.ndarray:
    """The Jacobian of a vector function g at z by central differences, symmetrised (g is a
    gradient, so its Jacobian is a Hessian), shape (M, M): :func:`numerical_gradient` of g,
    whose row i is ∂g/∂z_i."""
    J = numerical_gradient(g, z)
    return 0.5 * (J + J.T)


def numerical_hessian(f, z) -> np.ndarray:
    """∇∇f(z) by second central differences of f, shape (M, M), 2M² + 1 calls.

    The differences::

        H_ii ≈ (f(z + h_i e_i) − 2f(z) + f(z − h_i e_i)) / h_i²,
        H_ij ≈ [f(z + h_i e_i + h_j e_j) − f(z + h_i e_i − h_j e_j)
                − f(z − h_i e_i + h_j e_j) + f(z − h_i e_i − h_j e_j)] / 4h_i h_j   (i ≠ j).
    """
    z = np.asarray(z, dtype=float)
    M = len(z)
    d = np.eye(M) * _steps(z, FD_STEP_SECOND)
    f0 = f(z)
    H = np.empty((M, M))
    for i in range(M):
        H[i, i] = (f(z + d[i]) - 2 * f0 + f(z - d[i])) / d[i, i] ** 2
        for j in range(i + 1, M):
            H[i, j] = H[j, i] = (
                f(z + d[i] + d[j])
                - f(z + d[i] - d[j])
                - f(z - d[i] + d[j])
                + f(z - d[i] - d[j])
            ) / (4 * d[i, i] * d[j, j])
    return H
