"""mlcourse.utils.validation: the constraint vocabulary, the one validate_data, its messages and
its fast path (issue 25). The estimators' side is the battery in tests/test_contract.py."""

from numbers import Integral, Real

import numpy as np
import pytest

from mlcourse.exceptions import InvalidParameterError
from mlcourse.linear import LogisticRegression
from mlcourse.utils import validation
from mlcourse.utils.validation import (
    HasMethods,
    Interval,
    Options,
    StrOptions,
    check_array,
    check_cv,
    check_target,
    encode_labels,
    validate_data,
    validate_params,
)

# --- the vocabulary -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "interval, inside, outside",
    [
        (
            Interval(Real, 0, None, closed="left"),
            [0, 0.0, 1e300, np.float32(2.0), np.int64(3)],
            [-1e-300, np.nan, np.inf, True, "1", None],
        ),
        (
            Interval(Real, 0, None, closed="neither"),
            [1e-300, 5],
            [0, 0.0, -np.inf, np.inf],
        ),
        (
            Interval(Integral, 1, None, closed="left"),
            [1, np.int32(7)],
            [0, 1.0, 2.5, True, np.nan],
        ),
        (
            Interval(Real, 0, np.inf, closed="both"),
            [0.0, np.inf],
            [-1.0, np.nan, -np.inf],
        ),
        (Interval(Real, 0, 1, closed="right"), [1.0, 0.5], [0.0, 1.5]),
    ],
)
def test_interval(interval, inside, outside):
    assert all(interval.is_satisfied_by(v) for v in inside)
    assert not any(interval.is_satisfied_by(v) for v in outside)


def test_interval_describes_itself():
    assert str(Interval(Real, 0, None, closed="left")) == "a finite real number >= 0"
    assert str(Interval(Integral, 1, None, closed="left")) == "an integer >= 1"
    assert str(Interval(Real, 0, 1, closed="right")) == "a finite real number in (0, 1]"
    assert (
        str(Interval(Real, 0, np.inf, closed="both")) == "a real number >= 0 (or inf)"
    )


def test_options_and_named_forms():
    assert StrOptions(("irls", "gd")).is_satisfied_by("gd")
    assert not StrOptions(("irls", "gd")).is_satisfied_by("newton")
    zero_one = Options(object, ("warn", 0, 1))
    assert zero_one.is_satisfied_by(0.0) and zero_one.is_satisfied_by("warn")
    assert not zero_one.is_satisfied_by(True)  # a bool is not the number 1 here
    assert not zero_one.is_satisfied_by(np.array([0, 1]))  # no ambiguous truth value
    assert HasMethods(["fit", "predict"]).is_satisfied_by(LogisticRegression())
    constraints = {
        "flag": ["boolean"],
        "seed": ["random_state"],
        "f": [callable],
        "k": [None, HasMethods("diag")],
    }
    validate_params(
        constraints,
        {"flag": np.True_, "seed": np.random.default_rng(0), "f": len, "k": None},
    )
    for name, bad in [("flag", 1), ("seed", -1), ("f", 3), ("k", "rbf")]:
        with pytest.raises(InvalidParameterError, match=f"Owner: {name} must be "):
            validate_params(constraints, {name: bad}, "Owner")


def test_invalid_parameter_error_is_scikit_learns_pair_of_types():
    with pytest.raises(InvalidParameterError) as info:
        LogisticRegression(alpha=-1.0).fit([[0.0], [1.0]], [0, 1])
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    assert str(info.value) == (
        "LogisticRegression: alpha must be a finite real number >= 0; got -1.0."
    )
    with pytest.raises(InvalidParameterError, match=r"solver must be one of 'irls', "):
        LogisticRegression(solver="newton").fit([[0.0], [1.0]], [0, 1])


# --- data ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "X, error, match",
    [
        (np.zeros((2, 3, 4)), ValueError, r"X must be a 2-D array .* got a 3-D array "),
        (5.0, ValueError, "X must be a 2-D array .*; got a scalar 5.0"),
        (
            np.ones((3, 2)) * 1j,
            ValueError,
            r"X holds complex numbers \(dtype complex128, ",
        ),
        ([["1", "a"]], ValueError, r"X must be numeric; .* X\[0, 1\] = 'a'"),
        (
            np.array([[1, {"a": 1}]], dtype=object),
            TypeError,
            r"X\[0, 1\] = \{'a': 1\} is a dict: float\(\) argument must be a string",
        ),
        (
            np.array([[1, "b"]], dtype=object),
            ValueError,
            r"X\[0, 1\] = 'b' is a string",
        ),
        (np.zeros((0, 3)), ValueError, r"X has 0 sample\(s\) \(shape=\(0, 3\)\)"),
        (np.zeros((3, 0)), ValueError, r"X has 0 feature\(s\) \(shape=\(3, 0\)\)"),
        ([[1.0, 2.0], [3.0]], ValueError, r"X is ragged: .*\(\[2, 1\]"),
        ([[1.0, np.nan]], ValueError, r"Input X contains NaN \(first at X\[0, 1\]\)"),
        (np.array([["2021-01-01"]], "datetime64[D]"), TypeError, "X must be numeric"),
    ],
)
def test_check_array_names_the_argument_and_the_problem(X, error, match):
    with pytest.raises(error, match=match) as info:
        check_array(X)
    assert len(str(info.value)) < 400


def test_complex_input_is_not_printed():
    X = np.arange(6000).reshape(2000, 3) * (1 + 1j)
    with pytest.raises(ValueError) as info:
        check_array(X)
    assert "5999" not in str(info.value) and len(str(info.value)) < 200


def test_labels_of_mixed_types_are_named():
    """NumPy would fail with "'<' not supported between 'int' and 'str'" (issue 25)."""
    y = np.array([1, "a", 2, "b"], dtype=object)
    with pytest.raises(
        ValueError, match=r"y mixes label types: 1 \(number\), 'a' \(str\)"
    ):
        encode_labels(y)
    with pytest.raises(ValueError, match="y mixes label types"):
        check_target(y)
    classes, idx = encode_labels(np.array(["b", "a", "b"], dtype=object))
    assert classes.tolist() == ["a", "b"] and idx.tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        encode_labels([0.5, 1.5, 2.25])


def test_targets_are_named():
    with pytest.raises(ValueError, match="y must be numeric; it holds strings"):
        check_target(["a", "b"], numeric=True)
    with pytest.raises(ValueError, match=r"y must be a 1-D array .*got a 2-D array"):
        check_target(np.zeros((4, 2)))
    with pytest.warns(match="A column-vector y was passed"):
        assert check_target(np.zeros((4, 1)), numeric=True).shape == (4,)


def test_cv_that_cannot_split_is_named():
    X = np.zeros((50, 3))
    with pytest.raises(ValueError, match=r"cv=51 cannot split X of shape \(50, 3\): "):
        check_cv(51, X)
    with pytest.raises(ValueError, match=r"cv='folds' cannot split X"):
        check_cv("folds", X)
    with pytest.raises(ValueError, match=r"cv's split 0 is not a set of indices"):
        check_cv([(np.arange(10), np.array([60]))], X)
    splits = check_cv(5, X)
    assert len(splits) == 5 and splits[0][1].tolist() == list(range(10))  # unshuffled


# --- the fast path: a fit validates its data once -------------------------------------------------


def test_a_finite_float64_array_passes_through_untouched():
    X = np.random.default_rng(0).standard_normal((30, 3))
    assert check_array(X) is X
    assert check_array(X.astype(np.float32)).dtype == np.float64


def test_a_fit_converts_its_input_once(monkeypatch):
    """The slow path (conversion and the full checks) runs once for X and once for y when they
    are lists, and never for float64 arrays; the rest of the fit (design matrix, objective,
    solver) takes the fast path on arrays already checked. Before issue 25 a logistic fit
    called scikit-learn's check_array 7 times."""
    calls = []
    original = validation._as_ndarray

    def counting(X, name):
        calls.append(name)
        return original(X, name)

    monkeypatch.setattr(validation, "_as_ndarray", counting)
    rng = np.random.default_rng(1)
    X = rng.standard_normal((60, 4))
    y = (X[:, 0] > 0).astype(int)
    LogisticRegression(alpha=1.0).fit(X, y)
    slow_on_arrays = list(calls)
    calls.clear()
    LogisticRegression(alpha=1.0).fit(X.tolist(), y.tolist())
    assert calls.count("X") == 1 and calls.count("y") == 1, calls
    # the only slow-path call on arrays: the 0/1 targets the objective receives as floats
    assert "X" not in slow_on_arrays and "Phi" not in slow_on_arrays, slow_on_arrays


def test_validate_data_checks_the_columns_of_fit():
    est = LogisticRegression(alpha=1.0).fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="X has 3 features, but LogisticRegression is"):
        validate_data(est, np.zeros((2, 3)), reset=False)
    with pytest.raises(
        ValueError, match=r"Z has 1 features, but LogisticRegression is"
    ):
        validate_data(est, np.zeros((2, 1)), reset=False, name="Z", n_features=2)
