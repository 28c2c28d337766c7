"""The span of the fast loop's model: a QR factorisation kept up to date one basis function at a
time, with every column's parts inside and outside it (Tipping & Faul's 2003 algorithm in the
square-root form of ``_sparse_bayes._covariance_root``)."""

from __future__ import annotations

import numpy as np
from scipy.linalg import blas, qr

# A candidate whose part outside the span of the model has norm at most SPAN_TOL (columns have
# unit norm) is, to rounding, a combination of the basis functions already in: it enters the
# model without a direction of its own. The parts outside the span are kept to about ε per
# update; 1e-10 is well above that, and below the 3e-8 of adjacent linear-spline columns on
# [100, 120], the most nearly collinear basis functions the book fits.
SPAN_TOL = 1e-10
# ‖pᵢ‖² and pᵢᵀt are downdated when a direction joins the span (‖pᵢ‖² − rowᵢ², O(K) instead of
# recomputing them from P, O(NK)), as LAPACK's column-pivoted QR (xGEQP3) downdates its column
# norms. The subtraction loses log10(ref/new) digits, where ref is ‖pᵢ‖² when it was last computed
# from P; once a column has lost NORM_RECOMPUTE = 1e-3 of it (three digits, so at most about
# 1e3·ε relative error remains) it is recomputed from P. Likewise for ‖t⊥‖² and then every pᵢᵀt.
NORM_RECOMPUTE = 1e-3

__all__ = ["SPAN_TOL", "NORM_RECOMPUTE"]


class _Span:
    """The span of the model's basis functions, and every column's part inside and outside it.

    B_act = QR for the basis functions `order` (in the order they came in), Q (N, r) orthonormal
    and R (r, M) upper trapezoidal (r < M only if one came in already in the span). For the
    columns of [B, t]: their coordinates in the span, ``C = Qᵀ[B, t]`` (r, K + 1), and their
    parts outside it, ``P = [B, t] − QC`` (N, K + 1), kept explicitly, so that ‖pᵢ‖ is accurate
    even when φᵢ is nearly in the span (no 1 − ‖cᵢ‖² cancellation). An addition appends the
    normalised pⱼ to Q (Gram–Schmidt, reorthogonalised once: "twice is enough"); a deletion
    rotates Q so that the direction that leaves is its last column, and moves that direction's
    part of C back into P. Each costs O(N K); the re-estimations in between, nothing. ‖pᵢ‖² and
    pᵢᵀt are downdated in O(K), and recomputed from P when that lost digits (NORM_RECOMPUTE).
    """

    def __init__(self, B, t):
        self.P = np.column_stack([B, t])
        N, K1 = self.P.shape
        self.Q, self.R, self.C = np.zeros((N, 0)), np.zeros((0, 0)), np.zeros((0, K1))
        self.order = []
        self._exact(np.arange(K1 - 1))
        self.tn = self.tn_ref = float(self.P[:, -1] @ self.P[:, -1])  # ‖t⊥‖²

    def _exact(self, cols):
        """‖pᵢ‖² and pᵢᵀt computed from P, for the columns `cols` (all of them at the start)."""
        P = self.P[:, cols]
        pn, pt = np.einsum("ij,ij->j", P, P), P.T @ self.P[:, -1]
        if len(cols) == self.P.shape[1] - 1:
            self.pn, self.pt, self.pn_ref = pn, pt, pn.copy()
        else:
            self.pn[cols], self.pt[cols], self.pn_ref[cols] = pn, pt, pn

    def _downdate(self, row):
        """‖pᵢ‖² and pᵢᵀt after P ← P − q rowᵀ (q a unit vector along which pᵢ has the part
        rowᵢ): pn − row², pt − rowᵢ·row_t, in O(K) instead of O(NK) (see NORM_RECOMPUTE)."""
        self.pn -= row[:-1] ** 2
        self.pt -= row[:-1] * row[-1]
        self.tn -= row[-1] ** 2
        if self.tn < NORM_RECOMPUTE * self.tn_ref:
            self.tn = self.tn_ref = float(self.P[:, -1] @ self.P[:, -1])
            self.pt = self.P[:, :-1].T @ self.P[:, -1]
        self._exact(np.flatnonzero(self.pn < NORM_RECOMPUTE * self.pn_ref))

    def add(self, j):
        p = self.P[:, j]
        M = len(self.order)
        if np.sqrt(self.pn[j]) > SPAN_TOL:  # a new direction
            p = p - self.Q @ (self.Q.T @ p)
            q = p / np.linalg.norm(p)
            row = q @ self.P  # qᵀ[B, t] (q ⟂ Q)
            self.R = np.block(
                [[self.R, self.C[:, j : j + 1]], [np.zeros((1, M)), row[j]]]
            )
            self.Q, self.C = np.column_stack([self.Q, q]), np.vstack([self.C, row])
            blas.dger(
                -1.0, row, q, a=self.P.T, overwrite_a=1
            )  # P ← P − q rowᵀ, in place
            self._downdate(row)
        else:  # in the span already: no new row
            self.R = np.column_stack([self.R, self.C[:, j]])
        self.order.append(j)

    def delete(self, j):
        k = self.order.index(j)
        Rm = np.delete(self.R, k, axis=1)
        r, M = Rm.shape
        V, T = (
            qr(Rm, check_finite=False) if M else (np.eye(r), Rm)
        )  # VT = Rm, T trapezoidal
        self.Q, self.C = self.Q @ V, V.T @ self.C
        if M < r:  # the last direction leaves the span
            c = self.C[-1]
            blas.dger(1.0, c, self.Q[:, -1], a=self.P.T, overwrite_a=1)
            self.pn += c[:-1] ** 2  # sums of squares: no cancellation
            self.pt += c[:-1] * c[-1]
            self.tn += c[-1] ** 2
            self.Q, self.C, T = self.Q[:, :-1], self.C[:-1], T[:-1]
        self.R = T
        self.order.pop(k)
