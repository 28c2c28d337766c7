"""mlcourse: the algorithms of a probabilistic machine-learning course, from scratch.

One subpackage per topic — :mod:`~mlcourse.metrics` (evaluating classifiers),
:mod:`~mlcourse.linear` (linear classifiers, Fisher's direction), :mod:`~mlcourse.laplace` (the
Laplace approximation, Bayesian logistic regression), :mod:`~mlcourse.rbf` (RBF networks),
:mod:`~mlcourse.cluster` (k-means, Gaussian mixtures), :mod:`~mlcourse.gp` (Gaussian
processes), :mod:`~mlcourse.rvm` (relevance vector machines), :mod:`~mlcourse.feature_selection`
and :mod:`~mlcourse.decomposition` (PCA and the latent-variable models) — on a shared core:
:mod:`~mlcourse.base` (the estimator contract), :mod:`~mlcourse.exceptions`,
:mod:`~mlcourse.utils` (validation, optimisers, likelihoods, finite differences),
:mod:`~mlcourse.kernels`, :mod:`~mlcourse.special`, and the chapters' helpers
:mod:`~mlcourse.checks`, :mod:`~mlcourse.datasets`, :mod:`~mlcourse.plotting`,
:mod:`~mlcourse.widgets` and :mod:`~mlcourse.exercises` (exercises that check themselves).
Each is checked against scikit-learn and by independent numerical routes in ``tests/`` and in
the book's chapters.

Submodules are imported on first use, so ``import mlcourse`` is cheap and
``mlcourse.metrics.roc_auc(...)`` works without a separate import. The public submodules are
found in the package folder (every module or subpackage whose name does not start with ``_``),
so a new one needs no entry here.
"""

__version__ = "0.1.0"

_submodules = None


def _public_submodules() -> frozenset:
    """Names of the public modules and subpackages in this folder (listed once, none imported)."""
    global _submodules
    if _submodules is None:
        from pkgutil import iter_modules

        _submodules = frozenset(
            m.name for m in iter_modules(__path__) if not m.name.startswith("_")
        )
    return _submodules


def __getattr__(name):
    if name in _public_submodules():
        from importlib import import_module

        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _public_submodules())
