"""The chapter's estimators as scikit-learn citizens: ``check_estimator`` (through
``parametrize_with_checks``) and use in a ``Pipeline`` and ``cross_val_score``."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcourse.base import BaseEstimator
from mlcourse.feature_selection import (
    FeatureSelector,
    HistogramClassifier,
    select_features,
)

# scikit-learn's checks need the tags of issue 14's base estimator (scikit-learn's own);
# parametrize_with_checks reads the tags when the module is collected, so it is only called then.
HAS_TAGS = hasattr(BaseEstimator, "__sklearn_tags__")
needs_sklearn_base = pytest.mark.skipif(
    not HAS_TAGS, reason="mlcourse.base.BaseEstimator has no tags before issue 14 lands"
)
ESTIMATORS = [
    FeatureSelector(1),
    FeatureSelector(1, criterion="mrmr", n_bins=None),
    HistogramClassifier(),
]

if HAS_TAGS:

    @parametrize_with_checks(ESTIMATORS)
    def test_scikit_learn_estimator_checks(estimator, check):
        check(estimator)
else:

    @needs_sklearn_base
    def test_scikit_learn_estimator_checks():
        pass


def test_feature_selector_in_a_pipeline():
    X, y = load_breast_cancer(return_X_y=True)
    pipe = make_pipeline(FeatureSelector(5), StandardScaler(), SkLogisticRegression())
    pipe.fit(X, y)
    selector = pipe[0]
    assert list(selector.features_) == list(select_features(X, y, 5))
    assert np.array_equal(
        selector.get_support(indices=True), np.sort(selector.features_)
    )
    assert selector.ranking_[selector.features_].tolist() == [1, 2, 3, 4, 5]
    assert np.all(np.delete(selector.ranking_, selector.features_) == 6)
    assert pipe.score(X, y) > 0.9
    np.testing.assert_array_equal(
        selector.transform(X), X[:, np.sort(selector.features_)]
    )


@needs_sklearn_base
def test_cross_validated_pipeline():
    X, y = load_breast_cancer(return_X_y=True)
    pipe = make_pipeline(FeatureSelector(5, criterion="cmim"), HistogramClassifier())
    scores = cross_val_score(pipe, np.round(X), y, cv=3)
    assert scores.shape == (3,) and np.all(scores > 0.5)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32, np.float64])
def test_transform_keeps_the_dtype(dtype):
    """As scikit-learn's selectors: the kept columns in X's own dtype (integer codes stay codes)."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, (60, 6)).astype(dtype)
    y = (X[:, 2] + X[:, 4] > 3).astype(int)
    selector = FeatureSelector(2).fit(X, y)
    out = selector.transform(X)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, X[:, selector.get_support()])
    with pytest.raises(ValueError, match="NaN"):
        selector.transform(np.where(np.arange(6) == 0, np.nan, X.astype(float)))
