"""Tipping & Faul's (2003) fast marginal-likelihood maximisation (Bishop §7.2.2).

The log evidence, as a function of one αᵢ with all others fixed, is ℓ(αᵢ) plus a constant, where
ℓ depends on the data only through the sparsity and quality factors sᵢ and qᵢ. Its maximiser
is known in closed form, so the algorithm adds, re-estimates or deletes one basis function at a
time, starting from the empty model.
"""

from __future__ import annotations

import numpy as np

from ..utils.validation import check_scalar
from ._loop_state import SBLFit, _check_loop_args, _initial_alpha, _normalise, _result, _Tracker
from ._sparse_bayes import PRUNE_ALPHA, _check_alpha, _posterior, _split

# β is held at its initial value for the first iterations, so that the first basis functions are
# added against a modest noise level rather than against β⁻¹ = ‖t‖²/N of the empty model (as in
# Tipping's SparseBayes software); from then on it is re-estimated before every change. (Not when
# the loop starts from a given model, `alpha0`: then β is re-estimated from the first iteration.)
BETA_UPDATE_START = 10
# A basis function is not added while its correlation with one in the model exceeds ALIGNMENT_MAX
# (SparseBayes' "alignment test"): duplicated inputs, and neighbours on a dense grid, would
# otherwise let re-estimation crawl along a ridge of the evidence for thousands of iterations.
ALIGNMENT_MAX = 1 - 1e-3
# A change that raises ln p(t) by less than MIN_GAIN nats (rounding level) is not worth making.
MIN_GAIN = 1e-9
# A basis function whose sᵢ = φᵢᵀC₋ᵢ⁻¹φᵢ is below S_MIN · β (on unit-norm columns, where φᵢᵀBφᵢ = β)
# is left as it is: sᵢ = φᵢᵀBφᵢ − ‖WΦᵀBφᵢ‖² has then lost its digits to cancellation, and its
# αᵢ = sᵢ²/θᵢ and gain would be noise. With β estimated (capped via NOISE_FLOOR) this does not
# happen in the book's fits; it can with a fixed β far beyond the cap (see MAX_DROP). (An sᵢ
# that cancels to exactly 0, αᵢ = 0, is caught by `new > 0`.)
S_MIN = 1e-12
# A change after which ln p(t) turns out lower (at the same β) by more than MAX_DROP · (1 + |ln p|),
# i.e. more than rounding, is undone and that candidate skipped until another change is kept. It
# happens only when sᵢ, qᵢ have lost their digits (a fixed β far beyond the NOISE_FLOOR cap);
# then the predicted gains are noise, and without this the loop wanders and lowers ln p.
MAX_DROP = 1e-9

__all__ = ["BETA_UPDATE_START", "ALIGNMENT_MAX", "MIN_GAIN", "S_MIN", "MAX_DROP", "sparsity_quality",
           "alpha_marginal", "optimal_alpha", "fit_sequential"]


def sparsity_quality(Phi, t, alpha, beta):
    """Sparsity and quality factors of every basis function (Tipping & Faul 2003; Bishop 7.98–7.103).

    Sᵢ = φᵢᵀC⁻¹φᵢ and Qᵢ = φᵢᵀC⁻¹t with C the covariance of the current model; sᵢ and qᵢ are
    the same with φᵢ left out of C: sᵢ = αᵢSᵢ/(αᵢ − Sᵢ), qᵢ = αᵢQᵢ/(αᵢ − Sᵢ) (sᵢ = Sᵢ, qᵢ = Qᵢ
    when αᵢ = inf). C⁻¹ = B − BΦΣΦᵀB is never formed.

    Returns
    -------
    s, q, S, Q : ndarrays of shape (M,)
    """
    Phi, t, alpha, beta, active = _split(Phi, t, alpha, beta)
    post = _posterior(Phi, t, alpha, beta, active)
    Pb = Phi * beta[:, None] if beta.ndim else beta * Phi
    return _factors(np.einsum("ij,ij->j", Pb, Phi), Pb.T @ t, Pb.T @ Phi[:, active], alpha,
                    np.flatnonzero(active), post)


def _factors(diag, proj, cross, alpha, act, post):
    """s, q, S, Q from φᵢᵀBφᵢ (K,), φᵢᵀBt (K,) and φᵢᵀBΦ (K, M) of the M basis functions `act`.

    S = φᵀBφ − ‖WΦᵀBφ‖² and Q = φᵀBt − φᵀBΦm, from C⁻¹ = B − BΦΣΦᵀB and Σ = WᵀW.
    """
    Z = post.W @ cross.T
    S = np.maximum(diag - np.einsum("ij,ij->j", Z, Z), 0.0)     # S = φᵀC⁻¹φ ≥ 0
    Q = proj - cross @ post.mean
    s, q = S.copy(), Q.copy()
    s[act], q[act] = _leave_one_out(alpha[act], S[act], Q[act], post)
    return s, q, S, Q


def _leave_one_out(a, S, Q, post):
    """sᵢ, qᵢ of basis functions in the model, by whichever formula is well conditioned.

    sᵢ = αᵢSᵢ/(αᵢ − Sᵢ) loses every digit when αᵢ ≪ sᵢ (a well-determined weight: Sᵢ ≈ αᵢ);
    there sᵢ = 1/Σᵢᵢ − αᵢ and qᵢ = mᵢ/Σᵢᵢ (from Σᵢᵢ⁻¹ = αᵢ + sᵢ, Tipping & Faul 2003) are exact.
    Switch at γᵢ = 1 − αᵢΣᵢᵢ = sᵢ/(αᵢ + sᵢ) = ½.
    """
    var = post.var
    well = a * var < 0.5
    s, q = np.empty(len(a)), np.empty(len(a))
    s[well], q[well] = 1.0 / var[well] - a[well], post.mean[well] / var[well]
    rest = ~well
    denom = a[rest] - S[rest]
    s[rest], q[rest] = a[rest] * S[rest] / denom, a[rest] * Q[rest] / denom
    return np.maximum(s, 0.0), q              # s = φᵀC₋ᵢ⁻¹φ ≥ 0 (clip rounding)


def _check_sq(s, q):
    s, q = np.asarray(s, float), np.asarray(q, float)
    if not np.all(np.isfinite(s) & (s >= 0)):
        raise ValueError("s must be finite and >= 0 (s = φᵀC₋ᵢ⁻¹φ); got NaN, inf or a negative value.")
    if not np.all(np.isfinite(q)):
        raise ValueError("q must be finite; got NaN or inf.")
    return s, q


def alpha_marginal(alpha, s, q):
    """ℓ(αᵢ) = ½[ln αᵢ − ln(αᵢ + sᵢ) + qᵢ²/(αᵢ + sᵢ)], the part of ln p(t) that depends on αᵢ.

    Bishop (7.97); ℓ(∞) = 0 (basis function left out). Broadcasts.
    """
    s, q = _check_sq(s, q)
    return _alpha_marginal(_check_alpha(np.asarray(alpha, float)), s, q)


def _alpha_marginal(alpha, s, q):
    alpha, s, q = np.broadcast_arrays(alpha, s, q)
    out = np.zeros(alpha.shape)
    fin = np.isfinite(alpha)
    a, ss = alpha[fin], s[fin]
    out[fin] = 0.5 * (-np.log1p(ss / a) + q[fin] ** 2 / (a + ss))
    return out[()] if out.ndim == 0 else out


def optimal_alpha(s, q):
    """The maximiser of ℓ(αᵢ): sᵢ²/(qᵢ² − sᵢ) if qᵢ² > sᵢ, else ∞ (Bishop 7.101)."""
    return _optimal_alpha(*_check_sq(s, q))


def _optimal_alpha(s, q):
    s, q = np.broadcast_arrays(s, q)
    theta = q**2 - s
    out = np.full(s.shape, np.inf)
    pos = theta > 0
    out[pos] = s[pos] ** 2 / theta[pos]
    return out[()] if out.ndim == 0 else out


def _cross(cols, act, K):
    """The cached columns Bᵀb_j of the basis functions in the model, side by side: (K, len(act))."""
    return np.column_stack([cols[j] for j in act]) if len(act) else np.zeros((K, 0))


def fit_sequential(Phi, t, beta0: float, *, fix_beta: bool = False, max_iter: int = 5000,
                   tol: float = 1e-3, alignment_max: float = ALIGNMENT_MAX,
                   alpha0=None) -> SBLFit:
    """Tipping & Faul's (2003) fast marginal-likelihood maximisation.

    Starts from the empty model (or from `alpha0`). Each iteration computes the sparsity and
    quality factors sᵢ, qᵢ of all K candidates (O(KM²) for M basis functions in the model, from
    cached columns ΦᵀB) and makes the single change — add (θᵢ = qᵢ² − sᵢ > 0, αᵢ = ∞),
    re-estimate αᵢ = sᵢ²/θᵢ, or delete (θᵢ ≤ 0) — that raises ln p(t) the most, by
    ℓ(α_new) − ℓ(α_old) (Bishop 7.97), skipping additions that fail the alignment test
    (`alignment_max`; ≥ 1 turns it off). The kind of each change is recorded in ``actions``.
    Unless `fix_beta`, β starts at `beta0` and is re-estimated before each change from
    iteration ``BETA_UPDATE_START`` on (from the first if `alpha0` is given). Converged, as in
    Tipping's SparseBayes, when no change raises ln p(t) by more than ``MIN_GAIN``, or the best
    one re-estimates an αᵢ by |Δ ln αᵢ| < `tol`, and |Δ ln β| < `tol`. A change that lowers
    ln p(t) by more than rounding (``MAX_DROP``; only when sᵢ, qᵢ have lost their digits to
    cancellation, at a fixed β far above the cap of the estimate) is undone, not recorded, and
    its candidate skipped until another change is kept.

    Parameters
    ----------
    Phi : array_like of shape (N, K)
    t : array_like of shape (N,)
    beta0 : float > 0
    alpha0 : None or array_like of shape (K,)
        Initial αᵢ in the units of `Phi` and `t`, ``inf`` for basis functions not in the model
        (e.g. another fit's ``alpha``, to start from its optimum); ``None``: the empty model.
    """
    Phi, t = _check_loop_args(Phi, t, beta0, fix_beta, max_iter, tol)
    check_scalar(alignment_max, "alignment_max", low=0, allow_inf=True)
    B, u, scale, c = _normalise(Phi, t)
    K = B.shape[1]
    nonzero = np.einsum("ij,ij->j", B, B)    # ‖b_j‖² = 1, or 0 for an all-zero column
    trk = _Tracker(B, u)
    alpha = np.full(K, np.inf) if alpha0 is None else _initial_alpha(alpha0, scale, c)
    act = np.flatnonzero(np.isfinite(alpha))
    cols = {j: B.T @ B[:, j] for j in act}   # j -> Bᵀb_j, computed once when j first enters
    beta_start = BETA_UPDATE_START if alpha0 is None else 1
    beta, history, actions, converged, it = float(beta0) * c**2, [], [], False, 0
    undo, blocked = None, np.zeros(K, bool)   # the last change, to revert; candidates reverted
    for it in range(1, max_iter + 1):
        cross = _cross(cols, act, K)
        trk.update(cross[act], act, alpha, beta)
        if undo is not None:                  # same β as when the change was chosen
            j, a_old, log_ev_old = undo
            if trk.log_ev < log_ev_old - MAX_DROP * (1 + abs(log_ev_old)):
                alpha[j], blocked[j] = a_old, True
                actions.pop()
                act = np.flatnonzero(np.isfinite(alpha))
                cross = _cross(cols, act, K)
                trk.update(cross[act], act, alpha, beta)
            else:
                blocked[:] = False
        d_log_beta = 0.0
        beta_free = not fix_beta and it >= beta_start
        if beta_free:
            beta_new = trk.beta_update()
            d_log_beta = abs(np.log(beta_new / beta))
            beta = beta_new
            trk.update(cross[act], act, alpha, beta)
        history.append(trk.log_ev)
        s, q, _, _ = _factors(beta * nonzero, beta * trk.Bt, beta * cross, alpha, act, trk.post)
        new = _optimal_alpha(s, q)
        new[new > PRUNE_ALPHA] = np.inf
        # sᵢ lost to cancellation (≈ 0 gives αᵢ = sᵢ²/θᵢ ≈ 0, not a precision): no change to i.
        lost = (s <= S_MIN * beta) | ~(new > 0)
        new[lost] = alpha[lost]
        gain = _alpha_marginal(new, s, q) - _alpha_marginal(alpha, s, q)
        gain[lost | np.isnan(gain)] = -np.inf
        if len(act):
            aligned = np.isinf(alpha) & (np.abs(cross).max(axis=1) > alignment_max)
            gain[aligned] = -np.inf
        gain[blocked] = -np.inf
        j = int(np.argmax(gain))
        small = np.isfinite(alpha[j]) and abs(np.log(new[j] / alpha[j])) < tol
        if (gain[j] <= MIN_GAIN or small) and d_log_beta < tol and (fix_beta or beta_free):
            converged = True
            break
        if np.isinf(alpha[j]) and j not in cols:
            cols[j] = B.T @ B[:, j]
        actions.append(_ACTION[bool(np.isfinite(alpha[j])), bool(np.isfinite(new[j]))])
        undo = (j, alpha[j], trk.log_ev)
        alpha[j] = new[j]
        act = np.flatnonzero(np.isfinite(alpha))
    cross = _cross(cols, act, K)
    trk.update(cross[act], act, alpha, beta)
    return _result(alpha, beta, act, trk, scale, c, it, converged, history, actions)


# (in the model before, in the model after) -> the kind of change
_ACTION = {(False, True): "add", (True, True): "re-estimate", (True, False): "delete",
           (False, False): "none"}
