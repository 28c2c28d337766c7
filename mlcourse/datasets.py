"""Synthetic data generators shared by the chapters (all draws from a seeded Generator)."""

from __future__ import annotations

import numpy as np

from .utils.validation import check_array, check_random_state, check_scalar

__all__ = ["gaussian_classes"]


def _class_counts(n_per_class, k: int) -> list[int]:
    """`n_per_class` as K positive ints: one int for all classes, or a sequence of K ints."""
    if isinstance(n_per_class, np.ndarray) and n_per_class.ndim == 0:
        n_per_class = n_per_class.item()
    if not isinstance(n_per_class, (list, tuple, np.ndarray)):
        return [check_scalar(n_per_class, "n_per_class", low=1, integer=True)] * k
    if getattr(n_per_class, "ndim", 1) != 1 or len(n_per_class) != k:
        raise ValueError(
            f"n_per_class must be one int or a sequence of {k} ints, one per row of "
            f"means; got {n_per_class!r}."
        )
    return [check_scalar(c, "n_per_class", low=1, integer=True) for c in n_per_class]


def gaussian_classes(n_per_class, means, cov, random_state=None):
    """Samples from K Gaussian classes with a shared covariance, N(x | μ_k, Σ).

    Parameters
    ----------
    n_per_class : int ≥ 1 or sequence of K ints ≥ 1
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
        raise ValueError(
            f"cov must have shape ({d}, {d}) to match means; got {cov.shape}."
        )
    counts = _class_counts(n_per_class, k)
    try:
        chol = np.linalg.cholesky(cov)
    except np.linalg.LinAlgError:
        raise ValueError("cov must be symmetric positive definite.") from None
    rng = check_random_state(random_state)
    X = np.vstack(
        [m + rng.standard_normal((c, d)) @ chol.T for m, c in zip(means, counts)]
    )
    y = np.repeat(np.arange(k), counts)
    return X, y


__all__ += ["sinc", "sinc_data"]


def sinc(x):
    """sinc(x) = sin(x)/x with sinc(0) = 1 (unnormalised; ``np.sinc`` is sin(πx)/(πx))."""
    return np.sinc(np.asarray(x, dtype=float) / np.pi)


def sinc_data(
    n_samples: int = 100,
    noise_std: float = 0.0,
    *,
    low: float = -10.0,
    high: float = 10.0,
    grid: bool = True,
    random_state=None,
):
    """Tipping's (2001) sinc regression data: t = sin(x)/x + ε, ε ~ N(0, noise_std²).

    Parameters
    ----------
    n_samples : int
        Number of points N.
    noise_std : float ≥ 0
        Standard deviation of the Gaussian noise (0: noise-free).
    low, high : float
        The input interval.
    grid : bool
        ``True``: N uniformly spaced inputs ``linspace(low, high, N)`` (Tipping's §4.1);
        ``False``: N inputs drawn uniformly at random from [low, high).
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    X : ndarray of shape (N, 1)
    t : ndarray of shape (N,)
    """
    check_scalar(n_samples, "n_samples", low=1, integer=True)
    check_scalar(noise_std, "noise_std", low=0)
    check_scalar(low, "low")
    check_scalar(high, "high")
    if not high > low:
        raise ValueError(f"high must be greater than low; got low={low}, high={high}.")
    rng = check_random_state(random_state)
    x = np.linspace(low, high, n_samples) if grid else rng.uniform(low, high, n_samples)
    t = sinc(x) + (noise_std * rng.standard_normal(n_samples) if noise_std > 0 else 0.0)
    return x[:, None], t
