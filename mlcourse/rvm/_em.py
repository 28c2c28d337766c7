"""The lecture's re-estimation loop over a design matrix Φ (N, K): αᵢ ← γᵢ/mᵢ² and
β⁻¹ ← ‖t − Φm‖²/(N − Σγᵢ), on the scaled problem and with the tracker of ``_loop_state``."""

from __future__ import annotations

import numpy as np

from ..utils.validation import check_scalar
from ._loop_state import (
    SBLFit,
    _check_loop_args,
    _initial_alpha,
    _normalise,
    _result,
    _Tracker,
)
from ._reestimate import _mackay

__all__ = ["fit_em"]


def fit_em(
    Phi,
    t,
    beta0: float,
    *,
    fix_beta: bool = False,
    alpha0=1.0,
    max_iter: int = 5000,
    tol: float = 1e-3,
) -> SBLFit:
    """The lecture's re-estimation loop: αᵢ ← γᵢ/mᵢ², β⁻¹ ← ‖t − Φm‖²/(N − Σγᵢ), pruning αᵢ → ∞.

    Lecture 001 / Bishop (7.87)–(7.88) ("em" in :class:`RVMRegressor`; strictly it is MacKay's
    fixed-point update, not EM). Converged when no α is pruned and every |Δ ln αᵢ| and
    |Δ ln β| < `tol`.

    Parameters
    ----------
    Phi : array_like of shape (N, K)
    t : array_like of shape (N,)
    beta0 : float > 0
        Initial noise precision (kept if `fix_beta`).
    alpha0 : float > 0 or array_like of shape (K,)
        A float: every basis function starts in the model with αᵢ = `alpha0` on unit-norm
        columns and unit-RMS targets (scale free). An array: the initial αᵢ in the units of `Phi`
        and `t`, ``inf`` for basis functions left out (e.g. another fit's ``alpha``, to start
        from its optimum); the loop can prune but never add.
    max_iter : int ≥ 1
    tol : float ≥ 0
    """
    Phi, t = _check_loop_args(Phi, t, beta0, fix_beta, max_iter, tol)
    B, u, scale, c = _normalise(Phi, t)
    if np.ndim(alpha0) == 0:
        check_scalar(alpha0, "alpha0", low=0, low_inclusive=False)
        alpha = np.full(B.shape[1], float(alpha0))
    else:
        alpha = _initial_alpha(alpha0, scale, c)
    G = B.T @ B
    trk = _Tracker(B, u)
    beta, history, converged, it = float(beta0) * c**2, [], False, 0
    for it in range(1, max_iter + 1):
        act = np.flatnonzero(np.isfinite(alpha))
        trk.update(act, alpha, beta, gram=G[np.ix_(act, act)])
        history.append(trk.log_ev)
        new, _ = _mackay(alpha[act], trk.post)
        beta_new = beta if fix_beta else trk.beta_update()
        kept = np.isfinite(new)
        change = np.abs(np.log(new[kept] / alpha[act][kept]))
        converged = (
            kept.all()
            and (change.max(initial=0.0) < tol)
            and abs(np.log(beta_new / beta)) < tol
        )
        alpha[act], beta = new, beta_new
        if converged:
            break
    act = np.flatnonzero(np.isfinite(alpha))
    trk.update(act, alpha, beta, gram=G[np.ix_(act, act)])
    return _result(alpha, beta, act, trk, scale, c, it, converged, history)
