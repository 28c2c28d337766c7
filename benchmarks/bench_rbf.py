"""RBF networks (lecture 002): kernel ridge against scikit-learn's ``KernelRidge`` at N = 2000
(fit + predict 1000 points; goal: at most 0.6 of scikit-learn's time), and ``RBFNetwork``
(k-means centres, cluster widths, ridge weights) at N = 10⁴, M = 100 against a plain
least-squares solve on the same design matrix Φ̃ (the floor: any fit must at least solve it; goal:
at most 2x the floor).

Data: 5-D inputs, uniform on [-2, 2]^5, target Σ_d sin(x_d) plus noise of standard deviation 0.1,
seeded.

The kernel ridge row also runs on a second, differently shaped input (goal 1x: nowhere
slower): 50-D inputs (the same target on the first five), fit N = 500, predict 5000, where the
kernel evaluations (N·M·D) outweigh the Cholesky factorisation.
"""

import numpy as np
from harness import Case
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge

from mlcourse.rbf import KernelRidge, RBFNetwork, rbf_design

D = 5
GAMMA = 0.2
ALPHA = 1e-6  # λ of RBFNetwork, its default


def _data(n, n_test, seed=0, dim=D):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(n + n_test, dim))
    y = np.sin(X[:, :D]).sum(axis=1) + 0.1 * rng.normal(size=n + n_test)
    return {"X": X[:n], "y": y[:n], "X_test": X[n:]}


def _kr_setup(quick):
    return _data(300 if quick else 2000, 100 if quick else 1000)


def _kr_wide_setup(quick):
    return _data(100 if quick else 500, 500 if quick else 5000, seed=1, dim=50)


def _kr(cls, gamma=GAMMA):
    def run(d):
        return (
            cls(alpha=1.0, kernel="rbf", gamma=gamma)
            .fit(d["X"], d["y"])
            .predict(d["X_test"])
        )

    return run


def _kr_same(a, b, _inputs):
    """The issue's bar: the predictions agree to 1e-8 (G + I has condition number ≤ 1 + N, so
    both Cholesky solves are accurate to about N·ε·(1 + N)·|y| ≈ 1e-9 here)."""
    return np.max(np.abs(a - b)) < 1e-8


def _net_setup(quick):
    d = _data(1000 if quick else 10_000, 0)
    d["M"] = 20 if quick else 100
    net = RBFNetwork(n_centers=d["M"], random_state=0).fit(d["X"], d["y"])
    d["Phi"] = rbf_design(
        d["X"], net.centers_, net.widths_
    )  # the same Φ̃ the fit ends with
    return d


def _net_ours(d):
    net = RBFNetwork(n_centers=d["M"], alpha=ALPHA, random_state=0).fit(d["X"], d["y"])
    return net.predict(d["X"]), np.r_[net.intercept_, net.coef_]


def _net_floor(d):
    w = np.linalg.lstsq(d["Phi"], d["y"], rcond=None)[0]
    return d["Phi"] @ w, w


def _net_same(ours, floor, d):
    """The ridge solution w_λ minimises ‖r‖² + λ‖w‖², so its residual obeys
    ‖r_λ‖² ≤ ‖r_0‖² + λ‖w_0‖² with w_0 the least-squares solution (and ‖r_λ‖² ≥ ‖r_0‖²): both
    routes fitted the same Φ̃, up to a relative 1e-10 of rounding."""
    r_ours = np.sum((d["y"] - ours[0]) ** 2)
    r_floor = np.sum((d["y"] - floor[0]) ** 2)
    bound = r_floor + ALPHA * np.sum(floor[1] ** 2)
    return r_floor * (1 - 1e-10) <= r_ours <= bound * (1 + 1e-10)


CASES = [
    Case(
        name="RBF chapter: KernelRidge, fit N=2000 + predict 1000",
        setup=_kr_setup,
        ours=_kr(KernelRidge),
        theirs=_kr(SkKernelRidge),
        same=_kr_same,
        goal=0.6,
    ),
    Case(
        name="RBF chapter: KernelRidge 50-D, fit 500, predict 5000",
        setup=_kr_wide_setup,
        ours=_kr(KernelRidge, GAMMA / 10),
        theirs=_kr(SkKernelRidge, GAMMA / 10),
        same=_kr_same,
        goal=1.0,
    ),
    Case(
        name="RBF chapter: RBFNetwork kmeans N=10^4 M=100",
        setup=_net_setup,
        ours=_net_ours,
        theirs=_net_floor,
        same=_net_same,
        goal=2.0,
        baseline="numpy lstsq on the same Φ̃ (floor)",
    ),
]
