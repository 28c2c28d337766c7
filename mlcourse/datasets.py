"""Synthetic data generators shared by the chapters (all draws from a seeded Generator)."""

from __future__ import annotations

import numpy as np

from ._validation import check_array, check_random_state, check_scalar

__all__ = ["gaussian_classes"]


def gaussian_classes(n_per_class, means, cov, random_state=None):
    """Samples from K Gaussian classes with a shared covariance, N(x | μ_k, Σ).

    Parameters
    ----------
    n_per_class : int or sequence of int
        Samples per class (one int for all classes).
    means : array_like of shape (K, d)
        Class means μ_k.
    cov : array_like of shape (d, d)
        Shared covariance Σ (symmetric positive definite).
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    X : ndarray of shape (N, d)
    y : ndarray of shape (N,)
        Class index 0..K-1 of each row.
    """
    means = check_array(means, "means")
    cov = check_array(cov, "cov")
    k, d = means.shape
    if cov.shape != (d, d):
        raise ValueError(f"cov must have shape ({d}, {d}) to match means; got {cov.shape}.")
    counts = np.broadcast_to(np.asarray(n_per_class), (k,))
    for c in counts:
        check_scalar(int(c), "n_per_class", low=1, integer=True)
    try:
        chol = np.linalg.cholesky(cov)
    except np.linalg.LinAlgError:
        raise ValueError("cov must be symmetric positive definite.") from None
    rng = check_random_state(random_state)
    X = np.vstack([m + rng.standard_normal((int(c), d)) @ chol.T for m, c in zip(means, counts)])
    y = np.repeat(np.arange(k), counts)
    return X, y
