"""The evidence-maximisation loops of the RVM, side by side: regression and classification, each
by re-estimation ("em") and by Tipping & Faul's sequential algorithm ("fast"), over any design
matrix Φ (N, K).

* :func:`fit_em` — the lecture's re-estimation αᵢ ← γᵢ/mᵢ², β⁻¹ ← ‖t − Φm‖²/(N − Σγᵢ);
* :func:`fit_sequential` — one basis function added, re-estimated or deleted at a time (its
  state: ``_evidence._SequentialFit``);
* :func:`fit_em_classifier`, :func:`fit_sequential_classifier` — the same two at the mode of the
  Laplace approximation (``_laplace_step``), whose equivalent Gaussian problem the regression
  rules serve unchanged (Tipping 2001 §3; Tipping & Faul 2003 §4).

The regression loops work on unit-norm columns and unit-RMS targets (``_evidence._ScaledEvidence``)
and the classification loops on unit-norm columns (labels need no scaling); every result is
returned in the original scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..utils.validation import (
    check_array,
    check_bool,
    check_consistent_length,
    check_option,
    check_scalar,
)
from ._evidence import (
    PRUNE_ALPHA,
    EvidenceFit,
    SBLFit,
    _best,
    _changes,
    _check_alpha,
    _mackay,
    _ScaledEvidence,
    _SequentialFit,
    _worth,
)
from ._laplace_step import (
    LaplacePosterior,
    _candidate_factors,
    _check_targets,
    _laplace,
)

__all__ = [
    "ClassifierFit",
    "fit_em",
    "fit_sequential",
    "fit_em_classifier",
    "fit_sequential_classifier",
]

# --- regression ---------------------------------------------------------------------------------


def _check_loop_args(Phi, t, beta0, fix_beta, max_iter, tol):
    """Validate the arguments shared by fit_em and fit_sequential (once, before the loop)."""
    Phi = check_array(Phi, "Phi")
    t = check_array(t, "t", ndim=1)
    check_consistent_length(Phi=Phi, t=t)
    check_scalar(beta0, "beta0", low=0, low_inclusive=False)
    check_bool(fix_beta, "fix_beta")
    check_scalar(max_iter, "max_iter", low=1, integer=True)
    check_scalar(tol, "tol", low=0)
    return Phi, t


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
    fix_beta : bool, default=False
    alpha0 : float > 0 or array_like of shape (K,), default=1.0
        A float: every basis function starts in the model with αᵢ = `alpha0` on unit-norm
        columns and unit-RMS targets (scale free). An array: the initial αᵢ in the units of `Phi`
        and `t`, ``inf`` for basis functions left out (e.g. another fit's ``alpha``, to start
        from its optimum); the loop can prune but never add.
    max_iter : int ≥ 1, default=5000
    tol : float ≥ 0, default=1e-3

    Returns
    -------
    SBLFit

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.datasets import sinc_data
    >>> from mlcourse.kernels import rbf
    >>> from mlcourse.rvm import fit_em
    >>> X, t = sinc_data(50, 0.1, random_state=0)
    >>> fit = fit_em(rbf(X, gamma=1 / 9), t, beta0=100.0)
    >>> fit.converged, len(fit.active), round(float(1 / np.sqrt(fit.beta)), 2)
    (True, 6, 0.07)
    """
    Phi, t = _check_loop_args(Phi, t, beta0, fix_beta, max_iter, tol)
    if np.ndim(alpha0) == 0:
        check_scalar(alpha0, "alpha0", low=0, low_inclusive=False)
    ev = _ScaledEvidence(Phi, t)
    if np.ndim(alpha0) == 0:
        alpha = np.full(ev.B.shape[1], float(alpha0))
    else:
        alpha = ev.initial_alpha(alpha0)
    G = ev.B.T @ ev.B
    beta, history, converged, it = float(beta0) * ev.c**2, [], False, 0
    for it in range(1, max_iter + 1):
        act = np.flatnonzero(np.isfinite(alpha))
        ev.update(act, alpha, beta, gram=G[np.ix_(act, act)])
        history.append(ev.log_ev)
        new, _ = _mackay(alpha[act], ev.post)
        beta_new = beta if fix_beta else ev.beta_update()
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
    ev.update(act, alpha, beta, gram=G[np.ix_(act, act)])
    return ev.result(alpha, beta, act, it, converged, history)


# β is held at its start for the first _BETA_UPDATE_START iterations (SparseBayes re-estimates it
# in each of its first 10), so that the first basis functions meet a modest noise level, not the
# ‖t‖²/N of the empty model (fit_sequential's Notes).
_BETA_UPDATE_START = 10
# The alignment test's threshold on the correlation of two basis functions (SparseBayes' value).
_ALIGNMENT_MAX = 1 - 1e-3


def fit_sequential(
    Phi,
    t,
    beta0: float,
    *,
    fix_beta: bool = False,
    max_iter: int = 5000,
    tol: float = 1e-3,
    alignment_max: float = _ALIGNMENT_MAX,
    alpha0=None,
    not_first=(),
) -> SBLFit:
    """Tipping & Faul's (2003) fast marginal-likelihood maximisation (Bishop §7.2.2).

    The log evidence as a function of one αᵢ, all others fixed, is ℓ(αᵢ) plus a constant, and ℓ
    depends on the data only through the sparsity and quality factors sᵢ, qᵢ
    (:func:`sparsity_quality`); its maximiser is known in closed form (:func:`optimal_alpha`).
    So each iteration makes one change, starting from the empty model (or from `alpha0`): add
    (θᵢ = qᵢ² − sᵢ > 0, αᵢ = ∞), re-estimate αᵢ = sᵢ²/θᵢ, or delete (θᵢ ≤ 0) — the one that
    raises ln p(t) the most, by ℓ(α_new) − ℓ(α_old) (Bishop 7.97). Unless `fix_beta`, β is
    re-estimated before each change. Converged, as in Tipping's SparseBayes, when no change raises
    ln p(t) by more than rounding, or the best one re-estimates an αᵢ by |Δ ln αᵢ| < `tol`, and
    |Δ ln β| < `tol`. A change after which ln p(t) is lower by more than rounding is undone, not
    recorded in ``actions``, and its candidate skipped until another change is kept.

    Parameters
    ----------
    Phi : array_like of shape (N, K)
    t : array_like of shape (N,)
    beta0 : float > 0
        The starting noise precision.
    fix_beta : bool, default=False
        Keep β = `beta0`.
    max_iter : int ≥ 1, default=5000
        Changes considered (one per iteration).
    tol : float ≥ 0, default=1e-3
    alignment_max : float ≥ 0, default=1 − 1e-3
        Candidates correlated above this with a basis function in the model that the data
        cannot tell apart from it are not added (see Notes); ≥ 1 turns the test off.
    alpha0 : None or array_like of shape (K,), default=None
        Initial αᵢ in the units of `Phi` and `t`, ``inf`` for basis functions not in the model
        (e.g. another fit's ``alpha``, to start from its optimum); ``None``: the empty model.
    not_first : array_like of int, default=()
        Columns that may join the empty model only if no other column raises the evidence.

    Returns
    -------
    SBLFit
        With the kind of each change in ``actions``.

    Notes
    -----
    Each iteration costs O(KM²) for M basis functions in the model, from the model's span kept
    as a QR factorisation (``_Span``), and O(NK) more for an addition or a deletion; a tall
    design (N > K + 1) is first rotated onto the K + 1 rows of the R of [Φ, t] (same Gram
    matrix), so that an addition or a deletion costs O(K²) after one O(NK²) QR. Four
    departures from the plain algorithm, each needed by a fit in the book:

    * **Additions first.** Until the first iteration in which no addition gains, the best
      addition is made before any re-estimation or deletion (SparseBayes' PriorityAddition).
      Taking the largest gain from the start re-estimated a few basis functions into a local
      maximum (240 nats below the re-estimation loop on a wide RBF kernel).
    * **The held noise.** β starts at `beta0` and is held there for 10 iterations (from the first
      if `alpha0` is given), so the first basis functions meet a modest noise level. Where the
      signal can only be built from several nearly collinear basis functions (the linear spline
      far from 0), no single one raises the evidence at that noise and the loop idles; then the
      held noise variance is lowered tenfold (at most to the noise floor) and the hold starts
      again. Otherwise the first β update read the whole signal as noise.
    * **The alignment test.** A candidate whose correlation with a basis function j in the
      model exceeds `alignment_max` is held back only if the data cannot tell it from j: moving
      j's weight onto it would change the fit by less than 3 noise standard deviations, and
      adding it would raise ln p by less than 1 nat. Near-duplicates (a dense grid) would
      otherwise crawl along flat ridges of the evidence; SparseBayes' plain correlation test
      held back nearly every addition of the linear spline, whose columns all correlate.
    * **The first basis function.** In the empty model the first addition is the column most
      correlated with t; the bias column can be a trap there (once it is in, no kernel column's
      part outside the constant explains the residual), so the columns `not_first` join the
      empty model only if no other column gains.

    Examples
    --------
    From the empty model, with a bias column that may not come first (as in RVMRegressor):

    >>> from mlcourse.datasets import sinc_data
    >>> from mlcourse.kernels import design_matrix
    >>> from mlcourse.rvm import fit_sequential
    >>> X, t = sinc_data(50, 0.1, random_state=0)
    >>> Phi = design_matrix(X, "rbf", X, bias=True, bias_last=True)  # γ = 1
    >>> fit = fit_sequential(Phi, t, 100.0, not_first=[50])
    >>> fit.converged, fit.actions.count("add"), len(fit.active)
    (True, 12, 10)
    """
    Phi, t = _check_loop_args(Phi, t, beta0, fix_beta, max_iter, tol)
    check_scalar(alignment_max, "alignment_max", low=0, allow_inf=True)
    fit = _SequentialFit(Phi, t, beta0, alpha0, not_first, alignment_max)
    beta_start = _BETA_UPDATE_START if alpha0 is None else 1  # β is held until then
    converged, it = False, 0
    for it in range(1, max_iter + 1):
        fit.refresh()
        fit.undo_if_lower()
        held = not fix_beta and it < beta_start
        d_log_beta = 0.0 if fix_beta or held else fit.update_beta()
        fit.history.append(fit.ev.log_ev)
        worth = _worth(fit.ev.log_ev, fit.beta * fit.ev.n)
        new, gain = fit.gains(worth)
        j, idle, action = _best(fit.alpha, new, gain, worth, tol)
        if idle and held and fit.beta < fit.cap:  # lower the held noise, hold again
            fit.lower_noise()
            beta_start = it + 1 + _BETA_UPDATE_START
        elif idle and d_log_beta < tol and not held:
            converged = True
            break
        else:
            fit.change(j, new[j], action)
    return fit.result(it, converged)


# --- classification -----------------------------------------------------------------------------

_RULES = ("mackay", "em")


@dataclass
class ClassifierFit(EvidenceFit):
    """Result of an evidence maximisation for classification: :class:`EvidenceFit` with α of
    shape (M,), or (K, M) for the softmax, the Laplace mode w* as ``mean`` and the Laplace
    estimate of ln p(t | α) as ``log_evidence``."""

    @property
    def weights(self) -> np.ndarray:
        """All weights, of the shape of ``alpha``: w* in the model, 0 elsewhere."""
        w = np.zeros(self.alpha.size)
        w[self.active] = self.mean
        return w.reshape(self.alpha.shape)


def _setup(Phi, t, max_iter, tol):
    """Validated Φ on unit-norm columns, the targets, the column norms and K′ (1 or K)."""
    Phi = check_array(Phi, "Phi")
    T = _check_targets(Phi, t)
    check_scalar(max_iter, "max_iter", low=1, integer=True)
    check_scalar(tol, "tol", low=0)
    norms = np.sqrt(np.einsum("ij,ij->j", Phi, Phi))
    scale = np.where(norms > 0, norms, 1.0)
    return Phi / scale, T, scale, 1 if T.ndim == 1 else T.shape[1]


def _result(
    alpha, lp: LaplacePosterior, scale, squeeze, n_iter, converged, history, actions=()
):
    """Back to the original scale: αᵢ = α̃ᵢ‖φᵢ‖², wᵢ = w̃ᵢ/‖φᵢ‖, W (Σ = WᵀW) likewise."""
    full_scale = np.broadcast_to(scale, alpha.shape).ravel()
    active = np.flatnonzero(np.isfinite(alpha).ravel())
    s = full_scale[active]
    out = alpha * scale**2
    history.append(lp.log_evidence)
    return ClassifierFit(
        out[0] if squeeze else out,
        active,
        lp.mean / s,
        lp.W / s[None, :],
        lp.log_evidence,
        n_iter,
        bool(converged),
        history,
        list(actions),
    )


def _weights(alpha, lp):
    """The mode as an array of the shape of α (0 for weights outside the model): a warm start."""
    W = np.zeros(alpha.shape)
    W[np.isfinite(alpha)] = lp.mean
    return W


def fit_em_classifier(
    Phi, t, *, rule: str = "mackay", alpha0=1.0, max_iter: int = 1000, tol: float = 1e-3
) -> ClassifierFit:
    """Re-estimate every α at the Laplace mode until it settles (lecture 000; Tipping 2001 §3).

    Each iteration finds w* and Σ at the current α (Newton, warm started), then
    ``rule="mackay"``: αᵢ ← γᵢ/wᵢ*², γᵢ = 1 − αᵢΣᵢᵢ (lecture 000; as :func:`fit_em`), or
    ``rule="em"``: αᵢ ← 1/(wᵢ*² + Σᵢᵢ) (lecture 002's σ²_wᵢ = wᵢ*² + Σᵢᵢ, the M-step of EM with
    w as hidden data). Both have the same fixed points. αᵢ above ``PRUNE_ALPHA`` (on unit-norm
    columns) are pruned. Converged when nothing was pruned and every |Δ ln αᵢ| < `tol`.

    Parameters
    ----------
    Phi : array_like of shape (N, M)
    t : array_like of shape (N,) or (N, K)
        0/1 labels (sigmoid), or one-hot rows (softmax: one α per weight per class).
    rule : {"mackay", "em"}
    alpha0 : float > 0 or array_like of the shape of α
        A float: every weight starts in the model with α̃ᵢ = `alpha0` on unit-norm columns. An
        array: the initial α in the units of `Phi` (``inf`` leaves a weight out; the loop can
        prune but never add).
    max_iter : int ≥ 1
    tol : float ≥ 0
    """
    B, T, scale, K = _setup(Phi, t, max_iter, tol)
    rule = check_option(rule, "rule", _RULES)
    shape = (K, B.shape[1])
    if np.ndim(alpha0) == 0:
        check_scalar(alpha0, "alpha0", low=0, low_inclusive=False)
        alpha = np.full(shape, float(alpha0))
    else:
        a0 = np.asarray(alpha0, float)
        if a0.size != np.prod(shape):
            raise ValueError(
                f"alpha0 must be a scalar or have {np.prod(shape)} entries; "
                f"got shape {a0.shape}."
            )
        alpha = _check_alpha(a0.reshape(shape), "alpha0") / scale**2
    W, history, converged, it = np.zeros(shape), [], False, 0
    for it in range(1, max_iter + 1):
        lp = _laplace(B, T, alpha, W)
        history.append(lp.log_evidence)
        free = np.isfinite(alpha)
        a = alpha[free]
        if rule == "mackay":
            new, _ = _mackay(a, lp)
        else:
            new = 1.0 / (lp.mean**2 + lp.var)
            new[new > PRUNE_ALPHA] = np.inf
        kept = np.isfinite(new)
        change = np.abs(np.log(new[kept] / a[kept]))
        converged = kept.all() and change.max(initial=0.0) < tol
        W = _weights(alpha, lp)
        alpha[free] = new
        W[~np.isfinite(alpha)] = 0.0
        if converged:
            break
    lp = _laplace(B, T, alpha, W)
    return _result(alpha, lp, scale, K == 1 and T.ndim == 1, it, converged, history)


def fit_sequential_classifier(
    Phi, t, *, max_iter: int = 1000, tol: float = 1e-3
) -> ClassifierFit:
    """Tipping & Faul's (2003) sequential algorithm for classification, from the empty model.

    Each iteration takes the Laplace approximation at the current α, the sparsity and quality
    factors sᵢ, qᵢ of every candidate weight in the equivalent Gaussian problem
    (:func:`working_problem`, :func:`sparsity_quality`; at the mode Qᵢ = φᵢᵀ(t − y)), and makes
    the one change — add (θᵢ = qᵢ² − sᵢ > 0, αᵢ = ∞), re-estimate αᵢ = sᵢ²/θᵢ, or delete
    (θᵢ ≤ 0) — whose ℓ(αᵢ) gain is largest (Bishop (7.97)–(7.101)); then it re-finds the mode.
    The gain is exact only for the Gaussian approximation at the old mode: once the mode moves,
    the Laplace evidence can end slightly lower (on Ripley's data by up to 0.03 nats in a step).
    Such changes are kept, as in Tipping's SparseBayes: undoing them and skipping the candidate
    was tried, and ended at lower maxima, several times slower. Converged when no change gains
    more than rounding (1e-9 + 1e-15·(|ln p| + N), as in the regression loop), or the best one
    re-estimates an αᵢ by |Δ ln αᵢ| < `tol`.

    A step costs O(NK′PM) for P weights in the model (K′ = 1, or K for the softmax): sᵢ, qᵢ
    are those of ``sparsity_quality`` on the working problem, computed from one product of Φ
    with (P + 1)K′ vectors, without forming the working problem over all M columns; the mode
    takes a few Newton steps on the model's columns.

    Parameters
    ----------
    Phi : array_like of shape (N, M)
    t : array_like of shape (N,) or (N, K)
        0/1 labels, or one-hot rows (softmax: the candidates are the K·M weights).
    max_iter : int ≥ 1, default=1000
        Changes considered (one per iteration).
    tol : float ≥ 0, default=1e-3

    Returns
    -------
    ClassifierFit
        With the kind of each change in ``actions``.
    """
    B, T, scale, K = _setup(Phi, t, max_iter, tol)
    fit = _SequentialClassifierFit(B, T)
    converged, it = False, 0
    for it in range(1, max_iter + 1):
        if fit.step(tol):
            converged = True
            break
    return _result(
        fit.alpha, fit.lp, scale, T.ndim == 1, it, converged, fit.history, fit.actions
    )


class _SequentialClassifierFit:
    """The state of :func:`fit_sequential_classifier` on unit-norm columns: α, the Laplace
    posterior at α, ``lp``, and the working problem at its mode, ``work``.

    :meth:`change` re-finds the mode after each change by Newton's method, warm-started from the
    old mode (two to four steps, on the model's columns only). The mode moves every weight and
    every bₙ, so no factor of the old Hessian survives a change (a rank-one update does not
    apply); what the step avoids is forming the working problem over every column: the
    factors of all candidates come from one product of Φ with (P + 1)K′ vectors for P weights
    in the model (:func:`_candidate_factors`).
    """

    def __init__(self, B, T):
        self.B, self.T = B, T
        self.B2 = B * B  # Φ∘Φ, for every step's ‖rᵢ‖²
        self.alpha = np.full((1 if T.ndim == 1 else T.shape[1], B.shape[1]), np.inf)
        self.lp, self.work = _laplace(
            B, T, self.alpha, np.zeros(self.alpha.shape), working=True
        )
        self.history, self.actions = [], []

    def step(self, tol) -> bool:
        """One change: the best of every candidate's at the current mode. True when converged."""
        lp, a = self.lp, self.alpha.ravel()
        self.history.append(lp.log_evidence)
        s, q = _candidate_factors(self.B, self.B2, a, self.work)
        new, gain = _changes(a, s, q)
        j, idle, action = _best(a, new, gain, _worth(lp.log_evidence, self.T.size), tol)
        if idle:  # (β = 1: N is the number of rows of the working problem)
            return True
        self.actions.append(action)
        self.change(j, new[j])
        return False

    def change(self, j, value):
        """α.flat[j] ← value, then the Laplace posterior at the new α (weight j's start at 0 if
        it leaves the model)."""
        W = _weights(self.alpha, self.lp)
        self.alpha.flat[j] = value
        W.flat[j] = W.flat[j] if np.isfinite(value) else 0.0
        self.lp, self.work = _laplace(self.B, self.T, self.alpha, W, working=True)
