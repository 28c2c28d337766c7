"""The package's layout: every public path the chapters and tests use imports, the private boundary
holds, ``import mlcourse`` stays lazy, and each subpackage owns its ``__all__``."""

import ast
import json
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

import mlcourse
from mlcourse.utils.discovery import public_modules

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mlcourse"

# Every public path the chapters and the tests used when the package was split into subpackages
# (issue 13), old shims included: none may break silently. A path is "module:name" (from module
# import name) or "module" (import module).
PUBLIC_PATHS = [
    "mlcourse.base:BaseEstimator",
    "mlcourse.base:ClassifierMixin",
    "mlcourse.checks:check",
    "mlcourse.checks:check_close",
    "mlcourse.checks:check_equal",
    "mlcourse.checks:EPS",
    "mlcourse.checks:round_up",
    "mlcourse.checks:relative_rounding",
    "mlcourse.checks:fd_error",
    "mlcourse.checks:fd_truncation",
    "mlcourse.checks:nll_rounding",
    "mlcourse.checks:gradient_rounding",
    "mlcourse.checks:newton_gradient",
    "mlcourse.checks:gradient_at_stop",
    "mlcourse.checks:optimum_gap",
    "mlcourse.checks:LBFGSB_FTOL",
    "mlcourse.checks:LBFGSB_GTOL",
    "mlcourse.checks:lbfgsb_gain",
    "mlcourse.checks:lbfgsb_tolerances",
    "mlcourse.datasets:gaussian_classes",
    "mlcourse.datasets:sinc",
    "mlcourse.datasets:sinc_data",
    "mlcourse.exercises:EXERCISES",
    "mlcourse.exercises:Exercise",
    "mlcourse.exercises:Feedback",
    "mlcourse.exercises:check",
    "mlcourse.feature_selection:FeatureSelector",
    "mlcourse.feature_selection:HistogramClassifier",
    "mlcourse.feature_selection:backward_elimination",
    "mlcourse.feature_selection:conditional_mutual_information",
    "mlcourse.feature_selection:discretize",
    "mlcourse.feature_selection:entropy",
    "mlcourse.feature_selection:forward_selection",
    "mlcourse.feature_selection:kfold_splits",
    "mlcourse.feature_selection:kuncheva_index",
    "mlcourse.feature_selection:mutual_information",
    "mlcourse.feature_selection:orthogonal_matching_pursuit",
    "mlcourse.feature_selection:select_features",
    "mlcourse.gp:GaussianProcessClassifier",
    "mlcourse.gp:GaussianProcessRegressor",
    "mlcourse.gp:KalmanGPRegressor",
    "mlcourse.kernels:BasisKernel",
    "mlcourse.kernels:SquaredExponential",
    "mlcourse.kernels:linear_spline",
    "mlcourse.kernels:rbf",
    "mlcourse.kernels:sq_dist",
    "mlcourse.laplace:BayesianLogisticRegression",
    "mlcourse.laplace:LaplaceResult",
    "mlcourse.laplace:laplace_approximation",
    "mlcourse.laplace:probit_approximation",
    "mlcourse.linear:ConvergenceWarning",
    "mlcourse.linear:GaussianGenerativeClassifier",
    "mlcourse.linear:LogisticRegression",
    "mlcourse.linear:OptimizeResult",
    "mlcourse.linear:ProbitRegression",
    "mlcourse.linear:SeparationWarning",
    "mlcourse.linear:SoftmaxRegression",
    "mlcourse.linear:check_precision",
    "mlcourse.linear:design_matrix",
    "mlcourse.linear:gradient_descent",
    "mlcourse.linear:logistic_objective",
    "mlcourse.linear:logit_nll_terms",
    "mlcourse.linear:newton_minimize",
    "mlcourse.linear:probit_nll_terms",
    "mlcourse.linear:probit_objective",
    "mlcourse.linear:sgd",
    "mlcourse.linear:softmax_objective",
    "mlcourse.linear:weighted_gram",
    "mlcourse.metrics:RocTable",
    "mlcourse.metrics:UndefinedMetricWarning",
    "mlcourse.metrics:accuracy",
    "mlcourse.metrics:classification_cost",
    "mlcourse.metrics:confusion_matrix",
    "mlcourse.metrics:f_measure",
    "mlcourse.metrics:min_cost_threshold",
    "mlcourse.metrics:precision",
    "mlcourse.metrics:recall",
    "mlcourse.metrics:roc_auc",
    "mlcourse.metrics:roc_curve",
    "mlcourse.metrics:roc_table",
    "mlcourse.pca:PCA",
    "mlcourse.pca:fisher_criterion",
    "mlcourse.pca:fisher_direction",
    "mlcourse.pca:profile_likelihood",
    "mlcourse.decomposition:PCA",
    "mlcourse.decomposition:PPCA",
    "mlcourse.decomposition:SupervisedPCA",
    "mlcourse.decomposition:PLSRegression",
    "mlcourse.decomposition:CCA",
    "mlcourse.decomposition:KernelPCA",
    "mlcourse.decomposition:ppca_max_log_likelihood",
    "mlcourse.decomposition:ppca_bic",
    "mlcourse.decomposition:ppca_evidence",
    "mlcourse.plotting:grid_2d",
    "mlcourse.plotting:plot_band",
    "mlcourse.plotting:plot_confusion",
    "mlcourse.plotting:image_mosaic",
    "mlcourse.plotting:plot_image_grid",
    "mlcourse.plotting:plot_operating_point",
    "mlcourse.plotting:plot_probability_2d",
    "mlcourse.plotting:plot_roc",
    "mlcourse.rbf:KernelRidge",
    "mlcourse.rbf:NadarayaWatson",
    "mlcourse.rbf:NormalizedRBFClassifier",
    "mlcourse.rbf:RBFNetwork",
    "mlcourse.cluster:kmeans",
    "mlcourse.cluster:kmeans_plusplus",
    "mlcourse.cluster:cluster_widths",
    "mlcourse.cluster:gaussian_mixture",
    "mlcourse.cluster:component_log_density",
    "mlcourse.linear:fisher_direction",
    "mlcourse.linear:fisher_criterion",
    "mlcourse.rbf:network_objective",
    "mlcourse.rbf:ridge_weights",
    "mlcourse.rvm:EvidenceFit",
    "mlcourse.rvm:ConvergenceWarning",
    "mlcourse.rvm:NOISE_FLOOR",
    "mlcourse.rvm:PRUNE_ALPHA",
    "mlcourse.rvm:Posterior",
    "mlcourse.rvm:RVMRegressor",
    "mlcourse.rvm:SBLFit",
    "mlcourse.rvm:alpha_marginal",
    "mlcourse.rvm:evidence_gradient",
    "mlcourse.rvm:fit_em",
    "mlcourse.rvm:fit_sequential",
    "mlcourse.rvm:log_evidence",
    "mlcourse.rvm:log_evidence_direct",
    "mlcourse.rvm:optimal_alpha",
    "mlcourse.rvm:posterior",
    "mlcourse.rvm:reestimate",
    "mlcourse.rvm:sparsity_quality",
    "mlcourse.rvm:RVMClassifier",
    "mlcourse.rvm:laplace_posterior",
    "mlcourse.rvm:working_problem",
    "mlcourse.rvm:LaplacePosterior",
    "mlcourse.rvm:fit_em_classifier",
    "mlcourse.rvm:fit_sequential_classifier",
    "mlcourse.rvm:ClassifierFit",
    "mlcourse.utils.optimize:NEWTON_TOL",
    "mlcourse.special:log_probit",
    "mlcourse.special:log_sigmoid",
    "mlcourse.special:log_softmax",
    "mlcourse.special:logsumexp",
    "mlcourse.special:probit",
    "mlcourse.special:sigmoid",
    "mlcourse.special:softmax",
    "mlcourse.widgets:interact",
    "mlcourse.widgets:interact_figure",
    "mlcourse.widgets:log_slider",
    "mlcourse.widgets:made",
    "mlcourse.widgets:show",
    "mlcourse.widgets:slider",
]


@pytest.mark.parametrize("path", PUBLIC_PATHS)
def test_public_path_imports(path):
    module, _, name = path.partition(":")
    mod = import_module(module)
    assert getattr(mod, name) is not None


def _notebook_imports():
    """(notebook, module, name) for every ``from mlcourse... import`` in a chapter's code."""
    for nb_path in sorted((ROOT / "book").glob("*.ipynb")):
        nb = json.loads(nb_path.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            lines = [
                ln
                for ln in source.splitlines()
                if not ln.lstrip().startswith(("%", "!"))
            ]
            for node in ast.walk(ast.parse("\n".join(lines))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "mlcourse"
                ):
                    for alias in node.names:
                        yield nb_path.name, node.module, alias.name


@pytest.mark.parametrize("notebook, module, name", sorted(set(_notebook_imports())))
def test_every_name_a_chapter_imports_exists(notebook, module, name):
    assert hasattr(import_module(module), name), (
        f"{notebook}: from {module} import {name}"
    )


def test_import_mlcourse_is_lazy():
    """``import mlcourse`` loads no submodule (and so not even NumPy); attribute access does."""
    code = (
        "import sys, mlcourse; loaded = sorted(m for m in sys.modules if "
        "m.startswith('mlcourse') or m == 'numpy'); print(loaded); "
        "mlcourse.metrics.roc_auc; print('mlcourse.metrics' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.split("\n")[:2] == ["['mlcourse']", "True"]


def test_submodules_are_found_not_listed():
    found = set(dir(mlcourse))
    expected = {p.stem for p in PACKAGE.glob("*.py") if not p.stem.startswith("_")}
    expected |= {
        p.parent.name
        for p in PACKAGE.glob("*/__init__.py")
        if not p.parent.name.startswith("_")
    }
    assert expected <= found
    for name in expected:
        assert getattr(mlcourse, name) is import_module(f"mlcourse.{name}")
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = mlcourse.nope


@pytest.mark.parametrize(
    "package",
    [
        m
        for m in public_modules()
        if (PACKAGE / m.split(".", 1)[-1].replace(".", "/") / "__init__.py").exists()
        and m != "mlcourse"
    ],
)
def test_subpackage_owns_its_all(package):
    mod = import_module(package)
    assert isinstance(mod.__all__, list)
    for name in mod.__all__:
        assert hasattr(mod, name), (
            f"{package}.__all__ names {name!r}, which it does not have"
        )


# --- the private boundary -------------------------------------------------------------------------


def _unit(dotted):
    """The subpackage (or top-level module) of a dotted name: mlcourse.rvm._loops -> 'rvm'."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(source, dotted, is_package):
    """(importer, imported object's dotted name) for every import of mlcourse in `source`, the
    code of module `dotted`, with relative imports resolved."""
    package = dotted if is_package else dotted.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                yield dotted, f"{target}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield dotted, alias.name


def _leaks(imports):
    """The imports of a private module or name (a part starting with one "_") that belongs to
    another subpackage or top-level module than the importer."""
    for importer, full in imports:
        private = [
            p
            for p in full.split(".")[1:]
            if p.startswith("_") and not p.startswith("__")
        ]
        if full.startswith("mlcourse.") and private and _unit(full) != _unit(importer):
            yield importer, full


def _package_imports():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        dotted = ".".join(parts[:-1] if is_package else parts)
        yield from _imports(path.read_text(), dotted, is_package)


def test_no_private_name_is_imported_across_subpackages():
    """A subpackage's private modules and underscore names are its own: another subpackage
    imports only public names (from the core, or from a topic's __init__)."""
    imports = list(_package_imports())
    assert len(imports) > 100, "the import scan found too little: is it broken?"
    leaks = sorted(set(_leaks(imports)))
    assert not leaks, "private names imported across subpackages: " + "; ".join(
        f"{a} imports {b}" for a, b in leaks
    )


def test_the_boundary_check_sees_a_leak():
    """The check above finds what it is meant to find, and only that."""
    source = (
        "from ..linear._base import _Regression\n"  # another topic's private module
        "from ..utils.objectives import _binary_objective\n"  # a core private name
        "from ._loops import fit_sequential\n"  # its own private module: fine
        "from .. import kernels\n"  # public: fine
        "from ..kernels import design_matrix\n"
        "import numpy as np\n"
    )
    imports = list(_imports(source, "mlcourse.rvm._regressor", False))
    assert ("mlcourse.rvm._regressor", "mlcourse.rvm._loops.fit_sequential") in imports
    assert ("mlcourse.rvm._regressor", "mlcourse.kernels") in imports
    assert sorted(full for _, full in _leaks(imports)) == [
        "mlcourse.linear._base._Regression",
        "mlcourse.utils.objectives._binary_objective",
    ]
