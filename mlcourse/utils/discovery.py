"""Find the public modules and estimators of :mod:`mlcourse` (as ``sklearn.utils.discovery``).

The tests use this instead of hand-kept lists: the contract tests run on every estimator found
here, so a new chapter's estimator is covered as soon as its subpackage exports it.
"""

from __future__ import annotations

import inspect
import pkgutil
from importlib import import_module

__all__ = ["public_modules", "all_estimators"]


def _is_private(dotted: str) -> bool:
    return any(part.startswith("_") for part in dotted.split(".")[1:])


def public_modules(include_private: bool = False) -> list[str]:
    """Dotted names of the modules and subpackages of :mod:`mlcourse`, sorted.

    Parameters
    ----------
    include_private : bool
        Also list private modules (a name with a part that starts with ``_``, and everything
        under such a part).
    """
    package = import_module("mlcourse")
    names = ["mlcourse"] + [
        info.name for info in pkgutil.walk_packages(package.__path__, "mlcourse.")
    ]
    return sorted(n for n in names if include_private or not _is_private(n))


def all_estimators() -> list[tuple[str, type]]:
    """(name, class) of every public estimator, sorted by name, each class once.

    A public estimator is a class that derives from :class:`mlcourse.base.BaseEstimator` (not the
    base itself) and that a public module names in its ``__all__``.
    """
    from ..base import BaseEstimator

    found = {}
    for dotted in public_modules():
        module = import_module(dotted)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseEstimator)
                and obj is not BaseEstimator
            ):
                found[obj] = name
    return sorted(
        ((name, cls) for cls, name in found.items()), key=lambda pair: pair[0]
    )
