"""Input validation: the one path every estimator and public function of :mod:`mlcourse` takes.

**Hyperparameters** are declared once, as data: an estimator's ``_parameter_constraints`` maps
each ``__init__`` parameter to a list of allowed forms (scikit-learn's convention and
vocabulary), and :func:`validate_params` enforces them at the start of every ``fit``
(:class:`mlcourse.base.BaseEstimator` calls it). The forms are

* ``None``; ``"boolean"`` (True/False, not 0/1); ``"random_state"`` (None, an int ≥ 0 or a
  ``numpy.random.Generator``); ``callable``; a class (an instance of it); ``"no_validation"``;
* :class:`Interval` (``Interval(Real, 0, None, closed="left")``: a finite real ≥ 0),
  :class:`StrOptions` (``StrOptions({"irls", "gd"})``), :class:`Options` (other values),
  :class:`HasMethods` (an object with these methods).

A value that fits none raises :class:`mlcourse.exceptions.InvalidParameterError` (a ValueError
and a TypeError, as scikit-learn's) naming the estimator, the parameter, what it must be and
what it got: ``"LogisticRegression: alpha must be a finite real number >= 0; got -1.0."``.

*Why our own vocabulary, not scikit-learn's.* scikit-learn's constraint objects live in the
private ``sklearn.utils._param_validation``, whose signatures have changed between minor
releases, and its messages ("The 'alpha' parameter of … must be a float in the range [0, inf)")
would not follow this project's wording rule. The handful of classes below keep scikit-learn's
names and meanings, so a declaration reads the same as in scikit-learn's source; they are public
and stable here, and their messages name the argument first.

**Data** goes through :func:`validate_data` (estimators: ``X`` and ``y``, ``n_features_in_``)
and :func:`check_array` / :func:`check_vector` (any argument of a public function). Every message
names the argument, and says the shape, the bad value and what was expected: a 1-D, 3-D or
ragged ``X``, complex numbers (without printing the array), strings and other non-numbers, no
samples or no features, NaN and infinity, ``X`` and ``y`` of different lengths, labels of mixed
types. A finite float64 array of the right shape takes a fast path (a few microseconds: one
reduction, :func:`all_finite`), so a fit pays for validation once, and checks of arrays it has
already validated cost almost nothing.

**Cross-validation** arguments go through scikit-learn's ``check_cv`` and ``check_scoring``
(:func:`check_cv`, :func:`check_scoring`), with a ``cv`` that cannot split the data named.
"""

from __future__ import annotations

import math
import numbers
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.linalg import blas
from sklearn.exceptions import DataConversionWarning
from sklearn.utils import check_array as _sk_check_array
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted
from sklearn.utils.validation import validate_data as _sk_validate_data

from ..exceptions import InvalidParameterError

__all__ = [
    "Interval",
    "StrOptions",
    "Options",
    "HasMethods",
    "validate_params",
    "validate_data",
    "check_array",
    "check_vector",
    "check_consistent_length",
    "check_not_constant",
    "check_target",
    "check_binary_labels",
    "encode_labels",
    "check_scalar",
    "check_at_most",
    "check_distinct_rows",
    "all_finite",
    "check_option",
    "check_random_state",
    "check_bool",
    "check_is_fitted",
    "check_cv",
    "check_scoring",
]

_F64 = np.dtype(np.float64)


def _short(value, limit: int = 60) -> str:
    """repr(value), cut to `limit` characters (an array or a long object is not printed whole)."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    if isinstance(value, np.generic):
        value = value.item()  # 2.0, not np.float64(2.0)
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _number(x) -> str:
    return repr(x) if isinstance(x, Integral) else f"{x:g}"


# --- hyperparameters: the constraint vocabulary ---------------------------------------------


class Interval:
    """Numbers of a type in an interval: scikit-learn's ``Interval(type, left, right, closed=…)``.

    Parameters
    ----------
    type : numbers.Integral or numbers.Real
        Integers (``int``, NumPy integers; not bool, not 5.0) or real numbers (ints too).
    left, right : number or None
        Bounds; None is unbounded. An unbounded side admits finite numbers only: to admit
        infinity, give ``np.inf`` as the bound and close that side.
    closed : {"left", "right", "both", "neither"}
        Which bounds belong to the interval.
    """

    def __init__(self, type, left, right, *, closed):
        if type not in (Integral, Real):
            raise ValueError(
                "Interval's type must be numbers.Integral or numbers.Real."
            )
        if closed not in ("left", "right", "both", "neither"):
            raise ValueError("closed must be 'left', 'right', 'both' or 'neither'.")
        self.type, self.left, self.right, self.closed = type, left, right, closed

    def is_satisfied_by(self, value) -> bool:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, self.type):
            return False
        if self.type is Real:
            if np.isnan(value):
                return False
            if np.isinf(value) and not (
                (
                    value > 0
                    and self.right == np.inf
                    and self.closed in ("right", "both")
                )
                or (
                    value < 0
                    and self.left == -np.inf
                    and self.closed in ("left", "both")
                )
            ):
                return False
        lo_closed = self.closed in ("left", "both")
        hi_closed = self.closed in ("right", "both")
        if self.left is not None and (
            value < self.left or (value == self.left and not lo_closed)
        ):
            return False
        if self.right is not None and (
            value > self.right or (value == self.right and not hi_closed)
        ):
            return False
        return True

    def __str__(self) -> str:
        infinite = np.inf in (self.left, self.right) or -np.inf in (
            self.left,
            self.right,
        )
        kind = (
            "an integer"
            if self.type is Integral
            else ("a real number" if infinite else "a finite real number")
        )
        lo_closed = self.closed in ("left", "both")
        hi_closed = self.closed in ("right", "both")
        if self.right == np.inf and hi_closed and self.left is not None:
            return f"{kind} {'>=' if lo_closed else '>'} {_number(self.left)} (or inf)"
        if self.left is not None and self.right is not None:
            return (
                f"{kind} in {'[' if lo_closed else '('}{_number(self.left)}, "
                f"{_number(self.right)}{']' if hi_closed else ')'}"
            )
        if self.left is not None:
            return f"{kind} {'>=' if lo_closed else '>'} {_number(self.left)}"
        if self.right is not None:
            return f"{kind} {'<=' if hi_closed else '<'} {_number(self.right)}"
        return kind


class Options:
    """One of a finite set of values of a type (scikit-learn's ``Options(type, options)``)."""

    def __init__(self, type, options):
        self.type = type
        self.options = (
            tuple(sorted(options, key=repr))
            if isinstance(options, (set, frozenset))
            else tuple(options)
        )

    def is_satisfied_by(self, value) -> bool:
        if not isinstance(value, self.type) or isinstance(value, (bool, np.bool_)):
            return False
        try:
            return any(
                bool(value == o) and isinstance(value, str) == isinstance(o, str)
                for o in self.options
            )
        except (TypeError, ValueError):  # an array compared with an option
            return False

    def __str__(self) -> str:
        return "one of " + ", ".join(map(repr, self.options))


class StrOptions(Options):
    """One of a finite set of strings (scikit-learn's ``StrOptions(options)``); a tuple keeps
    its order in the message, a set is sorted."""

    def __init__(self, options):
        super().__init__(str, options)


class HasMethods:
    """An object with these methods (scikit-learn's ``HasMethods``), e.g. ``["__call__",
    "diag"]`` for a kernel; `description` (optional) says it in the message."""

    def __init__(self, methods, description: str | None = None):
        self.methods = [methods] if isinstance(methods, str) else list(methods)
        self.description = description

    def is_satisfied_by(self, value) -> bool:
        return all(callable(getattr(value, m, None)) for m in self.methods)

    def __str__(self) -> str:
        return self.description or "an object with methods " + ", ".join(self.methods)


def _is_random_state(value) -> bool:
    return (
        value is None
        or isinstance(value, np.random.Generator)
        or (
            isinstance(value, Integral)
            and not isinstance(value, (bool, np.bool_))
            and value >= 0
        )
    )


_NAMED = {
    "boolean": (lambda v: isinstance(v, (bool, np.bool_)), "True or False"),
    "random_state": (
        _is_random_state,
        "None, a non-negative int or a numpy.random.Generator",
    ),
}


def _satisfied(constraint, value) -> bool:
    if constraint is None:
        return value is None
    if constraint is callable:
        return callable(value)
    if isinstance(constraint, str):
        return _NAMED[constraint][0](value)
    if isinstance(constraint, type):
        return isinstance(value, constraint)
    return constraint.is_satisfied_by(value)


def _describe(constraint) -> str:
    if constraint is None:
        return "None"
    if constraint is callable:
        return "a callable"
    if isinstance(constraint, str):
        return _NAMED[constraint][1]
    if isinstance(constraint, type):
        return f"a {constraint.__name__}"
    return str(constraint)


def _either(descriptions) -> str:
    return (
        descriptions[0]
        if len(descriptions) == 1
        else ", ".join(descriptions[:-1]) + " or " + descriptions[-1]
    )


def validate_params(constraints: dict, params: dict, owner: str | None = None) -> None:
    """Check each of `params` against its list of allowed forms in `constraints`.

    The one enforcement of the hyperparameter declarations: :class:`mlcourse.base.BaseEstimator`
    calls it with the estimator's ``_parameter_constraints`` at the start of ``fit``.

    Parameters
    ----------
    constraints : dict
        Parameter name → list of forms (see the module docstring), or ``"no_validation"``.
    params : dict
        Parameter name → value; each name must be in `constraints`.
    owner : str, optional
        Who the parameters belong to (an estimator's class name), for the message.

    Raises
    ------
    InvalidParameterError
        A value that fits none of its forms (a ValueError and a TypeError).
    """
    for name, value in params.items():
        allowed = constraints[name]
        if allowed == "no_validation":
            continue
        if any(_satisfied(c, value) for c in allowed):
            continue
        where = f"{owner}: " if owner else ""
        raise InvalidParameterError(
            f"{where}{name} must be {_either([_describe(c) for c in allowed])}; "
            f"got {_short(value)}."
        )


def check_scalar(
    value,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
    integer: bool = False,
    allow_inf: bool = False,
):
    """A function's scalar argument: a real (or integer) number within bounds, else
    :class:`InvalidParameterError` naming it (the same wording as :func:`validate_params`).

    NaN is always refused; ``±inf`` only with ``allow_inf=True``. Returns `value`.
    """
    lo_closed, hi_closed = low_inclusive, high_inclusive
    if allow_inf and not integer:  # an unbounded side then admits infinity
        if low is None:
            low, lo_closed = -np.inf, True
        if high is None:
            high, hi_closed = np.inf, True
    closed = {
        (True, True): "both",
        (True, False): "left",
        (False, True): "right",
        (False, False): "neither",
    }[(lo_closed, hi_closed)]
    interval = Interval(Integral if integer else Real, low, high, closed=closed)
    validate_params({name: [interval]}, {name: value})
    return value


def check_at_most(value, name: str, limit: int, why: str):
    """A valid hyperparameter that the data cannot support: `value` > `limit` raises a
    ValueError naming it, the limit and `why` (what sets the limit, with the data's shape):
    ``"n_components=5 is larger than the data allow: at most 4 (min(n_samples, n_features) for X
    of shape (4, 10))."``. Returns `value`."""
    if value > limit:
        raise ValueError(
            f"{name}={value} is larger than the data allow: at most {limit} ({why})."
        )
    return value


def all_finite(a) -> bool:
    """Whether every entry of the float array `a` is finite, in one pass (with no temporary
    for a contiguous `a`, in C or Fortran order).

    One reduction decides when it is finite (an inf or NaN entry makes it inf or NaN): aᵀa by
    SciPy's BLAS ``ddot`` for float64 (about a microsecond of overhead, for the Newton loops'
    small vectors), the sum otherwise. Only when it is not, which a finite `a` near the top of
    the float range can also cause, are the entries looked at one by one; that overflow raises
    no RuntimeWarning. An empty `a` is finite.

    Examples
    --------
    >>> import numpy as np
    >>> all_finite(np.array([1e200, -1e200])), all_finite(np.array([1.0, np.nan]))
    (True, False)
    """
    a = np.asarray(a)
    if not a.size:
        return True
    if a.dtype == np.float64:
        flat = a.ravel(order="K")  # a view of a contiguous a; a strided one is copied
        if math.isfinite(blas.ddot(flat, flat)):
            return True
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            if np.isfinite(a.sum()):
                return True
    return bool(np.isfinite(a).all())


def check_distinct_rows(X, n: int, name: str) -> None:
    """Refuse more centres or components (`n`, the hyperparameter `name`) than `X` has distinct
    rows: k-means cannot place more distinct centres than there are distinct points (k-means++
    would have to pick a point twice), and a mixture component without a point of its own
    collapses onto the covariance floor. A ValueError rather than fewer units, silently."""
    # Fast path: equal rows have equal hashes Σ_d x_d v_d (the same operations, element by
    # element), so n distinct hashes prove n distinct rows; only otherwise sort whole rows.
    X = np.asarray(X)
    if X.ndim == 2 and len(X) >= n:
        h = np.zeros(len(X))
        for d in range(X.shape[1]):
            h += X[:, d] * (1.0 + 0.6180339887498949 * d)
        if len(np.unique(h)) >= n:
            return
    n_distinct = len(np.unique(X, axis=0))
    if n > n_distinct:
        raise ValueError(
            f"{name}={n} is more than the number of distinct rows of X "
            f"({n_distinct}; n_samples = {len(X)}); use at most {n_distinct}."
        )


def check_option(value, name: str, options):
    """`value` if it is one of the strings `options` (a solver or method name), else
    :class:`InvalidParameterError`: ``"solver must be one of 'irls', 'gd'; got 'x'."``."""
    validate_params({name: [StrOptions(tuple(options))]}, {name: value})
    return value


def check_bool(value, name: str) -> bool:
    """A True/False argument (Python or NumPy bool; not 0/1, not a string)."""
    validate_params({name: ["boolean"]}, {name: value})
    return bool(value)


def check_random_state(seed, name: str = "random_state") -> np.random.Generator:
    """Turn ``None``, a non-negative int or a Generator into a :class:`numpy.random.Generator`."""
    validate_params({name: ["random_state"]}, {name: seed})
    return (
        seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    )


# --- data: arrays -------------------------------------------------------------------------------


def _at(name: str, index) -> str:
    return f"{name}[{', '.join(map(str, index))}]"


def _check_finite(arr: np.ndarray, name: str, allow_nan: bool = False) -> None:
    if arr.dtype.kind != "f" or (not allow_nan and all_finite(arr)):
        return
    bad = np.isinf(arr) if allow_nan else ~np.isfinite(arr)
    if bad.any():
        where = np.unravel_index(int(np.argmax(bad)), arr.shape)
        what = "NaN" if np.isnan(arr[where]) else "infinity"
        raise ValueError(
            f"Input {name} contains {what} (first at {_at(name, where)}); remove or "
            "impute such values first."
        )


def _as_ndarray(X, name: str) -> np.ndarray:
    """`X` as a NumPy array without conversion of its values: a sparse matrix is refused, a
    DataFrame converted by scikit-learn (which maps pandas' missing values to NaN), a ragged
    list named."""
    if isinstance(X, np.ndarray):
        return X
    if hasattr(X, "tocsr") or hasattr(X, "nnz"):  # scipy.sparse, without importing it
        raise TypeError(
            f"{name} is a sparse matrix ({type(X).__name__}); Sparse data was passed for "
            f"{name}, but dense data is required: use {name}.toarray()."
        )
    if hasattr(X, "dtypes") or hasattr(X, "__dataframe__"):  # pandas and friends
        return _sk_check_array(
            X,
            dtype=None,
            ensure_all_finite=False,
            ensure_2d=False,
            allow_nd=True,
            ensure_min_samples=0,
            ensure_min_features=0,
            input_name=name,
        )
    try:
        return np.asarray(X)
    except ValueError:  # NumPy: "... has an inhomogeneous shape after 1 dimensions ..."
        lengths = [len(row) if hasattr(row, "__len__") else 1 for row in X][:8]
        raise ValueError(
            f"{name} is ragged: its rows have different lengths ({lengths}"
            f"{' …' if len(X) > 8 else ''}); {name} must be a rectangular array."
        ) from None


def _check_ndim(arr: np.ndarray, name: str, ndim) -> None:
    allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    if arr.ndim in allowed:
        return
    want = {
        1: "a 1-D array of shape (n_samples,)",
        2: "a 2-D array of shape (n_samples, n_features)",
    }
    shape_of = (
        f"a scalar {_short(arr[()])}"
        if arr.ndim == 0
        else f"a {arr.ndim}-D array of shape {arr.shape}"
    )
    hint = (
        f". Reshape your data either using {name}.reshape(-1, 1) if it has a single "
        f"feature or {name}.reshape(1, -1) if it is a single sample"
        if allowed == (2,) and arr.ndim == 1
        else ""
    )
    raise ValueError(
        f"{name} must be {' or '.join(want[k] for k in allowed)}; got {shape_of}{hint}."
    )


def _first_non_number(arr: np.ndarray):
    """(index, value, error) of the first entry ``float()`` refuses."""
    for index, value in np.ndenumerate(arr):
        try:
            float(value)
        except (TypeError, ValueError) as error:
            return index, value, error
    return None


def _as_numeric(arr: np.ndarray, name: str, dtype) -> np.ndarray:
    """`arr` as numbers: of `dtype`, or (``dtype=None``) its own numeric dtype. Strings raise a
    ValueError and other objects a TypeError (as scikit-learn), naming the first bad entry."""
    kind = arr.dtype.kind
    if arr.size == 0 and kind in "USO":
        return arr.astype(_F64 if dtype is None else dtype)
    if kind in "US":
        first = _first_non_number(arr)
        index, value = (
            (first[0], first[1]) if first else (np.unravel_index(0, arr.shape), None)
        )
        value = arr[index] if value is None else value
        raise ValueError(
            f"{name} must be numeric; it holds strings (dtype {arr.dtype}), e.g. "
            f"{_at(name, index)} = {_short(str(value))}. Convert them to numbers first."
        )
    if kind == "O":
        try:
            return arr.astype(_F64 if dtype is None else dtype)
        except (TypeError, ValueError):
            index, value, error = _first_non_number(arr)
            if isinstance(value, (str, bytes)):
                raise ValueError(
                    f"{name} must be numeric; {_at(name, index)} = {_short(value)} is a "
                    "string."
                ) from None
            raise TypeError(
                f"{name} must be numeric; {_at(name, index)} = {_short(value)} is a "
                f"{type(value).__name__}: {error}"
            ) from None
    if kind not in "biuf":
        raise TypeError(f"{name} must be numeric; got dtype {arr.dtype}.")
    if dtype is None:
        return arr
    return arr.astype(dtype, copy=False)


def _check_size(arr, name, min_samples, min_features) -> None:
    if arr.ndim >= 1 and arr.shape[0] < min_samples:
        raise ValueError(
            f"{name} has {arr.shape[0]} sample(s) (shape={arr.shape}) while a minimum "
            f"of {min_samples} is required."
        )
    if arr.ndim == 2 and arr.shape[1] < min_features:
        raise ValueError(
            f"{name} has {arr.shape[1]} feature(s) (shape={arr.shape}) while a minimum "
            f"of {min_features} is required."
        )


def check_array(
    X,
    name: str = "X",
    *,
    ndim=2,
    min_samples: int = 1,
    min_features: int = 1,
    dtype=np.float64,
    allow_nan: bool = False,
) -> np.ndarray:
    """`X` as a finite numeric array with `ndim` dimensions, or an error naming `name`.

    Parameters
    ----------
    X : array_like
        For ``ndim=2`` of shape (n_samples, n_features).
    name : str
        The argument's name, in every message.
    ndim : int or tuple of int
        Allowed numbers of dimensions.
    min_samples, min_features : int
        Minimum length of axis 0 (and of axis 1, for 2-D input).
    dtype : dtype or None
        The dtype returned (converted if needed; no copy when it already is); None keeps a
        numeric dtype (bool, int, float) as it is and reads an object array as float64.
    allow_nan : bool
        Accept NaN (missing values); infinity is refused all the same.

    Returns
    -------
    ndarray
        `X` itself when it is already a finite array of that dtype and shape (the fast path).

    Raises
    ------
    ValueError
        Wrong number of dimensions (1-D, 3-D, a scalar), a ragged list, complex numbers (the
        array is not printed), strings, too few samples or features, NaN or infinity.
    TypeError
        A sparse matrix, or an object array holding something that is not a number.
    """
    if (
        type(X) is np.ndarray
        and (X.dtype is _F64 if dtype is _F64 or dtype is np.float64 else False)
        and X.ndim == ndim
        and X.shape[0] >= min_samples
        and (ndim != 2 or X.shape[1] >= min_features)
        and (allow_nan is False and all_finite(X))
    ):
        return X  # the fast path: a finite float64 array of the right shape
    arr = _as_ndarray(X, name)
    if arr.dtype.kind == "c":
        raise ValueError(
            f"{name} holds complex numbers (dtype {arr.dtype}, shape {arr.shape}): Complex "
            f"data not supported; pass real values (e.g. {name}.real or abs({name}))."
        )
    arr = _as_numeric(arr, name, dtype)
    _check_ndim(arr, name, ndim)
    _check_size(arr, name, min_samples, min_features)
    _check_finite(arr, name, allow_nan)
    return arr


def check_vector(
    y, name: str = "y", *, min_samples: int = 1, dtype=np.float64
) -> np.ndarray:
    """`y` as a finite 1-D array (a column of shape (n, 1) is flattened)."""
    if type(y) is np.ndarray and y.ndim == 1:
        return check_array(y, name, ndim=1, min_samples=min_samples, dtype=dtype)
    arr = _as_ndarray(y, name)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    return check_array(arr, name, ndim=1, min_samples=min_samples, dtype=dtype)


def check_consistent_length(**arrays) -> int:
    """All keyword arrays have the same first dimension; return it.

    ``check_consistent_length(X=X, y=y)`` → "X and y have inconsistent numbers of samples:
    X has 50, y has 49."
    """
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        names = list(lengths)
        both = ", ".join(names[:-1]) + " and " + names[-1]
        desc = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"{both} have inconsistent numbers of samples: {desc}.")
    return next(iter(lengths.values()))


def check_not_constant(a, name: str, why: str) -> None:
    """Raise a ValueError if every column of the finite array `a` is constant, to rounding: no
    value differs from the column's others by more than 4 ulps of its largest magnitude (a
    constant computed as a sum or a mean can differ in its last bits). `why` says what the
    model cannot do with a constant `a`."""
    arr = np.asarray(a)
    cols = arr.reshape(len(arr), -1)
    for j in range(
        cols.shape[1]
    ):  # column by column: the first varying one ends the test
        hi, lo = float(cols[:, j].max()), float(cols[:, j].min())
        if hi - lo > 4 * np.finfo(float).eps * max(
            hi, -lo
        ):  # max - min > 4 ulps of max|.|
            return
    first = cols[0, 0] if cols.shape[1] == 1 else cols[0].tolist()
    raise ValueError(f"{name} is constant (every value {_short(first)}): {why}.")


# --- data: targets and labels -------------------------------------------------------------------


def _label_kind(value) -> str:
    if isinstance(value, (str, bytes, np.str_, np.bytes_)):
        return "str"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, numbers.Number):
        return "number"
    return type(value).__name__


def _check_label_types(arr: np.ndarray, name: str) -> None:
    """An object array of labels must hold one kind: strings, or numbers (NumPy would fail with
    "'<' not supported between 'int' and 'str'" when sorting a mixture)."""
    if arr.dtype.kind != "O" or arr.size == 0:
        return
    kinds = {}
    for value in arr.ravel():
        kinds.setdefault(_label_kind(value), value)
    if len(kinds) > 1 and not set(kinds) <= {"number", "bool"}:
        examples = ", ".join(f"{v!r} ({k})" for k, v in kinds.items())
        raise ValueError(
            f"{name} mixes label types: {examples}; use labels of one type (all strings "
            "or all numbers)."
        )


def _target(y, name: str, *, numeric: bool, multi_output: bool, ensure_1d_warn=True):
    """`y` checked as a target: numeric (regression, float64) or labels (any one type)."""
    arr = _as_ndarray(y, name)
    if arr.dtype.kind == "c":
        raise ValueError(
            f"{name} holds complex numbers (dtype {arr.dtype}, shape {arr.shape}): Complex "
            "data not supported."
        )
    if not multi_output and arr.ndim == 2 and arr.shape[1] == 1:
        if ensure_1d_warn:
            warnings.warn(
                "A column-vector y was passed when a 1d array was expected. Please change "
                "the shape of y to (n_samples,), for example using ravel().",
                DataConversionWarning,
                stacklevel=4,
            )
        arr = arr[:, 0]
    _check_ndim(arr, name, (1, 2) if multi_output else 1)
    if numeric:
        arr = _as_numeric(arr, name, _F64)
    else:
        _check_label_types(arr, name)
    _check_size(arr, name, 1, 1)
    _check_finite(arr, name)
    return arr


def check_target(y, name: str = "y", *, numeric: bool = False, multi_output=False):
    """`y` checked as a target: with `numeric`, float64 of shape (n,) (a column (n, 1) is
    flattened with scikit-learn's DataConversionWarning) or, with `multi_output`, (n, q);
    otherwise labels of any one type (numbers, or strings), returned as they are. Every message
    names `name`: its shape, NaN, complex numbers, strings where numbers are needed, labels of
    mixed types."""
    return _target(y, name, numeric=numeric, multi_output=multi_output)


def encode_labels(y, name: str = "y", *, n_classes: int | None = None):
    """Class labels as integers 0..K−1.

    Returns
    -------
    classes : ndarray of shape (K,)
        The sorted distinct labels (``classes_`` of a classifier).
    y_index : ndarray of shape (n_samples,)
        Each sample's label as an index into `classes`.

    Raises
    ------
    ValueError
        Not 1-D; NaN, complex or continuous values ("Unknown label type: continuous"); labels
        of mixed types (strings and numbers); fewer than two classes; or a number different
        from `n_classes` when it is given (three classes for a binary model: "Only binary
        classification is supported").
    """
    if not (type(y) is np.ndarray and y.ndim == 1 and y.dtype.kind in "iub"):
        y = _target(y, name, numeric=False, multi_output=False, ensure_1d_warn=False)
        kind = type_of_target(y, input_name=name)
        if kind not in ("binary", "multiclass"):
            raise ValueError(
                f"{name} must hold class labels; Unknown label type: {kind} (e.g. "
                f"{_short(y.ravel()[0])}). A classifier needs discrete classes, not a "
                "regression target."
            )
    elif y.size == 0:
        raise ValueError(f"{name} has 0 samples; a classifier needs labels.")
    classes, y_index = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(
            f"{name} contains only one class ({_short(classes[0])}); "
            "a classifier needs at least two."
        )
    if n_classes is not None and classes.size != n_classes:
        only = "Only binary classification is supported: " if n_classes == 2 else ""
        raise ValueError(
            f"{only}{name} has {classes.size} classes {classes.tolist()[:6]}; "
            f"this model needs exactly {n_classes}."
        )
    return classes, y_index.ravel()


def check_binary_labels(
    y, name: str = "y_true", *, require_both: bool = False
) -> np.ndarray:
    """0/1 (or boolean) labels as an ``int8`` array; the positive class is 1.

    Parameters
    ----------
    require_both : bool
        Also require that both classes occur (ROC curves and AUC need this).
    """
    arr = _target(y, name, numeric=False, multi_output=False, ensure_1d_warn=False)
    if arr.dtype == bool:
        out = arr.astype(np.int8)
    else:
        if arr.dtype.kind not in "iuf":
            raise ValueError(
                f"{name} must hold 0/1 or boolean labels; got dtype {arr.dtype}."
            )
        is_one = arr == 1
        if not (is_one | (arr == 0)).all():
            bad = np.unique(arr[~(is_one | (arr == 0))])[:5]
            raise ValueError(
                f"{name} must hold 0/1 or boolean labels (positive class 1); "
                f"found {bad.tolist()}."
            )
        out = is_one.view(np.int8)
    if require_both:
        n_pos = int(np.count_nonzero(out))
        if n_pos == 0 or n_pos == out.size:
            only = "positive (1)" if n_pos else "negative (0)"
            raise ValueError(
                f"{name} contains only {only} labels; both classes are needed."
            )
    return out


# --- data: an estimator's X and y ---------------------------------------------------------------


def _absent(a) -> bool:
    return isinstance(a, str) and a == "no_validation"


def _check_width(estimator, X, Xa, reset: bool, name: str, n_features) -> None:
    """Record (``reset``) or check the number of columns, and the feature names of a DataFrame
    (scikit-learn's ``validate_data`` without its array checks, for anything but an ndarray)."""
    if name == "X" and n_features is None:
        if type(X) is not np.ndarray or (
            not reset and hasattr(estimator, "feature_names_in_")
        ):
            _sk_validate_data(estimator, X, skip_check_array=True, reset=reset)
            return
        if reset:
            estimator.n_features_in_ = Xa.shape[1]
            estimator.__dict__.pop("feature_names_in_", None)
            return
        n_features = getattr(estimator, "n_features_in_", None)
    if n_features is not None and Xa.shape[1] != n_features:
        raise ValueError(
            f"{name} has {Xa.shape[1]} features, but {type(estimator).__name__} is "
            f"expecting {n_features} features as input."
        )


def validate_data(
    estimator,
    X="no_validation",
    y="no_validation",
    *,
    reset: bool = True,
    dtype=np.float64,
    ensure_min_samples: int = 1,
    ensure_all_finite=True,
    y_numeric: bool = False,
    multi_output: bool = False,
    name: str = "X",
    n_features: int | None = None,
):
    """An estimator's data: `X` (and `y`) checked, ``n_features_in_`` set or compared.

    ``fit`` calls it with ``reset=True`` (the default): ``n_features_in_`` (and, for a
    DataFrame, ``feature_names_in_``) are recorded. A prediction method calls it with
    ``reset=False``: the estimator must be fitted (else ``NotFittedError``) and `X` must have
    the columns of ``fit``. The arguments follow scikit-learn's ``validate_data``; every message
    names ``X`` or ``y`` (see :func:`check_array`).

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like, None or "no_validation"
        Targets; None raises "… requires y to be passed" (a supervised ``fit`` without y).
        ``y_numeric=True``: float64 of shape (n,) (a column (n, 1) is flattened with
        scikit-learn's DataConversionWarning) or, with `multi_output`, (n, q); otherwise
        labels of any one type (numbers or strings), returned as they are.
    reset : bool
        True in ``fit``, False in a prediction method.
    dtype : dtype or None
        Of the returned X (None: its own numeric dtype).
    ensure_min_samples : int
    ensure_all_finite : True or "allow-nan"
        "allow-nan": NaN in X is a missing value (infinity is still refused).
    name : str
        What to call X in messages (``"Z"`` for ``inverse_transform``'s input); with another
        name than "X", `n_features` (if given) is the width checked and no feature names are
        kept.
    n_features : int, optional
        The number of columns X must have (default: ``n_features_in_`` when ``reset=False``).

    Returns
    -------
    X, or (X, y) when `y` is given.
    """
    if not reset:
        check_is_fitted(estimator)
    if y is None:
        raise ValueError(
            f"{type(estimator).__name__} requires y to be passed, but the target y is None."
        )
    no_X, no_y = _absent(X), _absent(y)
    if not no_X:
        Xa = check_array(
            X,
            name,
            dtype=dtype,
            min_samples=ensure_min_samples,
            allow_nan=ensure_all_finite == "allow-nan",
        )
        _check_width(estimator, X, Xa, reset, name, n_features)
    if no_y:
        return Xa
    if (
        y_numeric
        and type(y) is np.ndarray
        and y.ndim == 1
        and y.dtype is _F64
        and y.size
        and all_finite(y)
    ):
        ya = y  # fast path
    elif (
        not y_numeric
        and type(y) is np.ndarray
        and y.ndim == 1
        and y.dtype.kind in "iub"
    ):
        ya = y  # fast path: integer labels
    else:
        ya = _target(y, "y", numeric=y_numeric, multi_output=multi_output)
    if no_X:
        return ya
    if len(ya) != len(Xa):
        raise ValueError(
            f"X and y have inconsistent numbers of samples: X has {len(Xa)} (shape "
            f"{Xa.shape}), y has {len(ya)} (shape {ya.shape})."
        )
    return Xa, ya


# --- cross-validation ---------------------------------------------------------------------------


def check_cv(cv, X, y=None, *, classifier: bool = False) -> list:
    """The (train, test) index pairs of `cv` on `X`: scikit-learn's ``check_cv`` (an int is
    ``KFold(cv)``, unshuffled, or ``StratifiedKFold(cv)`` for a classifier with class labels;
    a splitter; or an iterable of splits), split once.

    Raises
    ------
    ValueError
        A `cv` that cannot split `X` (more folds than samples, fewer than two folds, an
        unknown type, no splits), named with the shape of `X`.
    """
    from sklearn.model_selection import check_cv as _sk_check_cv

    try:
        splitter = _sk_check_cv(cv, y, classifier=classifier)
        splits = [
            (np.asarray(train), np.asarray(test))
            for train, test in splitter.split(X, y)
        ]
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"cv={_short(cv)} cannot split X of shape {np.shape(X)}: {error}"
        ) from None
    if not splits:
        raise ValueError(f"cv={_short(cv)} gave no (train, test) splits.")
    n = len(X)
    for k, (train, test) in enumerate(splits):
        for part in (train, test):
            ok = (
                part.size == n
                if part.dtype == bool
                else part.dtype.kind in "iu" and (not part.size or part.max() < n)
            )
            if not ok:
                raise ValueError(
                    f"cv's split {k} is not a set of indices into the {n} rows of X "
                    f"(shape {np.shape(X)}): got {_short(part)}."
                )
    return splits


def check_scoring(estimator, scoring):
    """``scorer(estimator, X, y)`` for `scoring`: None (the estimator's ``score``), a scorer
    name ("r2", "accuracy", "neg_mean_squared_error", …) or a callable, through scikit-learn's
    ``check_scoring``; an unknown name is a ValueError naming `scoring`."""
    from sklearn.metrics import check_scoring as _sk_check_scoring

    try:
        return _sk_check_scoring(estimator, scoring=scoring)
    except (TypeError, ValueError) as error:
        raise ValueError(f"scoring={_short(scoring)} is not usable: {error}") from None
