"""Comparing an answer with the reference, and saying what differs.

An exercise's output is one array (or number) or a tuple of them, its *parts*. Each part is
compared elementwise, ``|got − expected| ≤ atol + rtol·|expected|`` (equal infinities agree),
with the tolerances the exercise derives for each case from its numerics. When a part differs,
:func:`diagnose` says how, in this order: its shape (and whether the transpose is what was
expected), non-finite entries, then its values — transposed, the sign flipped, the order
reversed, a constant factor (named when it is one the case knows, such as N/(N − 1)), a
constant shift, or else a typical entry, got against expected, at the worst index.
"""

from __future__ import annotations

import numpy as np

# Constants a wrong answer is often off by; a case adds its own (N, N/(N − 1), σ², …).
KNOWN_FACTORS = {
    "2": 2.0,
    "1/2": 0.5,
    "4": 4.0,
    "1/4": 0.25,
    "√2": np.sqrt(2.0),
    "1/√2": np.sqrt(0.5),
    "π": np.pi,
    "1/π": 1 / np.pi,
    "2π": 2 * np.pi,
    "1/(2π)": 1 / (2 * np.pi),
    "ln 2": np.log(2.0),
    "1/ln 2 (bits instead of nats?)": 1 / np.log(2.0),
}


def to_parts(value, names: tuple[str, ...]) -> tuple[list | None, str | None]:
    """The returned value as a list of float arrays, one per expected part, or a problem."""
    if len(names) > 1:
        if not isinstance(value, (tuple, list)) or len(value) != len(names):
            got = (
                f"{len(value)} values"
                if isinstance(value, (tuple, list))
                else f"one {_kind(value)}"
            )
            return None, (
                f"it should return {len(names)} results, ({', '.join(names)}); "
                f"it returned {got}"
            )
        values = list(value)
    else:
        values = [value]
    parts = []
    for name, v in zip(names, values):
        what = f"{name} " if len(names) > 1 else ""
        if v is None or v is Ellipsis:
            return None, f"{what}is {'None' if v is None else '...'}, not a number"
        try:
            with np.errstate(all="ignore"):
                a = np.asarray(v)
                if np.iscomplexobj(a):
                    return None, f"{what}has complex entries: expected real numbers"
                parts.append(a.astype(float))
        except (TypeError, ValueError) as exc:
            return None, f"{what}is not an array of numbers ({_kind(v)}: {exc})"
    return parts, None


def _kind(value) -> str:
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape}"
    return type(value).__name__


def fit_shape(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """`got` reshaped to a scalar when a scalar is expected and it holds one number."""
    if expected.ndim == 0 and got.size == 1:
        return got.reshape(())
    return got


def close(got, expected, rtol: float, atol: float) -> bool:
    """Same shape and ``|got − expected| ≤ atol + rtol·|expected|`` everywhere (NaN fails)."""
    got, expected = np.asarray(got, float), np.asarray(expected, float)
    if got.shape != expected.shape:
        return False
    with np.errstate(invalid="ignore"):
        err = np.where(got == expected, 0.0, np.abs(got - expected))
        return bool(np.all((err == 0) | (err <= atol + rtol * np.abs(expected))))


def fmt(x) -> str:
    """A number with six significant digits, as the messages show them."""
    x = float(x)
    if x == 0:
        return "0"
    return f"{x:.6g}"


def _index(idx) -> str:
    return str(idx[0]) if len(idx) == 1 else str(tuple(int(i) for i in idx))


def _name_factor(c: float, factors: dict) -> str | None:
    """The name of the known constant `c` is (to 1e-9 relative), if any."""
    for name, value in {**factors, **KNOWN_FACTORS}.items():
        if value != 0 and abs(c - value) <= 1e-9 * abs(value):
            return name
    return None


def _named(x: float, factors: dict) -> str:
    """`x` as a number, with the known constant it equals: "1.25 = N/(N − 1)"."""
    name = _name_factor(x, factors)
    return f"{fmt(x)} = {name}" if name and name != fmt(x) else fmt(x)


def diagnose(got, expected, rtol: float, atol: float, factors: dict) -> str | None:
    """None when `got` agrees with `expected`, else how it differs: a predicate whose subject
    is the answer ("is off by a constant factor: 2 times the expected result")."""
    got, expected = np.asarray(got, float), np.asarray(expected, float)
    if got.shape != expected.shape:
        msg = f"has shape {got.shape}, expected {expected.shape}"
        if got.ndim == 2 and got.T.shape == expected.shape:
            if close(got.T, expected, rtol, atol):
                return msg + ": it is the transpose of the expected result"
            return msg + " (transposed?)"
        if got.size == expected.size and close(
            got.reshape(expected.shape), expected, rtol, atol
        ):
            return msg + ": the right numbers, arranged in the wrong shape"
        return msg
    if close(got, expected, rtol, atol):
        return None
    finite = np.isfinite(expected)
    bad = finite & ~np.isfinite(got)
    if np.any(bad):
        idx = np.argwhere(bad)[0] if got.ndim else ()
        where = f" at index {_index(idx)}" if got.ndim else ""
        return (
            f"is {fmt(got[tuple(idx)])}{where}, where the expected value is the finite "
            f"{fmt(expected[tuple(idx)])} ({int(bad.sum())} such entr"
            f"{'y' if bad.sum() == 1 else 'ies'})"
        )
    # Looser tolerance for recognising a pattern: a wrong answer carries its own roundings.
    loose_r, loose_a = max(100 * rtol, 1e-9), 100 * atol

    def like(candidate):
        return close(got, candidate, loose_r, loose_a)

    if got.ndim == 2 and got.shape[0] == got.shape[1] and like(expected.T):
        return "is the transpose of the expected result"
    if np.any(expected != 0) and like(-expected):
        return "has its sign flipped: it is minus the expected result"
    if got.ndim == 1 and got.size > 1 and like(expected[::-1]):
        return "is the expected result in reverse order"
    finite_everywhere = np.all(np.isfinite(got)) and np.all(np.isfinite(expected))
    scale = float(np.sum(expected * expected))
    if scale > 0 and finite_everywhere:
        c = float(np.sum(got * expected) / scale)
        if c != 0 and like(c * expected) and (got.size > 1 or _name_factor(c, factors)):
            return (
                f"is off by a constant factor: {_named(c, factors)} times the expected "
                "result"
            )
    if got.size > 1 and finite_everywhere:
        d = float(np.mean(got - expected))
        if like(expected + d):
            return (
                f"is shifted by a constant: the expected result + {_named(d, factors)}"
            )
    if got.size == 1:
        got, expected = got.reshape(()), expected.reshape(())
        d = float(got - expected)
        extra = f" (off by {_named(d, factors)})" if _name_factor(d, factors) else ""
        return f"is {fmt(got)}, expected {fmt(expected)}{extra}"
    with np.errstate(invalid="ignore"):
        err = np.where(got == expected, 0.0, np.abs(got - expected))  # equal infinities
        excess = np.where(
            err == 0, 0.0, err / (atol + rtol * np.abs(expected) + 1e-300)
        )
    excess = np.where(np.isnan(excess), np.inf, excess)
    idx = np.unravel_index(int(np.argmax(excess)), got.shape)
    n_bad = int(np.sum(excess > 1))
    return (
        f"differs at index {_index(idx)}: it is {fmt(got[idx])} there, expected "
        f"{fmt(expected[idx])} ({n_bad} of {got.size} entries differ)"
    )
