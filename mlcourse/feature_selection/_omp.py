"""Orthogonal matching pursuit: greedy forward selection of the columns of a linear model, with
a least-squares refit after every step (lecture 002, "Orthogonal Matching Pursuit"; Pati,
Rezaiifar & Krishnaprasad 1993).

With S the selected columns, r = t − X_S w_S the residual of the least-squares fit and x̃_j the
j-th column of X, step k picks

    omp:  j_k = argmax_j (x̃_jᵀr)² / (x̃_jᵀx̃_j)                      (the lecture's right-hand side)
    ols:  j_k = argmax_j (x̃_jᵀr)² / ‖P⊥x̃_j‖²  = argmin_j min_w ‖X_{S∪{j}}w − t‖²

where P⊥ projects onto the orthogonal complement of span(X_S). Adding column j lowers the
residual sum of squares by exactly (x̃_jᵀr)²/‖P⊥x̃_j‖², because r ⊥ span(X_S) makes
x̃_jᵀr = (P⊥x̃_j)ᵀr; so the greedy least-squares step (the lecture's left-hand side, "orthogonal
least squares", Chen, Billings & Luo 1989) divides by the squared norm of the *orthogonalised*
column. The two rules agree when the columns are orthogonal, and in general differ.

The refit never forms X_SᵀX_S (the normal equations square the condition number): X_S = QR is
updated one column at a time by classical Gram–Schmidt with one reorthogonalisation (CGS2, as
accurate as Householder QR in practice; Giraud et al. 2005), the residual is r = t − QQᵀt, and
w_S solves the triangular system Rw_S = Qᵀt.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from scipy.linalg import solve_triangular

from ..utils.validation import (
    check_array,
    check_consistent_length,
    check_option,
    check_scalar,
    check_vector,
)

__all__ = ["orthogonal_matching_pursuit", "OMPResult", "OMP_METHODS", "RANK_RTOL"]

OMP_METHODS = ("omp", "ols")
# A candidate column whose part orthogonal to the selected ones is below RANK_RTOL·max(N, k)·‖x̃_j‖
# is in their span to rounding (CGS2 leaves ~ε·k·‖x̃_j‖): selecting it would exceed the rank.
RANK_RTOL = np.finfo(float).eps


class OMPResult(NamedTuple):
    """support: the selected columns in selection order; coef: shape (p,), zero off the support."""

    support: np.ndarray
    coef: np.ndarray


def orthogonal_matching_pursuit(X, y, n_nonzero, *, method="omp") -> OMPResult:
    """Greedy sparse least squares: `n_nonzero` columns of `X`, chosen one at a time.

    Parameters
    ----------
    X : array_like of shape (N, p)
        The dictionary (columns x̃_j). No intercept is added: centre X and y for one.
    y : array_like of shape (N,)
        Targets t.
    n_nonzero : int
        1 ≤ n_nonzero ≤ p. If the rank of X is reached first (every remaining column lies in
        the span of the selected ones), the search stops there with a ``RuntimeWarning``.
    method : {"omp", "ols"}
        The selection rule (module docstring): "omp" divides by x̃_jᵀx̃_j (the lecture's rule;
        scikit-learn's ``OrthogonalMatchingPursuit`` on unit-norm columns), "ols" by the
        squared norm of the column orthogonalised against the selected ones (the largest drop
        of the residual sum of squares). Ties go to the lowest index; a zero column is never
        chosen while another can lower the residual.

    Returns
    -------
    OMPResult
        ``support`` (selection order) and ``coef`` (the least-squares weights on the support).
    """
    check_option(method, "method", OMP_METHODS)
    X = check_array(X, "X")
    y = check_vector(y, "y")
    check_consistent_length(X=X, y=y)
    n, p = X.shape
    check_scalar(n_nonzero, "n_nonzero", low=1, integer=True)
    if n_nonzero > p:
        raise ValueError(
            f"n_nonzero={n_nonzero} exceeds the number of columns of X ({p})."
        )
    norms2 = np.einsum("ij,ij->j", X, X)
    safe = np.where(norms2 > 0, norms2, 1.0)  # a zero column scores 0, never NaN
    Q = np.empty((n_nonzero, n))  # Qᵀ: the orthonormal columns as rows,
    # so that the Gram–Schmidt products read contiguous memory
    R = np.zeros((n_nonzero, n_nonzero))
    qty = np.empty(n_nonzero)
    proj2 = np.zeros(p)  # ‖QᵀX̃_j‖², for "ols"
    selected = np.zeros(p, dtype=bool)
    support = []
    r = y.copy()
    for k in range(n_nonzero):
        corr = X.T @ r
        if method == "omp":
            score = corr**2 / safe
        else:
            perp2 = norms2 - proj2  # ‖P⊥x̃_j‖² (cancellation is caught below)
            score = np.where(
                perp2 > RANK_RTOL * max(n, k + 1) * norms2,
                corr**2 / np.where(perp2 > 0, perp2, 1.0),
                0.0,
            )
        score[selected] = -np.inf
        j = int(np.argmax(score))
        x = X[:, j]
        Qk = Q[:k]
        c1 = Qk @ x  # Gram–Schmidt twice (CGS2)
        v = x - c1 @ Qk
        c2 = Qk @ v
        v -= c2 @ Qk
        rho = np.linalg.norm(v)
        if not rho > RANK_RTOL * max(n, k + 1) * np.sqrt(norms2[j]):
            warnings.warn(
                f"orthogonal_matching_pursuit: n_nonzero={n_nonzero} exceeds the rank "
                f"of X; stopped after {k} columns (every remaining column is in the "
                f"span of the selected ones).",
                RuntimeWarning,
                stacklevel=2,
            )
            break
        q = v / rho
        Q[k], R[:k, k], R[k, k] = q, c1 + c2, rho
        qty[k] = q @ r  # = qᵀt, since r ⊥ the earlier q's
        r -= qty[k] * q
        selected[j] = True
        support.append(j)
        if method == "ols":
            proj2 += (X.T @ q) ** 2
    m = len(support)
    coef = np.zeros(p)
    if m:
        coef[support] = solve_triangular(R[:m, :m], qty[:m])
    return OMPResult(np.array(support, dtype=np.intp), coef)
