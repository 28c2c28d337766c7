"""First-order minimisers (lecture 004): batch gradient descent and stochastic gradient descent.

An objective is a callable ``fun(x) -> (E, grad)``; the result is the
:class:`mlcourse._optim.OptimizeResult` of the Newton solver (with ``hess=None``).
"""

from __future__ import annotations

import numpy as np

from ._optim import OptimizeResult, _all_finite
from ._validation import check_random_state, check_scalar, check_vector

__all__ = ["gradient_descent", "sgd"]


def gradient_descent(fun, x0, *, learning_rate: float, tol: float, max_iter: int, stop=None):
    """Batch gradient descent x ← x − η∇E(x) (lecture 004, "Logistic Regression: Gradient").

    Parameters
    ----------
    fun : callable(x) -> (E, grad)
    learning_rate : float
        η > 0; η ≤ 1/L, with L a Lipschitz constant of ∇E, makes E decrease at every step.
    tol : float ≥ 0
        Converged when max|∇E| ≤ tol.
    max_iter : int ≥ 0
        Maximum number of updates.
    stop : callable(x) -> bool, optional
        As for :func:`newton_minimize`.

    Raises
    ------
    ValueError
        A bad `learning_rate`, `tol`, `max_iter` or `x0`, or a non-finite E or ∇E at x0; or E or
        ∇E stops being finite: the learning rate is too large and the iterates diverge.
    """
    check_scalar(learning_rate, "learning_rate", low=0, low_inclusive=False)
    return _first_order(lambda x, g, it: x - learning_rate * g, fun, x0, tol, max_iter, stop)


def _first_order(update, fun, x0, tol, max_iter, stop):
    """The loop shared by GD and SGD: x ← update(x, ∇E(x), iteration) until max|∇E| ≤ tol.

    Raises ``ValueError`` (naming the learning rate) as soon as E or ∇E stops being finite."""
    check_scalar(tol, "tol", low=0)
    check_scalar(max_iter, "max_iter", low=0, integer=True)
    x = check_vector(x0, "x0", dtype=float).copy()
    E, g = fun(x)
    if not _all_finite(E, g):
        raise ValueError(f"fun(x0) must return a finite E and gradient; got E = {E}.")
    history, stopped, n_iter = [E], False, 0
    while n_iter < max_iter and np.max(np.abs(g)) > tol:
        with np.errstate(over="ignore", invalid="ignore"):   # divergence is reported below
            x = update(x, g, n_iter)
            E, g = fun(x)
        n_iter += 1
        if not _all_finite(E, g):
            raise ValueError(f"The iterates diverged: E = {E} after {n_iter} updates. The "
                             "learning_rate is too large; lower it (or leave it at None for a "
                             "step size that decreases E).")
        history.append(E)
        if stop is not None and stop(x):
            stopped = True
            break
    converged = bool(np.max(np.abs(g)) <= tol)
    return OptimizeResult(x, E, g, None, n_iter, converged, stopped, history)


def sgd(sample_step, fun, x0, n_samples: int, *, learning_rate: float, tol: float,
        max_iter: int, random_state=None, stop=None):
    """Stochastic gradient descent: x ← x − η_e ∇E_n(x), one sample at a time (lecture 004).

    E = Σ_n E_n. Each epoch visits the samples in a fresh random order; the step size decays as
    η_e = η₀/(1 + e) in epoch e = 0, 1, …, which satisfies the Robbins–Monro conditions
    Σ η = ∞, Σ η² < ∞, so the iterates converge to the minimiser rather than hovering around it.

    Parameters
    ----------
    sample_step : callable(x, n, eta) -> None
        Applies the update for sample n in place: x -= eta * ∇E_n(x).
    fun : callable(x) -> (E, grad)
        The full objective, evaluated once per epoch for the history and the stopping test.
    n_samples : int ≥ 1
    learning_rate : float
        η₀ > 0.
    tol : float ≥ 0
        Converged when max|∇E| ≤ tol at the end of an epoch.
    max_iter : int ≥ 0
        Maximum number of epochs.
    random_state : None, int or Generator
        Seeds the visiting order.
    stop : callable(x) -> bool, optional
        Checked at the end of each epoch.

    Raises
    ------
    ValueError
        As for :func:`gradient_descent` (bad arguments, including `n_samples`, or divergence).
    """
    check_scalar(learning_rate, "learning_rate", low=0, low_inclusive=False)
    check_scalar(n_samples, "n_samples", low=1, integer=True)
    rng = check_random_state(random_state)

    def epoch(x, g, e):
        eta = learning_rate / (1.0 + e)
        for n in rng.permutation(n_samples):
            sample_step(x, n, eta)
        return x

    return _first_order(epoch, fun, x0, tol, max_iter, stop)
