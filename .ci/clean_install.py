"""Does mlcourse install on its own? Run by .ci/run in a fresh virtual environment made without
requirements.txt, after ``pip install .``: pyproject.toml's dependencies must be all it needs.

Imports every public module and subpackage of the installed package (found by walking it, so a
new one is covered), then fits three small models. Run from outside the repository, so that
``import mlcourse`` finds the installed copy, not the source tree.
"""

import importlib
import pkgutil
import sys
from pathlib import Path

import numpy as np

import mlcourse

ROOT = Path(__file__).resolve().parents[1]
where = Path(mlcourse.__file__).resolve()
if ROOT in where.parents:
    sys.exit(f"mlcourse was imported from the source tree ({where}), not the install")

names = [
    m.name
    for m in pkgutil.walk_packages(mlcourse.__path__, "mlcourse.")
    if not any(part.startswith("_") for part in m.name.split(".")[1:])
]
for name in names:
    importlib.import_module(name)

from mlcourse.gp import GaussianProcessRegressor  # noqa: E402
from mlcourse.linear import LogisticRegression  # noqa: E402
from mlcourse.rvm import RVMRegressor  # noqa: E402

rng = np.random.default_rng(0)
X = rng.uniform(-3, 3, (40, 1))
y = np.sinc(X[:, 0]) + 0.05 * rng.standard_normal(40)
rvm = RVMRegressor(gamma=1.0).fit(X, y)
gp = GaussianProcessRegressor().fit(X, y)
t = X[:, 0] + rng.standard_normal(40) > 0  # overlapping classes: a finite optimum
clf = LogisticRegression().fit(X, t)
assert rvm.score(X, y) > 0.9 and gp.score(X, y) > 0.9 and clf.score(X, t) > 0.6
print(
    f"clean install: imported {len(names)} public modules; RVM, GP and logistic fits ran"
)
