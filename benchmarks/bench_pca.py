"""PCA: the eig and svd routes against scikit-learn's full SVD (5000 × 500, 50 components; goals
0.5x and 1x), and the dual N × N route against the primal D × D one (N = 100, D = 5000)."""

import numpy as np
from harness import Case
from sklearn.decomposition import PCA as SkPCA

from mlcourse.pca import PCA


def _tall(quick):
    rng = np.random.default_rng(0)
    n, d = (300, 40) if quick else (5000, 500)
    scales = np.geomspace(10.0, 0.1, d)              # distinct variances: components well defined
    X = rng.standard_normal((n, d)) * scales @ np.linalg.qr(rng.standard_normal((d, d)))[0]
    return {"X": X + rng.normal(size=d), "k": 10 if quick else 50}


def _wide(quick):
    rng = np.random.default_rng(1)
    n, d = (20, 200) if quick else (100, 5000)
    return {"X": rng.standard_normal((n, d)) * np.geomspace(10.0, 0.1, d), "k": 10 if quick else 50}


def _sklearn(d):
    return SkPCA(n_components=d["k"], svd_solver="full").fit(d["X"])


def _same(a, b, _inputs, tol=1e-8):
    """Same variances (relative 1e-8) and the same components up to sign (absolute 1e-8)."""
    signs = np.sign(np.sum(a.components_ * b.components_, axis=1))[:, None]
    return (np.allclose(a.explained_variance_, b.explained_variance_, rtol=tol, atol=0)
            and np.allclose(a.components_ * signs, b.components_, rtol=0, atol=tol))


CASES = [
    Case(name=f"PCA {method}, 5000x500, 50 components",
         setup=_tall,
         ours=lambda d, method=method: PCA(d["k"], method=method).fit(d["X"]),
         theirs=_sklearn,
         same=_same,
         goal=goal)
    for method, goal in [("eig", 0.5), ("svd", 1.0)]
] + [
    Case(name="PCA dual vs primal eig, N=100, D=5000",
         setup=_wide,
         ours=lambda d: PCA(d["k"], method="dual").fit(d["X"]),
         theirs=lambda d: PCA(d["k"], method="eig").fit(d["X"]),
         same=_same,
         goal=0.05,
         baseline="mlcourse PCA(method='eig')"),
]
