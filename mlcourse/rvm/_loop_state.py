"""What the two evidence-maximisation loops over a design matrix Φ (N, K) share: their argument
checks, the scaling, the tracker of the posterior and the evidence at the current (α, β), and the
result. The re-estimation loop (``_em``) and the fast sequential algorithm (``_fast``) each import
this module; neither imports the other. The classification loops' result extends the same
:class:`EvidenceFit`.

Both loops first scale every basis function to unit norm and the targets to unit root mean
square: φ̃ᵢ = φᵢ/‖φᵢ‖, t̃ = t/c, hence w̃ᵢ = wᵢ‖φᵢ‖/c, α̃ᵢ = αᵢc²/‖φᵢ‖², β̃ = βc². The fit and the
predictions are unchanged (ln p(t) = ln p(t̃) − N ln c), and ``PRUNE_ALPHA``, the noise floor
and the initial α mean the same whatever the scale of the kernel and of the targets. Results are
returned in the original scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..special import LOG_2PI
from ..utils.validation import (
    check_array,
    check_bool,
    check_consistent_length,
    check_scalar,
)
from ._reestimate import _beta_update, _noise_floor
from ._sparse_bayes import (
    Posterior,
    _check_alpha,
    _covariance_root,
    _log_evidence,
    _posterior_from_gram,
    _posterior_from_root,
    _root,
    _tri_solve,
)

__all__ = ["EvidenceFit", "SBLFit"]


@dataclass
class EvidenceFit:
    """What every evidence maximisation of the package returns (regression and classification).

    Attributes
    ----------
    alpha : ndarray
        Prior precisions, ``inf`` for pruned basis functions or weights.
    active : ndarray of int
        The weights in the model (finite α), increasing: column indices of Φ (regression), or
        indices into ``alpha.ravel()`` (classification, where the softmax has K rows of α).
    mean : ndarray of shape (len(active),)
        Their posterior mean m (regression) or mode w* (classification, Laplace).
    W : ndarray of shape (len(active), len(active))
        A factor of their (Laplace) posterior covariance, Σ = WᵀW.
    log_evidence : float
        ln p(t | α, β) at the returned hyperparameters (classification: its Laplace estimate).
    n_iter : int
    converged : bool
    history : list of float
        The log evidence at the start of each iteration, then at the end.
    actions : list of str
        The sequential loops only: the change made in each iteration, ``"add"``,
        ``"re-estimate"`` or ``"delete"`` (regression also ``"none"``, and ``"lower noise"``
        where the held β was lowered: see ``HOLD_STEP``).
    """

    alpha: np.ndarray
    active: np.ndarray
    mean: np.ndarray
    W: np.ndarray
    log_evidence: float
    n_iter: int
    converged: bool
    history: list = field(default_factory=list)
    actions: list = field(default_factory=list)

    @property
    def cov(self) -> np.ndarray:
        """Σ = WᵀW, shape (len(active), len(active))."""
        return self.W.T @ self.W


@dataclass
class SBLFit(EvidenceFit):
    """Result of an evidence maximisation for regression over a design matrix with K columns:
    :class:`EvidenceFit` (α of shape (K,), ``active`` the columns in the model) and the noise.

    Attributes
    ----------
    beta : float
        Noise precision.
    """

    beta: float = field(kw_only=True)


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


# The RMS c of the targets must have c² and 1/c² in floating point: the loops rescale β, α and
# the weights by c² (β̃ = βc², α̃ = αc²/‖φ‖²) and back.
_RMS_MAX = float(np.sqrt(np.finfo(float).max))


def _normalise(Phi, t):
    """Unit-norm columns and unit-RMS targets; returns B, u, column scales, target scale.

    Raises ValueError if the RMS of `t` is outside (1/_RMS_MAX, _RMS_MAX), about (1e-154, 1e154).
    """
    norms = np.sqrt(np.einsum("ij,ij->j", Phi, Phi))
    scale = np.where(norms > 0, norms, 1.0)
    top = float(np.max(np.abs(t), initial=0.0))
    c = (
        top * float(np.sqrt(np.mean((t / top) ** 2))) if top > 0 else 1.0
    )  # RMS, no underflow
    if not 1.0 / _RMS_MAX < c < _RMS_MAX:
        raise ValueError(
            f"t is too large or too small for its square to be held in floating point "
            f"(RMS of t = {c:.3g}); rescale t."
        )
    return Phi / scale, t / c, scale, c


def _initial_alpha(alpha0, scale, c):
    """Initial α on the unit-norm columns from an array `alpha0` in the units of Φ and t."""
    a = np.asarray(alpha0, float)
    if a.shape != scale.shape:
        raise ValueError(
            f"alpha0 must be a scalar or have shape {scale.shape}; got {a.shape}."
        )
    return _check_alpha(a, "alpha0") * c**2 / scale**2  # α̃ = αc²/‖φ‖²


class _Tracker:
    """Posterior, residual and log evidence at the current (α, β) on unit-norm columns."""

    def __init__(self, B, t):
        self.B, self.t, self.Bt = B, t, B.T @ t
        self.n = len(t)
        self.floor = _noise_floor(t)

    def update(self, act, alpha, beta, gram=None, root=None):
        """The posterior of the basis functions `act` (in that order) at α, β.

        From their Gram matrix `gram` = B_actᵀB_act by Cholesky (the weight-space form of
        lecture 001) when that keeps enough digits (:func:`_posterior_from_gram`), else from a
        square root `root` = (R, z, ‖t⊥‖²) with B_act = QR, z = Qᵀt (the fast loop's span, or
        :func:`_root`): then ln p, ‖t − Φm‖² and γᵢ come from the covariance in the span
        (:func:`_covariance_root`), as sums of non-negative terms.
        """
        a = alpha[act]
        if root is None:
            self.post = _posterior_from_gram(beta * gram, beta * self.Bt[act], a)
            if self.post is not None:
                r = self.t - self.B[:, act] @ self.post.mean
                self.rss = float(r @ r)
                self.gamma = 1.0 - a * self.post.var
                self.log_ev = _log_evidence(
                    self.n, self.n * np.log(beta), a, self.post, beta * self.rss
                )
                return self
            root = _root(self.B[:, act], self.t)
        R, z, t_out = root
        sb = np.sqrt(beta)
        self.post = _posterior_from_root(sb * R, sb * z, a)
        self.T, self.y, G = _covariance_root(sb * R, sb * z, a)
        TG = _tri_solve(self.T, G, trans=1)
        self.gamma = np.einsum("ij,ij->j", TG, TG)  # γ = diag(GᵀT⁻¹T⁻ᵀG)
        fit_in = _tri_solve(self.T, self.y)  # √β(Qᵀt − Rm)
        self.rss = t_out + float(fit_in @ fit_in) / beta
        self.log_ev = -0.5 * (
            self.n * LOG_2PI
            - self.n * np.log(beta)
            + 2.0 * np.log(np.abs(np.diag(self.T))).sum()
            + beta * t_out
            + float(self.y @ self.y)
        )
        return self

    def beta_update(self):
        """β⁻¹ ← ‖t − Φm‖²/(N − Σγ), at most β = 1/(NOISE_FLOOR · var t)."""
        return _beta_update(self.rss, self.n, self.gamma, self.floor)


def _result(alpha, beta, act, trk, scale, c, n_iter, converged, history, actions=()):
    """Back to the original scale of Φ and t, with the basis functions in increasing order."""
    post: Posterior = trk.post
    history.append(trk.log_ev)
    shift = len(trk.t) * np.log(c)
    o = np.argsort(act)
    act = np.asarray(act)[o]
    return SBLFit(
        alpha * scale**2 / c**2,
        act,
        post.mean[o] * c / scale[act],
        post.W[:, o] * c / scale[act][None, :],
        float(trk.log_ev - shift),
        n_iter,
        converged,
        [h - shift for h in history],
        list(actions),
        beta=float(beta / c**2),
    )
