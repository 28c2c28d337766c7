"""Input validation shared by every module (public: the next chapters' estimators use it too).

Arrays go through scikit-learn's :func:`sklearn.utils.check_array` (numeric conversion, complex
and sparse input refused, an object array that cannot be read as numbers a ``TypeError``, NaN and
infinite values refused), with the argument's name in the message; the estimators validate their
``X`` and ``y`` with scikit-learn's ``validate_data`` through :func:`validate_data` here, which
names the argument where scikit-learn's dimension message does not (see :mod:`mlcourse.base`), and
:func:`check_is_fitted` is scikit-learn's. What scikit-learn has no check for is here: the number
of dimensions an argument must have, labels (0/1, or exactly two classes), and hyperparameters
(a real in a range, an option, a bool, a seed), each raising a :class:`ValueError` that names the
argument and the problem instead of returning a silent NaN or failing deep inside NumPy.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils import check_array as _sk_check_array
from sklearn.utils.validation import check_is_fitted
from sklearn.utils.validation import validate_data as _sk_validate_data

__all__ = [
    "check_array",
    "check_vector",
    "check_consistent_length",
    "check_binary_labels",
    "encode_labels",
    "check_scalar",
    "check_option",
    "check_random_state",
    "check_bool",
    "check_is_fitted",
    "validate_data",
]


def validate_data(estimator, X="no_validation", y="no_validation", **check_params):
    """scikit-learn's :func:`sklearn.utils.validation.validate_data`, naming the argument.

    Its message for a 1-D `X` ("Expected 2D array, got 1D array instead: …") names neither the
    argument nor the shape it wants; here it starts "X must be a 2-D array of shape
    (n_samples, n_features)", followed by scikit-learn's own text (whose "Reshape your data"
    advice ``check_estimator`` looks for). Its messages for NaN, infinity and the sample count
    already name ``X`` or ``y``. Arguments and return value are scikit-learn's.
    """
    try:
        return _sk_validate_data(estimator, X, y, **check_params)
    except ValueError as error:
        if str(error).startswith("Expected 2D array"):
            raise ValueError(
                f"X must be a 2-D array of shape (n_samples, n_features). {error}"
            ) from None
        raise


def _check_finite(a: np.ndarray, name: str) -> None:
    if a.dtype.kind in "fc" and not np.isfinite(a).all():
        bad = "NaN" if np.isnan(a).any() else "infinity"  # scikit-learn's wording
        raise ValueError(f"{name} contains {bad}; remove or impute such values first.")


def check_array(
    X,
    name: str = "X",
    *,
    ndim: int = 2,
    min_samples: int = 1,
    min_features: int = 1,
    dtype=np.float64,
) -> np.ndarray:
    """Return `X` as a finite float array of the given number of dimensions.

    :func:`sklearn.utils.check_array` converts and checks the entries (its messages name the
    argument: "Input X contains NaN."); the shape is checked here, with the argument's name.

    Parameters
    ----------
    X : array_like
        Input; for ``ndim=2`` of shape (n_samples, n_features).
    name : str
        Argument name used in error messages.
    ndim : {1, 2}
        Required number of dimensions.
    min_samples, min_features : int
        Minimum length of axis 0 (and, for 2-D input, axis 1).

    Raises
    ------
    ValueError
        Wrong dimensionality, too few samples/features, strings, complex numbers, NaN or
        infinite entries.
    TypeError
        A sparse matrix, or an object array holding something that is not a number.
    """
    if np.iscomplexobj(X):  # scikit-learn's message would not name the argument
        raise ValueError(f"{name} holds complex numbers; only real data are supported.")
    try:
        arr = _sk_check_array(
            X,
            dtype=dtype,
            ensure_2d=False,
            allow_nd=True,
            ensure_min_samples=0,
            ensure_min_features=0,
            input_name=name,
        )
    except ValueError as exc:  # NumPy's conversion message does not name the argument
        if "convert" not in str(exc):
            raise
        raise ValueError(f"{name} must be numeric; {exc}") from None
    if arr.ndim != ndim:
        want = (
            "a 1-D array of shape (n_samples,)"
            if ndim == 1
            else "a 2-D array of shape (n_samples, n_features)"
        )
        hint = (
            " (use X.reshape(-1, 1) for a single feature)"
            if ndim == 2 and arr.ndim == 1
            else ""
        )
        raise ValueError(
            f"{name} must be {want}; got an array of shape {arr.shape}{hint}."
        )
    if arr.shape[0] < min_samples:
        raise ValueError(
            f"{name} must have at least {min_samples} sample(s); got shape {arr.shape}."
        )
    if ndim == 2 and arr.shape[1] < min_features:
        raise ValueError(
            f"{name} must have at least {min_features} feature(s); "
            f"got shape {arr.shape}."
        )
    return arr


def check_vector(
    y, name: str = "y", *, min_samples: int = 1, dtype=np.float64
) -> np.ndarray:
    """Return `y` as a finite 1-D array (a column vector of shape (n, 1) is flattened)."""
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    return check_array(arr, name, ndim=1, min_samples=min_samples, dtype=dtype)


def check_consistent_length(**arrays) -> int:
    """Check that all keyword arrays have the same first dimension; return it."""
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"Inconsistent numbers of samples: {desc}.")
    return next(iter(lengths.values()))


def _label_vector(y, name: str) -> np.ndarray:
    """`y` as a non-empty 1-D array (a column of shape (n, 1) is flattened)."""
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be a 1-D array of labels; got shape {arr.shape}."
        )
    if arr.size == 0:
        raise ValueError(f"{name} is empty.")
    return arr


def check_binary_labels(
    y, name: str = "y_true", *, require_both: bool = False
) -> np.ndarray:
    """Return 0/1 labels as an ``int8`` array.

    Labels must be 0/1 (any numeric type) or booleans; the positive class is 1.

    Parameters
    ----------
    require_both : bool
        Also require that both classes occur (ROC curves and AUC need this).
    """
    arr = _label_vector(y, name)
    if arr.dtype == bool:
        out = arr.astype(np.int8)
    else:
        if arr.dtype.kind not in "iuf":
            raise ValueError(
                f"{name} must hold 0/1 or boolean labels; got dtype {arr.dtype}."
            )
        if arr.dtype.kind == "f":
            _check_finite(arr, name)
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


def encode_labels(y, name: str = "y", *, n_classes: int | None = None):
    """Encode arbitrary class labels as integers 0..K-1.

    Returns
    -------
    classes : ndarray of shape (K,)
        The sorted distinct labels (``classes_`` of a classifier).
    y_index : ndarray of shape (n_samples,)
        Index of each sample's label in `classes`.

    Raises
    ------
    ValueError
        Fewer than two classes, or a number different from `n_classes` when it is given
        (e.g. three classes passed to a binary model: "Only binary classification is
        supported", scikit-learn's wording), or NaN or complex labels.
    """
    arr = _label_vector(y, name)
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} holds complex numbers, which cannot be class labels.")
    if arr.dtype.kind == "f":
        _check_finite(arr, name)
    classes, y_index = np.unique(arr, return_inverse=True)
    if classes.size < 2:
        raise ValueError(
            f"{name} contains only one class ({classes[0]!r}); "
            "a classifier needs at least two."
        )
    if n_classes is not None and classes.size != n_classes:
        only = "Only binary classification is supported: " if n_classes == 2 else ""
        raise ValueError(
            f"{only}{name} has {classes.size} classes {classes.tolist()[:6]}; "
            f"this model needs exactly {n_classes}."
        )
    return classes, y_index


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
    """Check a scalar hyperparameter: a real (or integer) number within bounds.

    NaN is always rejected; ``+inf``/``-inf`` only with ``allow_inf=True``.
    """
    kinds = (numbers.Integral,) if integer else (numbers.Real,)
    if isinstance(value, bool) or not isinstance(value, kinds):
        what = "an integer" if integer else "a real number"
        raise ValueError(f"{name} must be {what}; got {value!r}.")
    if not integer and (np.isnan(value) or (np.isinf(value) and not allow_inf)):
        raise ValueError(f"{name} must be finite; got {value!r}.")
    if low is not None and (value < low or (value == low and not low_inclusive)):
        op = ">=" if low_inclusive else ">"
        raise ValueError(f"{name} must be {op} {low}; got {value!r}.")
    if high is not None and (value > high or (value == high and not high_inclusive)):
        op = "<=" if high_inclusive else "<"
        raise ValueError(f"{name} must be {op} {high}; got {value!r}.")
    return value


def check_option(value, name: str, options):
    """Check that `value` is one of `options` (e.g. a solver or method name)."""
    if isinstance(value, str) and value in options:
        return value
    raise ValueError(
        f"Unknown {name} {value!r}; choose one of {', '.join(map(repr, options))}."
    )


def check_bool(value, name: str) -> bool:
    """Check a True/False hyperparameter (Python or NumPy bool; not 0/1, not a string)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}.")
    return bool(value)


def check_random_state(seed) -> np.random.Generator:
    """Turn ``None``, an int or a Generator into a :class:`numpy.random.Generator`."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or (
        isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0
    ):
        return np.random.default_rng(seed)
    raise ValueError(
        f"random_state must be None, a non-negative int or a numpy Generator; "
        f"got {seed!r}."
    )
