"""mlcourse.utils.objectives.make_objective: the validate-once route every solver and estimator
uses is the public objectives' own computation (they are checked in tests/linear/)."""

import numpy as np
import pytest

from mlcourse.utils.objectives import (
    logistic_objective,
    make_objective,
    probit_objective,
    softmax_objective,
)


@pytest.mark.parametrize(
    "link, public", [("logit", logistic_objective), ("probit", probit_objective)]
)
def test_binary_objective_is_the_public_one(link, public, rng):
    Phi, t = rng.normal(size=(20, 3)), (rng.random(20) < 0.4).astype(float)
    A, w, m0 = np.array([0.0, 1.0, 2.0]), rng.normal(size=3), rng.normal(size=3)
    fun = make_objective(Phi, t, A, m0, link=link)
    for ours, theirs in zip(fun(w), public(w, Phi, t, A, m0)):
        np.testing.assert_array_equal(ours, theirs)
    assert len(fun(w, hessian=False)) == 2


def test_softmax_objective_is_the_public_one(rng):
    Phi, T = rng.normal(size=(12, 2)), np.eye(3)[rng.integers(0, 3, 12)]
    w = rng.normal(size=6)
    fun = make_objective(Phi, T, [0.0, 0.5], link="softmax")
    for ours, theirs in zip(fun(w), softmax_objective(w, Phi, T, [0.0, 0.5])):
        np.testing.assert_array_equal(ours, theirs)


def test_make_objective_validates_once_up_front():
    with pytest.raises(ValueError, match="link must be one of .*; got 'cloglog'"):
        make_objective(np.ones((2, 1)), [0, 1], link="cloglog")
    with pytest.raises(ValueError, match="t must hold 0/1"):
        make_objective(np.ones((2, 1)), [0, 2])
    with pytest.raises(ValueError, match="precision must be non-negative"):
        make_objective(np.ones((2, 1)), [0, 1], precision=-1.0)
