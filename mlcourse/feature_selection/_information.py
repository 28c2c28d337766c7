"""Plug-in entropies and mutual informations of discrete variables, in nats, and the equal-width
discretisation that FEAST's users apply first (lecture 002, "Alternative Feature Selection
Methods"; Brown et al. 2012 §2).

Every quantity is a sum of joint entropies, and every entropy comes from the counts n_c of the
observed cells c of a joint code:

    Ĥ = ln N − (1/N) Σ_c n_c ln n_c,                        (plug-in, the empirical p̂_c = n_c/N)

with 0·ln 0 = 0 taken from ``scipy.special.xlogy``, so no logarithm of zero is ever formed. The
Miller–Madow correction adds (m − 1)/(2N), m the number of non-empty cells, which removes the
first-order bias E[Ĥ] − H ≈ −(m − 1)/(2N) (Miller 1955; Paninski 2003 §3).
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from ..utils.validation import (
    StrOptions,
    check_array,
    check_option,
    check_scalar,
    validate_params,
)

__all__ = [
    "entropy",
    "mutual_information",
    "conditional_mutual_information",
    "discretize",
    "CORRECTIONS",
    "STRATEGIES",
]

CORRECTIONS = (None, "miller-madow")
STRATEGIES = ("uniform", "quantile")

# A joint code is a mixed-radix number; past this many states it is re-encoded by np.unique, so
# the product of the cardinalities never overflows int64.
_MAX_STATES = 2**62


def encode(x, name: str) -> tuple[np.ndarray, int]:
    """Integer codes 0..m−1 of a discrete 1-D array (m distinct values), and m.

    Any value type NumPy can sort is accepted (ints, floats, strings); NaN and infinities are
    refused, since a NaN is not equal to itself and would make a cell of its own per sample.
    """
    arr = np.asarray(x)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be a 1-D array of discrete values; got shape {arr.shape}."
        )
    if arr.size == 0:
        raise ValueError(f"{name} is empty.")
    if arr.dtype.kind in "fc" and not np.isfinite(arr).all():
        bad = "NaN" if np.isnan(arr).any() else "infinite"
        raise ValueError(
            f"{name} contains {bad} values; discrete variables must be finite."
        )
    if arr.dtype.kind == "O":
        raise ValueError(
            f"{name} has dtype object; pass an array of numbers or strings."
        )
    values, codes = np.unique(arr, return_inverse=True)
    return codes.ravel().astype(np.int64), len(values)


def joint_code(codes, states) -> tuple[np.ndarray, int]:
    """One code for the tuple of several coded variables (same length), and its number of states.

    The mixed-radix code c = c₁ + m₁(c₂ + m₂(…)) is exact; when the product of the m's would pass
    2⁶², the partial code is re-encoded to its observed values (at most N of them) first.
    """
    code, m = codes[0], states[0]
    for c, k in zip(codes[1:], states[1:]):
        if m * k > _MAX_STATES:
            values, code = np.unique(code, return_inverse=True)
            code, m = code.ravel(), len(values)
        code, m = code + m * c, m * k
    return code, m


def _variables(args, names) -> tuple[list[np.ndarray], list[int]]:
    """Codes and cardinalities of the columns of every argument (a 1-D array is one column, a
    2-D array one column per feature: a joint variable), checking they have the same length."""
    codes, states, n = [], [], None
    for arg, name in zip(args, names):
        arr = np.asarray(arg)
        cols = (
            [(arr, name)]
            if arr.ndim != 2 or arr.shape[1] == 1
            else [(arr[:, i], f"{name}[:, {i}]") for i in range(arr.shape[1])]
        )
        if arr.ndim == 2 and arr.shape[1] == 0:
            raise ValueError(f"{name} has no columns; got shape {arr.shape}.")
        for col, col_name in cols:
            c, m = encode(col, col_name)
            if n is None:
                n, first = len(c), col_name
            elif len(c) != n:
                raise ValueError(
                    f"Inconsistent numbers of samples: {first} has {n}, "
                    f"{col_name} has {len(c)}."
                )
            codes.append(c)
            states.append(m)
    return codes, states


def entropy_of_codes(code, n_states: int, correction=None) -> float:
    """Ĥ = ln N − (1/N)Σ n_c ln n_c of one coded variable, plus (m − 1)/(2N) for Miller–Madow."""
    n = len(code)
    # bincount needs an array of n_states counts: past a few per sample, count the observed codes
    counts = (
        np.bincount(code)
        if n_states <= 4 * n
        else np.unique(code, return_counts=True)[1]
    )
    h = np.log(n) - xlogy(counts, counts).sum() / n
    if correction == "miller-madow":
        h += (np.count_nonzero(counts) - 1) / (2.0 * n)
    return float(h)


def column_entropies(codes, n_states) -> np.ndarray:
    """Plug-in entropy of each column of a coded matrix at once (one ``bincount``).

    Parameters
    ----------
    codes : ndarray of int, shape (N, p)
        Column j takes values in 0..n_states[j] − 1.
    n_states : ndarray of int, shape (p,)

    Returns
    -------
    ndarray of shape (p,)
        Ĥ(column j) in nats.
    """
    n_states = np.asarray(n_states, dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(n_states)[:-1]))
    counts = np.bincount((codes + offsets).ravel(), minlength=int(n_states.sum()))
    n = codes.shape[0]
    return np.log(n) - np.add.reduceat(xlogy(counts, counts), offsets) / n


# the `correction` argument of the entropies, as a constraint (mlcourse.utils.validation)
_CORRECTION = {"correction": [None, StrOptions(CORRECTIONS[1:])]}


def _joint_entropy(args, names, correction) -> float:
    codes, states = _variables(args, names)
    return entropy_of_codes(*joint_code(codes, states), correction)


def entropy(*columns, correction=None) -> float:
    """Joint plug-in entropy Ĥ(x₁, …, x_k) of discrete variables, in nats.

    Parameters
    ----------
    *columns : array_like of shape (N,) or (N, d)
        Discrete variables observed together; a 2-D array stands for its d columns. Values are
        categories: equal values are one state, whatever their type.
    correction : {None, "miller-madow"}
        ``"miller-madow"`` adds (m − 1)/(2N), m the number of observed joint states.

    Returns
    -------
    float
        −Σ_c p̂_c ln p̂_c over the joint states c, p̂_c = n_c/N.
    """
    if not columns:
        raise ValueError("entropy needs at least one column.")
    validate_params(_CORRECTION, {"correction": correction})
    return _joint_entropy(
        columns, [f"columns[{i}]" for i in range(len(columns))], correction
    )


def mutual_information(x, y, correction=None) -> float:
    """Plug-in mutual information Î(x; y) = Ĥ(x) + Ĥ(y) − Ĥ(x, y) of discrete variables, in nats.

    With y the class, this is lecture 002's H(z) − H(z | x_i). ``x`` or ``y`` may be 2-D (a joint
    variable), e.g. Î({x_i, x_j}; t) as ``mutual_information(X[:, [i, j]], t)``.

    Parameters
    ----------
    x, y : array_like of shape (N,) or (N, d)
    correction : {None, "miller-madow"}
        Applied to each of the three entropies: Î_MM = Î − (m_xy − m_x − m_y + 1)/(2N).

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.feature_selection import mutual_information
    >>> x = np.array([0, 0, 1, 1] * 25)
    >>> round(mutual_information(x, x), 4)  # I(x; x) = H(x) = ln 2
    0.6931
    >>> round(float(np.log(2)), 4)
    0.6931
    """
    validate_params(_CORRECTION, {"correction": correction})
    return (
        _joint_entropy([x], ["x"], correction)
        + _joint_entropy([y], ["y"], correction)
        - _joint_entropy([x, y], ["x", "y"], correction)
    )


def conditional_mutual_information(x, y, z, correction=None) -> float:
    """Î(x; y | z) = Ĥ(x, z) + Ĥ(y, z) − Ĥ(z) − Ĥ(x, y, z), in nats.

    Parameters
    ----------
    x, y, z : array_like of shape (N,) or (N, d)
        Discrete variables; z is conditioned on.
    correction : {None, "miller-madow"}
    """
    validate_params(_CORRECTION, {"correction": correction})
    return (
        _joint_entropy([x, z], ["x", "z"], correction)
        + _joint_entropy([y, z], ["y", "z"], correction)
        - _joint_entropy([z], ["z"], correction)
        - _joint_entropy([x, y, z], ["x", "y", "z"], correction)
    )


def discretize(X, n_bins=5, strategy="uniform") -> np.ndarray:
    """Bin each column of `X` into `n_bins` intervals; the bin indices 0..n_bins − 1.

    ``"uniform"``: equal widths between the column's minimum and maximum, the edges
    e_b = min + b·(max − min)/n_bins, and x goes to bin b when e_b ≤ x < e_{b+1} (the maximum to
    the last bin) — scikit-learn's ``KBinsDiscretizer(strategy="uniform", encode="ordinal")``,
    and what Brown et al. (2012) and the FEAST documentation use before selection. A constant
    column goes to bin 0. ``"quantile"``: edges at the column's k/n_bins quantiles (equal counts,
    up to ties); repeated edges leave empty bins.

    Parameters
    ----------
    X : array_like of shape (N, D) or (N,)
        Finite values.
    n_bins : int ≥ 2
    strategy : {"uniform", "quantile"}

    Returns
    -------
    ndarray of int64, the shape of `X`
    """
    check_scalar(n_bins, "n_bins", low=2, integer=True)
    check_option(strategy, "strategy", STRATEGIES)
    one_d = np.ndim(X) == 1
    X = check_array(np.reshape(X, (-1, 1)) if one_d else X, "X")
    if strategy == "uniform":
        edges = np.linspace(X.min(axis=0), X.max(axis=0), n_bins + 1)  # (n_bins + 1, D)
    else:
        edges = np.quantile(X, np.linspace(0.0, 1.0, n_bins + 1), axis=0)
    out = np.zeros(X.shape, dtype=np.int64)
    for j in np.flatnonzero(np.ptp(X, axis=0) > 0):  # a constant column stays in bin 0
        out[:, j] = np.searchsorted(edges[1:-1, j], X[:, j], side="right")
    return out[:, 0] if one_d else out
