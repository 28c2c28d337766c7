"""The tolerances' building blocks that the chapters' cases share (beyond :mod:`mlcourse.checks`).

A checker's tolerance bounds what any sound route to the result may differ by: a Cholesky
solve, an explicit inverse, a QR or an SVD, each on the case's own data. The bounds are the
standard first-order ones, ε × (number of terms) × (condition number) × (size of the result),
with a factor of ten of room; each case says which.
"""

from __future__ import annotations

import numpy as np


def scaled_cond(P) -> float:
    """The condition number of the symmetric positive definite `P` after scaling it to a unit
    diagonal, D^(-1/2) P D^(-1/2) with D = diag(P).

    Cholesky factorisation and the solves built on it are accurate to this condition number,
    not to cond(P) (van der Sluis): a prior precision of 10⁸ on one weight makes cond(P) huge
    but costs no accuracy in the other weights.
    """
    P = np.asarray(P, float)
    d = 1 / np.sqrt(np.diag(P))
    return float(np.linalg.cond(P * d[:, None] * d[None, :]))
