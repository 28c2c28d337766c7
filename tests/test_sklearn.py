"""mlcourse's estimators as scikit-learn citizens (issue 14).

* ``check_estimator``, through ``parametrize_with_checks``, on every public estimator: the same
  discovery as ``tests/test_contract.py`` (``mlcourse.utils.discovery.all_estimators``), so the
  next chapters' estimators are covered as soon as their subpackage exports them;
* the model-selection tools a reader reaches for after a chapter: ``cross_val_score``,
  ``GridSearchCV`` and a ``Pipeline`` with ``StandardScaler``, on every estimator;
* ``clone`` keeps the hyperparameters, and a pickled fitted estimator predicts the same.
"""

import pickle

import numpy as np
import pytest
from sklearn.base import clone, is_classifier
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcourse.gp import GaussianProcessClassifier
from mlcourse.kernels import SquaredExponential
from mlcourse.rvm import RVMRegressor

from .test_contract import CASES, ESTIMATORS, OUTPUTS, PARAMS, _data

# One configuration per estimator for check_estimator (the first of test_contract's PARAMS).
CHECKED = [cls(**PARAMS.get(name, [{}])[0]) for name, cls in ESTIMATORS]

# Checks an estimator deliberately does not meet, each with its reason (scikit-learn's format).
EXPECTED_FAILED = {}


@pytest.mark.filterwarnings("ignore::Warning")
@parametrize_with_checks(
    CHECKED,
    expected_failed_checks=lambda est: EXPECTED_FAILED.get(type(est).__name__, {}),
)
def test_check_estimator(estimator, check):
    check(estimator)


def test_every_estimator_is_checked():
    assert {type(e) for e in CHECKED} == {cls for _, cls in ESTIMATORS}


def _xy(est, kind, seed=0):
    X, y = _data(kind, seed, n=60)
    return X, y


def _scorable(est):
    """`est`, or for a supervised transformer without ``score`` (a feature selector) `est`
    followed by scikit-learn's logistic regression, so that model selection can score it."""
    return (
        est
        if hasattr(est, "score") or not hasattr(est, "transform")
        else make_pipeline(est, SkLogisticRegression())
    )


def _cv_score(est, X, y):
    # a transformer without inverse_transform (kernel PCA: no pre-image) is scored by its score
    return (
        cross_val_score(_scorable(est), X, y, cv=3)
        if y is not None or not hasattr(est, "inverse_transform")
        else cross_val_score(
            est,
            X,
            cv=3,
            scoring=lambda e, X_, y_=None: float(
                -np.mean((e.inverse_transform(e.transform(X_)) - X_) ** 2)
            ),
        )
    )


@pytest.mark.filterwarnings("ignore::Warning")
@pytest.mark.parametrize("est, kind", CASES, ids=[repr(e) for e, _ in CASES])
class TestModelSelection:
    def test_cross_val_score(self, est, kind):
        X, y = _xy(est, kind)
        scores = _cv_score(clone(est), X, y)
        assert scores.shape == (3,) and np.all(np.isfinite(scores))

    def test_pipeline_with_standard_scaler(self, est, kind):
        """The pipeline's output is the estimator's on the scaled data."""
        X, y = _xy(est, kind)
        pipe = make_pipeline(StandardScaler(), clone(est)).fit(X, y)
        Xs = StandardScaler().fit_transform(X)
        alone = clone(est).fit(Xs) if y is None else clone(est).fit(Xs, y)
        for name in OUTPUTS:
            if hasattr(alone, name):
                # the same computation; the scaled inputs may differ in the last bit (the
                # pipeline scales a copy), which the GP's solves amplify by their κ < 1e4
                np.testing.assert_allclose(
                    getattr(pipe, name)(X),
                    getattr(alone, name)(Xs),
                    rtol=1e-10,
                    atol=1e-12,
                    err_msg=name,
                )

    def test_grid_search(self, est, kind):
        """GridSearchCV over a hyperparameter of the estimator; refit on all data."""
        X, y = _xy(est, kind)
        params = est.get_params()
        names = [
            n
            for n in (
                "gamma",
                "alpha",
                "prior_precision",
                "noise_variance",
                "n_components",
                "weight_variance",
                "optimize",
            )
            if n in params and params[n] is not None
        ]
        grid = {}  # no hyperparameter: one candidate, still scored
        if names:
            name, value = names[0], params[names[0]]
            grid = {
                name: [value, not value]
                if isinstance(value, bool)
                else [1, value]
                if name == "n_components"
                else [value, 2 * value]
            }
        scoring = (
            None
            if y is not None or not hasattr(est, "inverse_transform")
            else (
                lambda e, X_, y_=None: float(
                    -np.mean((e.inverse_transform(e.transform(X_)) - X_) ** 2)
                )
            )
        )
        model = clone(est) if y is None else _scorable(clone(est))
        if hasattr(model, "steps"):  # scored through a pipeline
            grid = {f"{model.steps[0][0]}__{n}": v for n, v in grid.items()}
        search = GridSearchCV(model, grid, cv=3, scoring=scoring).fit(X, y)
        for name, values in grid.items():
            assert search.best_params_[name] in values
        assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))

    def test_clone_keeps_hyperparameters(self, est, kind):
        copy = clone(est)
        assert copy is not est
        assert copy.get_params().keys() == est.get_params().keys()
        for key, value in est.get_params().items():
            assert copy.get_params()[key] is value or copy.get_params()[key] == value, (
                key
            )

    def test_pickle_round_trips_predictions(self, est, kind):
        X, y = _xy(est, kind)
        fitted = clone(est).fit(X) if y is None else clone(est).fit(X, y)
        back = pickle.loads(pickle.dumps(fitted))
        X_new, _ = _xy(est, kind, seed=1)
        for name in OUTPUTS:
            if hasattr(fitted, name):
                np.testing.assert_array_equal(
                    getattr(back, name)(X_new),
                    getattr(fitted, name)(X_new),
                    err_msg=name,
                )


@pytest.mark.filterwarnings("ignore::Warning")
def test_grid_search_over_rvm_gamma():
    """The RVM's kernel width chosen by cross-validated R² (scikit-learn's RegressorMixin)."""
    X, y = _data("regression", 0, n=60)
    search = GridSearchCV(RVMRegressor(), {"gamma": [0.05, 0.5, 5.0]}, cv=3).fit(X, y)
    scores = search.cv_results_["mean_test_score"]
    assert search.best_params_["gamma"] == [0.05, 0.5, 5.0][int(np.argmax(scores))]
    assert search.best_estimator_.gamma == search.best_params_["gamma"]


@pytest.mark.filterwarnings("ignore::Warning")
def test_grid_search_gp_classifier_kernel_beside_svc():
    """One GridSearchCV over a pipeline whose last step is an mlcourse GP classifier (two fixed
    kernels) or scikit-learn's SVC: both kinds of estimator are scored on the same folds."""
    X, y = _data("binary", 0, n=60)
    pipe = make_pipeline(StandardScaler(), SVC())
    grid = [
        {
            "svc": [GaussianProcessClassifier(optimize=False)],
            "svc__kernel": [SquaredExponential(0.5), SquaredExponential(2.0)],
        },
        {"svc": [SVC()], "svc__C": [0.1, 1.0]},
    ]
    search = GridSearchCV(pipe, grid, cv=3).fit(X, y)
    kinds = {type(p["svc"]).__name__ for p in search.cv_results_["params"]}
    assert kinds == {"GaussianProcessClassifier", "SVC"}
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))


@pytest.mark.parametrize(
    "name, cls", [(n, c) for n, c in ESTIMATORS if is_classifier(c())]
)
def test_binary_only_classifiers_refuse_three_classes(name, cls):
    est = cls(**PARAMS.get(name, [{}])[0])
    X, y = _data("multiclass", 0)
    if est.__sklearn_tags__().classifier_tags.multi_class:
        est.fit(X, y)
        assert len(est.classes_) == 3
    else:
        assert name in {
            "LogisticRegression",
            "ProbitRegression",
            "BayesianLogisticRegression",
            "GaussianProcessClassifier",
        }
        with pytest.raises(ValueError, match="Only binary classification"):
            est.fit(X, y)


def test_complex_input_is_refused_by_kernels_and_metrics():
    from mlcourse.kernels import SquaredExponential, rbf
    from mlcourse.metrics import roc_auc

    Xc = np.ones((4, 2)) + 1j
    with pytest.raises(ValueError, match="X holds complex numbers"):
        rbf(Xc, Xc)
    with pytest.raises(ValueError, match="X holds complex numbers"):
        SquaredExponential()(Xc)
    with pytest.raises(ValueError, match="complex"):
        roc_auc(np.array([0, 1, 0, 1]), np.array([0.1, 0.2, 0.3, 0.4]) + 1j)


@pytest.mark.parametrize("est, kind", CASES, ids=[repr(e) for e, _ in CASES])
def test_complex_X_is_refused_by_estimators(est, kind):
    X, y = _data(kind, 0)
    with pytest.raises(ValueError, match="[Cc]omplex"):
        clone(est).fit(X + 1j) if y is None else clone(est).fit(X + 1j, y)


def test_softmax_binary_decision_function_and_continuous_y():
    from mlcourse.linear import SoftmaxRegression

    X, y = _data("binary", 0)
    est = SoftmaxRegression().fit(X, y)
    d = est.decision_function(X)
    assert d.shape == (len(y),)
    np.testing.assert_array_equal(est.classes_[(d > 0).astype(int)], est.predict(X))
    with pytest.raises(ValueError, match="Unknown label type"):
        SoftmaxRegression().fit(X, X[:, 0])
