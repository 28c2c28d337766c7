"""Regularisation theory (lecture 002, "Selecting Basis Functions"; Bishop (1995) §5.4): the
Green's function of a smoothness penalty, computed from its Fourier symbol.

Minimising J = ½ Σ_n (y(x_n) − z_n)² + (λ/2) ∫ |Py|² dx over functions y gives
y(x) = Σ_n c_n G(x − x_n), a sum of Green's functions of P̂P (P̂ the adjoint of P):
P̂P G = δ. A penalty Σ_m a_m ∫ (d^m y/dx^m)² dx has P̂P = Σ_m (−1)^m a_m d^{2m}/dx^{2m}, whose
Fourier symbol is s(ω) = Σ_m a_m ω^{2m}, so Ĝ(ω) = 1/s(ω) and

    G(x) = (1/2π) ∫ e^{iωx} / s(ω) dω.

With a_m = σ^{2m}/(m! 2^m), s(ω) = exp(σ²ω²/2) and G is the Gaussian N(x | 0, σ²).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate

from ..utils.validation import check_scalar

__all__ = [
    "gaussian_series_coefficients",
    "operator_symbol",
    "green_function_fft",
    "green_function_quad",
]


def gaussian_series_coefficients(sigma: float, n_terms: int) -> np.ndarray:
    """a_m = σ^{2m} / (m! 2^m) for m = 0, …, n_terms − 1 (lecture 002): the penalty whose
    Green's function is a Gaussian of width σ."""
    check_scalar(sigma, "sigma", low=0, low_inclusive=False)
    n_terms = check_scalar(n_terms, "n_terms", low=1, integer=True)
    return np.array([(sigma**2 / 2) ** m / math.factorial(m) for m in range(n_terms)])


def operator_symbol(coefficients, omega) -> np.ndarray:
    """s(ω) = Σ_m a_m ω^{2m}, the Fourier symbol of P̂P for P̂P = Σ_m (−1)^m a_m d^{2m}/dx^{2m}
    (Horner's rule in ω²).

    Parameters
    ----------
    coefficients : array_like of shape (n_terms,)
        a_0, a_1, ….
    omega : array_like
        Angular frequencies.
    """
    a = np.asarray(coefficients, dtype=float)
    w2 = np.asarray(omega, dtype=float) ** 2
    s = np.zeros_like(w2)
    for a_m in a[::-1]:
        s = s * w2 + a_m
    return s


def green_function_fft(inverse_symbol, n: int, spacing: float, dim: int = 1):
    """G(x) = (2π)^{−d} ∫ e^{iω·x} Ĝ(ω) dω on a grid, by the inverse FFT.

    The grid has n points per axis, x_j = (j − n/2)·spacing; the integral is the periodic
    trapezoidal sum over ω_k = 2πk/(n·spacing), |ω_k| ≤ π/spacing. Its error is the aliasing
    Σ_{m≠0} G(x + m n h) (small when G has decayed at ±n h/2) plus the tail of Ĝ beyond π/h.

    Parameters
    ----------
    inverse_symbol : callable
        Ĝ(ω) = 1/s(ω): called with one array of frequencies per axis (broadcast on the grid).
    n : int
        Points per axis (even).
    spacing : float
        h.
    dim : {1, 2}

    Returns
    -------
    x : ndarray of shape (n,)
        The grid along each axis (x = 0 at index n/2).
    G : ndarray of shape (n,) or (n, n)
    """
    n = check_scalar(n, "n", low=2, integer=True)
    check_scalar(spacing, "spacing", low=0, low_inclusive=False)
    if dim not in (1, 2):
        raise ValueError(f"dim must be 1 or 2; got {dim!r}.")
    omega = 2 * np.pi * np.fft.fftfreq(n, spacing)
    axes = np.meshgrid(*([omega] * dim), indexing="ij", sparse=True)
    G = np.fft.ifftn(inverse_symbol(*axes)).real / spacing**dim
    x = (np.arange(n) - n // 2) * spacing
    return x, np.fft.fftshift(G)


def green_function_quad(inverse_symbol, x, epsabs: float = 1e-12):
    """G(x) = (1/π) ∫_0^∞ cos(ωx) Ĝ(ω) dω for an even Ĝ, by adaptive quadrature (QUADPACK's
    QAWF, the Fourier integral over [0, ∞), for x ≠ 0; QAGI at x = 0).

    Parameters
    ----------
    inverse_symbol : callable
        Ĝ(ω) for scalar ω ≥ 0.
    x : array_like of shape (n,)
    epsabs : float
        Absolute accuracy requested from QUADPACK.

    Returns
    -------
    G : ndarray of shape (n,)
    error : ndarray of shape (n,)
        QUADPACK's estimate of each value's absolute error (divided by π, like G).
    """
    check_scalar(epsabs, "epsabs", low=0, low_inclusive=False)
    x = np.atleast_1d(np.asarray(x, dtype=float))
    G, err = np.empty_like(x), np.empty_like(x)
    for i, xi in enumerate(x):
        if xi == 0:
            G[i], err[i] = integrate.quad(
                inverse_symbol, 0, np.inf, epsabs=epsabs, limit=200
            )
        else:
            G[i], err[i] = integrate.quad(
                inverse_symbol,
                0,
                np.inf,
                weight="cos",
                wvar=abs(xi),
                epsabs=epsabs,
                limlst=200,
            )
    return G / np.pi, err / np.pi
