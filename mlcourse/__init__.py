"""mlcourse: the algorithms of a probabilistic machine-learning course, from scratch.

Each submodule implements one topic in NumPy/SciPy and is checked against scikit-learn and by
independent numerical routes in ``tests/`` and in the book's chapters.

Submodules are imported on first use, so ``import mlcourse`` is cheap and
``mlcourse.metrics.roc_auc(...)`` works without a separate import.
"""

from importlib import import_module as _import_module

__version__ = "0.1.0"

_SUBMODULES = {
    "base",
    "checks",
    "datasets",
    "decomposition",
    "exceptions",
    "gp",
    "gp_classification",
    "gp_recursive",
    "kernels",
    "laplace",
    "linear",
    "metrics",
    "pca",
    "plotting",
    "rvm",
    "special",
    "utils",
    "widgets",
}


def __getattr__(name):
    if name in _SUBMODULES:
        return _import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _SUBMODULES)
