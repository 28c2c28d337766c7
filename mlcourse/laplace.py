"""The Laplace approximation and Bayesian logistic regression (lecture 003, §4-4 and §4-5).

This module starts with the piece that the Gaussian-process and RVM classifiers share: the
probit approximation to the logistic-Gaussian integral.
"""

from __future__ import annotations

import numpy as np

from .special import sigmoid

__all__ = ["probit_approximation"]


def probit_approximation(mean, var):
    """∫ σ(a) N(a | mean, var) da ≈ σ(κ(var) · mean), κ(σ²) = (1 + πσ²/8)^(−1/2).

    Bishop (4.153)–(4.155), lecture 003 §4-5-2: replace σ(a) by the probit Φ(λa) with
    λ² = π/8 (same slope at 0), convolve exactly with the Gaussian, and map back.

    Parameters
    ----------
    mean, var : array_like
        Mean and variance (≥ 0) of the Gaussian over the activation a; broadcast together.

    Returns
    -------
    ndarray or float
        The approximate predictive probability, elementwise.
    """
    mean = np.asarray(mean, dtype=float)
    var = np.asarray(var, dtype=float)
    for name, a in (("mean", mean), ("var", var)):
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} contains NaN or infinite values.")
    if np.any(var < 0):
        raise ValueError("var must be non-negative (it is a variance).")
    try:
        kappa = 1.0 / np.sqrt(1.0 + np.pi * var / 8.0)
        out = sigmoid(kappa * mean)
    except ValueError:
        raise ValueError(f"mean and var must broadcast together; got shapes {mean.shape} and "
                         f"{var.shape}.") from None
    return out[()] if out.ndim == 0 else out
