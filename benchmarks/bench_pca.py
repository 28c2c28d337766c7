"""PCA: the eig and svd routes against scikit-learn's full SVD (5000 × 500, 50 components; goals
0.5x and 1x), the eig route against its floor (centre, the D × D scatter by one BLAS ``syrk``, the
top eigenpairs by LAPACK ``syevr``, written inline; goal 1.1x), and the dual N × N route against
the primal D × D one (N = 100, D = 5000).

Both rows against scikit-learn also run on a second, differently shaped input (goal 1x: nowhere
slower): the eig route on tall data (20 000 × 50, 10 components), the svd route on wide data
(500 × 5000, 50 components; the eig route would decompose the 5000 × 5000 scatter there, which
is the dual route's case, below)."""

import numpy as np
from harness import Case
from scipy import linalg
from scipy.linalg.blas import dsyrk
from sklearn.decomposition import PCA as SkPCA

from mlcourse.pca import PCA


def _tall(quick, shape=(5000, 500), k=50):
    rng = np.random.default_rng(0)
    n, d = (300, 40) if quick else shape
    scales = np.geomspace(10.0, 0.1, d)  # distinct variances: components well defined
    X = (
        rng.standard_normal((n, d))
        * scales
        @ np.linalg.qr(rng.standard_normal((d, d)))[0]
    )
    return {"X": X + rng.normal(size=d), "k": 10 if quick else k}


def _wide_random(quick):
    """500 × 5000 with distinct column scales (50 components well defined)."""
    rng = np.random.default_rng(2)
    n, d = (40, 300) if quick else (500, 5000)
    X = rng.standard_normal((n, d)) * np.geomspace(10.0, 0.1, d)
    return {"X": X + rng.normal(size=d), "k": 10 if quick else 50}


def _wide(quick):
    rng = np.random.default_rng(1)
    n, d = (20, 200) if quick else (100, 5000)
    return {
        "X": rng.standard_normal((n, d)) * np.geomspace(10.0, 0.1, d),
        "k": 10 if quick else 50,
    }


def _sklearn(d):
    return SkPCA(n_components=d["k"], svd_solver="full").fit(d["X"])


def _floor_eig(d):
    """Centre, scatter XcᵀXc (upper triangle, syrk), its k largest eigenpairs (syevr); returns
    the variances (÷ N − 1) and the components as rows, in decreasing order."""
    X, k = d["X"], d["k"]
    Xc = X - X.mean(axis=0)
    D = X.shape[1]
    vals, vecs = linalg.eigh(
        dsyrk(1.0, Xc.T),
        lower=False,
        subset_by_index=[D - k, D - 1],
        driver="evr",
        overwrite_a=True,
        check_finite=False,
    )
    return vals[::-1] / (len(X) - 1), vecs[:, ::-1].T


def _variances_components(r):
    return (r.explained_variance_, r.components_) if hasattr(r, "components_") else r


def _same(a, b, _inputs, tol=1e-8):
    """Same variances (relative 1e-8) and the same components up to sign (absolute 1e-8)."""
    (var_a, comp_a), (var_b, comp_b) = (
        _variances_components(a),
        _variances_components(b),
    )
    signs = np.sign(np.sum(comp_a * comp_b, axis=1))[:, None]
    return np.allclose(var_a, var_b, rtol=tol, atol=0) and np.allclose(
        comp_a * signs, comp_b, rtol=0, atol=tol
    )


CASES = (
    [
        Case(
            name=f"PCA {method}, 5000x500, 50 components",
            setup=_tall,
            ours=lambda d, method=method: PCA(d["k"], method=method).fit(d["X"]),
            theirs=_sklearn,
            same=_same,
            goal=goal,
        )
        for method, goal in [("eig", 0.5), ("svd", 1.0)]
    ]
    + [
        Case(
            name="PCA eig, tall 20000x50, 10 components",
            setup=lambda quick: _tall(quick, (20_000, 50), 10),
            ours=lambda d: PCA(d["k"], method="eig").fit(d["X"]),
            theirs=_sklearn,
            same=_same,
            goal=1.0,
        ),
        Case(
            name="PCA svd, wide 500x5000, 50 components",
            setup=_wide_random,
            ours=lambda d: PCA(d["k"], method="svd").fit(d["X"]),
            theirs=_sklearn,
            same=_same,
            goal=1.0,
        ),
    ]
    + [
        Case(
            name="PCA eig, 5000x500, 50 components",
            setup=_tall,
            ours=lambda d: PCA(d["k"], method="eig").fit(d["X"]),
            theirs=_floor_eig,
            same=_same,
            goal=1.1,
            baseline="floor: centre, syrk, syevr inline",
        ),
        Case(
            name="PCA dual vs primal eig, N=100, D=5000",
            setup=_wide,
            ours=lambda d: PCA(d["k"], method="dual").fit(d["X"]),
            theirs=lambda d: PCA(d["k"], method="eig").fit(d["X"]),
            same=_same,
            goal=0.05,
            baseline="mlcourse PCA(method='eig')",
        ),
    ]
)
