"""Tipping & Faul's (2003) fast marginal-likelihood maximisation (Bishop §7.2.2).

The log evidence, as a function of one αᵢ with all others fixed, is ℓ(αᵢ) plus a constant, where
ℓ depends on the data only through the sparsity and quality factors sᵢ and qᵢ. Its maximiser
is known in closed form, so the algorithm adds, re-estimates or deletes one basis function at a
time, starting from the empty model.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import qr

from ..utils.validation import check_scalar
from ._loop_state import (
    SBLFit,
    _check_loop_args,
    _initial_alpha,
    _normalise,
    _result,
    _Tracker,
)
from ._span import _Span
from ._sparse_bayes import (
    PRUNE_ALPHA,
    _check_alpha,
    _covariance_root,
    _posterior,
    _split,
    _tri_solve,
)

# β is held at its initial value for the first iterations, so that the first basis functions are
# added against a modest noise level rather than against β⁻¹ = ‖t‖²/N of the empty model; from
# then on it is re-estimated before every change. (Tipping's SparseBayes instead re-estimates β
# in each of its first 10 iterations and every 5th after that.) Not when the loop starts from a
# given model, `alpha0`: then β is re-estimated from the first iteration.
BETA_UPDATE_START = 10
# The starting β (the regressor's: noise 0.1·std t, as SparseBayes) is a guess. Where the signal
# can only be built from several nearly collinear basis functions (the linear spline far from 0:
# every column correlates above 0.9999 with every other on [80, 100]), no single one of them
# raises the evidence at that noise once the first is in: the loop idled at one basis function,
# and the first β update then read the whole signal as noise (σ = 0.35 on the noise-free sinc),
# a local maximum 580 nats below the fit. So while β is held and no change is worth making, the
# held noise variance is lowered HOLD_STEP-fold (at most to the noise floor) and the hold starts
# again: β is re-estimated from BETA_UPDATE_START iterations after the last lowering on. Data
# with noise above the guess never idle here (at too small a noise every column explains some
# of it), so their fits are unchanged.
HOLD_STEP = 10.0
# SparseBayes' alignment test holds back a candidate whose correlation with a basis function in
# the model exceeds ALIGNMENT_MAX: near-duplicates (neighbours on a dense grid, repeated inputs)
# would otherwise form pairs whose re-estimation crawls along a nearly flat ridge of the evidence
# for thousands of iterations. Correlation alone cannot tell such a pair from a useful one: for
# the linear-spline kernel on inputs ≥ 0 most columns correlate above 0.999 (on [10, 30] two
# pairs in three, on [100, 120] all), and the test held back nearly every addition (the fit
# stopped 10⁴ nats below the re-estimation loop's). So a candidate correlated above
# ALIGNMENT_MAX with model function j is held back only if the data cannot tell it from j:
# moving j's weight onto it would change the fit by less than ALIGNMENT_Z noise
# standard deviations, √β·|mⱼ|·‖φ̂ᵢ − φ̂ⱼ‖ < ALIGNMENT_Z (three sigma), and adding it would raise
# ln p by less than ALIGNMENT_GAIN = 1 nat (a factor e in the evidence is worth a pair). Both
# exceptions measure against the noise level in use, held or estimated (with SparseBayes' plain
# test while β was held, the spline on [30, 50] kept one basis function, and its first β update
# read the signal as noise, 590 nats below the fit).
ALIGNMENT_MAX = 1 - 1e-3
ALIGNMENT_Z = 3.0
ALIGNMENT_GAIN = 1.0
# ln p(t) is a sum of terms as large as βN (N ln β, and tᵀC⁻¹t ≤ β‖t‖² = βN on the loop's
# unit-RMS targets), each accurate to a few ε, so it is known to about MAX_DROP·(|ln p| + βN),
# MAX_DROP = 1e-15 ≈ 5ε. A change predicted to raise ln p by less than that plus MIN_GAIN = 1e-9
# nats (a floor for ln p near 0, where the relative bound vanishes) is not worth making; a change
# after which ln p turns out lower (at the same β) by more than that is undone and its candidate
# skipped until another change is kept (a safeguard: sᵢ and qᵢ are computed without
# cancellation, see _factors, so the predicted gains hold to rounding).
MIN_GAIN = 1e-9
MAX_DROP = 1e-15
# Additions first, while the model grows: until the first iteration in which no addition raises
# ln p by more than rounding, the best addition is made before any re-estimation or deletion
# (SparseBayes' PriorityAddition option); from then on, the change of largest gain. Taking the
# largest gain from the start lets the loop re-estimate a few basis functions into a local
# maximum before the rest are tried: on the wide RBF (γ = 1/100, 500 noisy sinc points) it spent
# 1,069 of 1,224 iterations re-estimating and stopped 240 nats below the re-estimation loop, with
# β fixed at the true noise (with β estimated, 263 below EM and 400 below where it now ends).
# Keeping additions first to the end reaches the same maxima with twice the iterations on easy
# problems (every addition costs O(NK), see _Span): on 1,000 sinc points, 113 against 46.
# The first basis function. In the empty model every unit-norm column has sᵢ = β, so the first
# addition is the column most correlated with t; the bias column often is, and then it can be
# a trap. Once the bias is in, a kernel column adds only its part outside the constant, and
# where every kernel column is nearly constant plus a smooth part (the linear spline far from 0:
# on [80, 100] each correlates above 0.995 with the bias) none of those parts alone explains
# the residual: θᵢ = qᵢ² − sᵢ < 0 for every candidate, a local maximum of the
# evidence with the bias alone (on [100, 120] with σ = 0.01 fixed, 6e4 nats below the 9-vector
# fit). A kernel column first did not trap any fit we tested (both kernels, inputs moved over
# their valid range; even the linear spline's column at x = 0, which is constant, is a good
# first choice on [0, 20]), and the bias can still join from the second addition on. So the
# regressor's bias column joins the empty model only if no other column gains (`not_first`).

__all__ = [
    "BETA_UPDATE_START",
    "HOLD_STEP",
    "ALIGNMENT_MAX",
    "ALIGNMENT_Z",
    "ALIGNMENT_GAIN",
    "MIN_GAIN",
    "MAX_DROP",
    "sparsity_quality",
    "alpha_marginal",
    "optimal_alpha",
    "fit_sequential",
]


def sparsity_quality(Phi, t, alpha, beta):
    """Sparsity and quality factors of every basis function.

    Tipping & Faul (2003); Bishop (7.98)–(7.103).

    Sᵢ = φᵢᵀC⁻¹φᵢ and Qᵢ = φᵢᵀC⁻¹t with C the covariance of the current model; sᵢ and qᵢ are
    the same with φᵢ left out of C: sᵢ = αᵢSᵢ/(αᵢ − Sᵢ), qᵢ = αᵢQᵢ/(αᵢ − Sᵢ) (sᵢ = Sᵢ, qᵢ = Qᵢ
    when αᵢ = inf). C is never formed: see :func:`_factors`.

    Returns
    -------
    s, q, S, Q : ndarrays of shape (M,)
    """
    Phi, t, alpha, beta, active = _split(Phi, t, alpha, beta)
    post = _posterior(Phi, t, alpha, beta, active)
    rb = np.sqrt(beta)
    Pb = np.column_stack([Phi, t]) * (rb[:, None] if beta.ndim else rb)  # B^½[Φ, t]
    act = np.flatnonzero(active)
    Q, R = qr(Pb[:, act], mode="economic", check_finite=False)
    C = Q.T @ Pb
    P = Pb - Q @ C
    T, y, _ = _covariance_root(R, C[:, -1], alpha[act])
    return _factors(
        np.einsum("ij,ij->j", P[:, :-1], P[:, :-1]),
        P[:, :-1].T @ P[:, -1],
        C[:, :-1],
        T,
        y,
        alpha,
        act,
        post,
    )


def _factors(pn, pt, C, T, y, alpha, act, post):
    """s, q, S, Q of every basis function, in the square-root form of :func:`_covariance_root`.

    Sᵢ = ‖pᵢ‖² + ‖T⁻ᵀcᵢ‖² and Qᵢ = pᵢᵀt + (T⁻ᵀcᵢ)ᵀy (B = βI absorbed: pᵢ, cᵢ are the parts of
    √βφᵢ outside and inside the span of the model). Both parts of Sᵢ are non-negative, so it
    keeps its digits when φᵢ is nearly in the span of well-determined basis functions (the
    linear-spline kernel far from 0), where φᵢᵀBφᵢ − ‖WΦᵀBφᵢ‖² loses all of them.

    Parameters
    ----------
    pn, pt : ndarrays of shape (K,)
        ‖pᵢ‖² and pᵢᵀt.
    C : ndarray of shape (r, K)
        cᵢ, the coordinates of each √βφᵢ in an orthonormal basis of the span.
    T, y : ndarrays of shape (r, r) and (r,)
        From :func:`_covariance_root`.
    """
    S, Q = pn.copy(), pt.copy()
    if len(y):
        Y = _tri_solve(T, C, trans=1)
        S += np.einsum("ij,ij->j", Y, Y)
        Q += Y.T @ y
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
    return np.maximum(s, 0.0), q  # s = φᵀC₋ᵢ⁻¹φ ≥ 0 (clip rounding)


def _check_sq(s, q):
    s, q = np.asarray(s, float), np.asarray(q, float)
    if not np.all(np.isfinite(s) & (s >= 0)):
        raise ValueError(
            "s must be finite and >= 0 (s = φᵀC₋ᵢ⁻¹φ); got NaN, inf or a negative value."
        )
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


def _check_columns(cols, K, name):
    """Column indices in [0, K), as an int array; a ValueError naming `name` otherwise."""
    idx = np.asarray(cols).ravel()
    if idx.size and (idx.dtype.kind not in "iu" or idx.min() < 0 or idx.max() >= K):
        raise ValueError(f"{name} must hold column indices in [0, {K}); got {cols!r}.")
    return idx.astype(int)


def fit_sequential(
    Phi,
    t,
    beta0: float,
    *,
    fix_beta: bool = False,
    max_iter: int = 5000,
    tol: float = 1e-3,
    alignment_max: float = ALIGNMENT_MAX,
    alpha0=None,
    not_first=(),
) -> SBLFit:
    """Tipping & Faul's (2003) fast marginal-likelihood maximisation.

    Starts from the empty model (or from `alpha0`); the columns `not_first` (the bias, in
    :class:`RVMRegressor`) are not the first addition unless no other column gains (see the
    module's note on the first basis function). Each iteration computes the sparsity and
    quality factors sᵢ, qᵢ of all K candidates (O(KM²) for M basis functions in the model, from
    the model's span kept as a QR factorisation, :class:`_Span`; O(NK) more for each addition or
    deletion) and makes one change — add (θᵢ = qᵢ² − sᵢ > 0, αᵢ = ∞), re-estimate
    αᵢ = sᵢ²/θᵢ, or delete (θᵢ ≤ 0): the addition that raises ln p(t) the most, by
    ℓ(α_new) − ℓ(α_old) (Bishop 7.97), while the model grows (until the first iteration in which
    no addition raises it beyond rounding), else the change of any kind that raises it the most.
    Additions that fail the alignment test (a correlation above `alignment_max` with a basis
    function in the model that the data cannot tell apart from it, see ``ALIGNMENT_Z``; ≥ 1
    turns the test off) are held back. The kind of each change is recorded in ``actions``.
    Unless `fix_beta`, β starts at `beta0`, is held
    there (or lowered ``HOLD_STEP``-fold in noise while no change is worth making, the hold then
    starting again) and re-estimated before each change from iteration ``BETA_UPDATE_START`` of
    the hold on (from the first if `alpha0` is given). Converged, as
    in Tipping's SparseBayes, when no change raises ln p(t) by more than rounding (``MIN_GAIN``,
    ``MAX_DROP``), or the best one re-estimates an αᵢ by |Δ ln αᵢ| < `tol`, and |Δ ln β| < `tol`.
    A change after which ln p(t) is lower by more than rounding is undone, not recorded, and its
    candidate skipped until another change is kept.

    Parameters
    ----------
    Phi : array_like of shape (N, K)
    t : array_like of shape (N,)
    beta0 : float > 0
    alpha0 : None or array_like of shape (K,)
        Initial αᵢ in the units of `Phi` and `t`, ``inf`` for basis functions not in the model
        (e.g. another fit's ``alpha``, to start from its optimum); ``None``: the empty model.
    not_first : array_like of int
        Columns that may join the empty model only if no other column raises the evidence.
    """
    Phi, t = _check_loop_args(Phi, t, beta0, fix_beta, max_iter, tol)
    check_scalar(alignment_max, "alignment_max", low=0, allow_inf=True)
    B, u, scale, c = _normalise(Phi, t)
    K = B.shape[1]
    trk, span = _Tracker(B, u), _Span(B, u)
    alpha = np.full(K, np.inf)

    def change(j, value):  # αⱼ ← value, the span kept in step
        if np.isinf(alpha[j]) and np.isfinite(value):
            span.add(j)
        elif np.isfinite(alpha[j]) and np.isinf(value):
            span.delete(j)
        alpha[j] = value

    def refresh():  # the posterior at the current α, β
        t_out = span.P[:, K]
        trk.update(
            span.order, alpha, beta, root=(span.R, span.C[:, K], float(t_out @ t_out))
        )

    def rounding(log_ev):  # how well ln p is known (see MAX_DROP)
        return MAX_DROP * (abs(log_ev) + beta * trk.n)

    start = np.full(K, np.inf) if alpha0 is None else _initial_alpha(alpha0, scale, c)
    for j in np.flatnonzero(np.isfinite(start)):
        change(j, start[j])
    beta = float(beta0) * c**2
    beta_start = BETA_UPDATE_START if alpha0 is None else 1
    cap = max(1.0 / trk.floor, beta)  # the highest β the held noise is lowered to
    history, actions, converged, it = [], [], False, 0
    undo, blocked = (
        None,
        np.zeros(K, bool),
    )  # the last change, to revert; candidates reverted
    late = np.zeros(K, bool)
    growing = True  # no iteration yet without an addition worth making
    late[_check_columns(not_first, K, "not_first")] = True
    for it in range(1, max_iter + 1):
        refresh()
        if undo is not None:  # same β as when the change was chosen
            j, a_old, log_ev_old = undo
            if trk.log_ev < log_ev_old - rounding(log_ev_old):
                change(j, a_old)
                blocked[j] = True
                actions.pop()
                refresh()
            else:
                blocked[:] = False
        d_log_beta = 0.0
        beta_free = not fix_beta and it >= beta_start
        if beta_free:
            beta_new = trk.beta_update()
            d_log_beta = abs(np.log(beta_new / beta))
            beta = beta_new
            refresh()
        history.append(trk.log_ev)
        act, sb = span.order, np.sqrt(beta)
        s, q, _, _ = _factors(
            beta * span.pn,
            beta * span.pt,
            sb * span.C[:, :K],
            trk.T,
            trk.y,
            alpha,
            act,
            trk.post,
        )
        new = _optimal_alpha(s, q)
        new[new > PRUNE_ALPHA] = np.inf
        lost = ~(new > 0)  # s = 0: an all-zero column
        new[lost] = alpha[lost]
        gain = _alpha_marginal(new, s, q) - _alpha_marginal(alpha, s, q)
        gain[lost | np.isnan(gain)] = -np.inf
        if len(act):  # the alignment test (see ALIGNMENT_Z)
            corr = np.abs(span.R.T @ span.C[:, :K])  # |φ̂ⱼᵀφ̂ᵢ|, model j × candidate i
            near = np.argmax(corr, axis=0)
            rho = corr[near, np.arange(K)]
            shift = (
                sb
                * np.abs(trk.post.mean[near])
                * np.sqrt(2.0 * np.maximum(1.0 - rho, 0.0))
            )
            held = (
                np.isinf(alpha)
                & (rho > alignment_max)
                & (shift < ALIGNMENT_Z)
                & (gain < ALIGNMENT_GAIN)
            )
            gain[held] = -np.inf
        gain[blocked] = -np.inf
        if not len(act) and np.any(gain[~late] > 0):  # see "the first basis function"
            gain[late] = -np.inf
        worth = MIN_GAIN + rounding(
            trk.log_ev
        )  # a change that gains less is not worth making
        adds = np.isinf(alpha) & (gain > worth)
        if adds.any() and growing:  # additions first (see the note below MAX_DROP)
            gain[~adds] = -np.inf
        elif len(act):
            growing = False
        j = int(np.argmax(gain))
        small = np.isfinite(alpha[j]) and abs(np.log(new[j] / alpha[j])) < tol
        idle = gain[j] <= worth or small
        if idle and not (fix_beta or beta_free) and beta < cap:  # see HOLD_STEP
            beta = min(HOLD_STEP * beta, cap)
            beta_start = it + 1 + BETA_UPDATE_START
            actions.append("lower noise")
            undo = None
            continue
        if idle and d_log_beta < tol and (fix_beta or beta_free):
            converged = True
            break
        actions.append(_ACTION[bool(np.isfinite(alpha[j])), bool(np.isfinite(new[j]))])
        undo = (j, alpha[j], trk.log_ev)
        change(j, new[j])
    refresh()
    return _result(
        alpha,
        beta,
        np.array(span.order, dtype=int),
        trk,
        scale,
        c,
        it,
        converged,
        history,
        actions,
    )


# (in the model before, in the model after) -> the kind of change
_ACTION = {
    (False, True): "add",
    (True, True): "re-estimate",
    (True, False): "delete",
    (False, False): "none",
}
