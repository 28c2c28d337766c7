"""The latent-variable models (issue 17): PPCA's EM against its closed form (5000 × 100, r = 10;
shown, no goal), kernel PCA against scikit-learn's (N = 2000, 5 components; goal 0.8x), and PLS
and CCA against scikit-learn's (N = 10⁴, p = 50, q = 5, 5 components; goal 0.5x: scikit-learn
finds each component by power iterations, mlcourse by one SVD).

Each row against scikit-learn also runs on a second, differently shaped input (goal 1x: nowhere
slower): kernel PCA of the digits (N = 800, 64 features) with 50 components, PLS on wide data
(N = 200, p = 1000, q = 3) and CCA with two wide blocks (N = 1000, p = q = 40)."""

import warnings

import numpy as np
from harness import Case
from sklearn import cross_decomposition as skcd
from sklearn import decomposition as skd
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning

from mlcourse.decomposition import CCA, PPCA, KernelPCA, PLSRegression

EPS = np.finfo(float).eps


def _latent(quick):
    """x = Wz + ε with noise comparable to the weakest signal (EM's rate degrades as σ²/λ_r → 0)."""
    rng = np.random.default_rng(0)
    n, p, r = (300, 20, 3) if quick else (5000, 100, 10)
    W = rng.standard_normal((p, r)) * np.linspace(1.0, 0.5, r)
    X = rng.standard_normal((n, r)) @ W.T + rng.standard_normal((n, p))
    return {"X": X, "r": r}


def _ppca_same(em, closed, d):
    """EM's likelihood within its own remaining-gap bound of the maximum: twice the last
    increase times ρ/(1 − ρ), ρ the largest ratio of successive increases over the last 10
    iterations (the exact tail of a geometric sequence, which EM's is asymptotically)."""
    inc = np.diff(em.log_likelihood_history_)
    rate = np.max(inc[-10:] / inc[-11:-1])
    gap = closed.score(d["X"]) - em.score(d["X"])
    return 0 < rate < 1 and -1e-12 <= gap <= 2 * inc[-1] * rate / (1 - rate) + 1e-12


def _circles(quick):
    rng = np.random.default_rng(1)
    n = 300 if quick else 2000
    angle = rng.uniform(0, 2 * np.pi, n)
    radius = np.where(rng.random(n) < 0.5, 1.0, 0.3) + 0.05 * rng.standard_normal(n)
    return {
        "X": np.column_stack([radius * np.cos(angle), radius * np.sin(angle)]),
        "k": 5,
    }


def _digits(quick):
    X = load_digits().data[: 200 if quick else 800]
    return {"X": (X - X.mean(0)) / np.maximum(X.std(0), 1.0), "k": 10 if quick else 50}


def _kpca_same(a, b, d):
    """Eigenvalues within eps·N²·max k (‖K̃‖ ≤ N, rounding eps·N relative, ×10), projections
    up to sign within that over the smallest gap between kept eigenvalues."""
    n = len(d["X"])
    lam = a.eigenvalues_
    tol = 10 * EPS * n * n
    gap = np.min(-np.diff(lam))  # the kept eigenvalues are distinct
    signs = np.sign(np.sum(a.eigenvectors_ * b.eigenvectors_, axis=0))
    return np.allclose(lam, b.eigenvalues_, rtol=0, atol=tol) and np.allclose(
        a.eigenvectors_ * signs, b.eigenvectors_, rtol=0, atol=tol / gap
    )


def _blocks(quick):
    """X (N × p) and Y (N × q) sharing 5 latent directions of distinct strengths."""
    rng = np.random.default_rng(2)
    n, p, q, k = (400, 10, 5, 3) if quick else (10_000, 50, 5, 5)
    Z = rng.standard_normal((n, 5)) * np.geomspace(3.0, 0.5, 5)
    X = Z @ rng.standard_normal((5, p)) + rng.standard_normal((n, p))
    Y = Z @ rng.standard_normal((5, q)) + rng.standard_normal((n, q))
    return {"X": X, "Y": Y, "k": k}


def _wide_blocks(quick):
    """N = 200 samples of p = 1000 inputs and q = 3 targets sharing 5 latent directions."""
    rng = np.random.default_rng(4)
    n, p, q = (60, 200, 3) if quick else (200, 1000, 3)
    Z = rng.standard_normal((n, 5)) * np.geomspace(3.0, 0.5, 5)
    X = Z @ rng.standard_normal((5, p)) + rng.standard_normal((n, p))
    Y = Z @ rng.standard_normal((5, q)) + rng.standard_normal((n, q))
    return {"X": X, "Y": Y, "k": 3 if quick else 5}


def _cca_blocks(quick):
    """Two blocks of 40 columns (N = 1000) sharing 5 latent directions."""
    rng = np.random.default_rng(5)
    n, p = (300, 10) if quick else (1000, 40)
    Z = rng.standard_normal((n, 5)) * np.geomspace(3.0, 0.5, 5)
    X = Z @ rng.standard_normal((5, p)) + rng.standard_normal((n, p))
    Y = Z @ rng.standard_normal((5, p)) + rng.standard_normal((n, p))
    return {"X": X, "Y": Y, "k": 3}


def _sk_cca(d):
    with warnings.catch_warnings():  # its power iterations may stop at max_iter
        warnings.simplefilter("ignore", ConvergenceWarning)
        return skcd.CCA(d["k"]).fit(d["X"], d["Y"])


def _pls_same(a, b, d):
    """Predictions within 1e-5 of their scale: scikit-learn's power iterations stop when the
    change of the weights, squared, is below its tol = 1e-6 (a change of 1e-3 per step, times
    ρ/(1 − ρ) ≲ 1e-2 on these well-separated directions)."""
    pa, pb = a.predict(d["X"]), b.predict(d["X"])
    return np.allclose(pa, pb, rtol=0, atol=1e-5 * np.abs(pb).max())


def _pls_same_derived(a, b, d):
    """As `_pls_same`, with the power method's error derived from the data: scikit-learn's
    change per step, 1e-3, times ρ/(1 − ρ), ρ the squared ratio of the top two singular values
    of the deflated X_kᵀY_k at each component (from our fit; the largest), times 10 for the
    first-order estimate and the rounding. On wide blocks the later components' ρ are larger
    than the first row's."""
    X, Y = ((A - A.mean(0)) / A.std(0, ddof=1) for A in (d["X"], d["Y"]))
    rho = 0.0
    for k in range(d["k"]):
        T, P, C = a.x_scores_[:, :k], a.x_loadings_[:, :k], a.y_loadings_[:, :k]
        s = np.linalg.svd((X - T @ P.T).T @ (Y - T @ C.T), compute_uv=False)
        rho = max(rho, (s[1] / s[0]) ** 2)
    pa, pb = a.predict(d["X"]), b.predict(d["X"])
    tol = 10 * 1e-3 * rho / (1 - rho) * np.abs(pb).max()
    return np.allclose(pa, pb, rtol=0, atol=tol)


def _cca_same(a, b, d):
    """Canonical correlations within 1e-4 of scikit-learn's score correlations: its power
    iterations stop at a weight change of 1e-3 per step, which on these data (ρ_1 and ρ_2 differ
    by 7e-3, a rate (ρ_2/ρ_1)² near 1) leaves ρ_1 off by 3e-5; 1e-4 stays below the smallest gap
    between the correlations, so a wrong or swapped pair fails."""
    U, V = b.transform(d["X"], d["Y"])
    rho = [np.corrcoef(U[:, i], V[:, i])[0, 1] for i in range(d["k"])]
    ours = a.canonical_correlations_
    return 1e-4 < np.min(-np.diff(ours)) and np.allclose(ours, rho, rtol=0, atol=1e-4)


CASES = [
    Case(
        name="PPCA EM vs closed form, 5000x100, r=10",
        setup=_latent,
        ours=lambda d: PPCA(
            d["r"], method="em", tol=1e-8, max_iter=5000, random_state=0
        ).fit(d["X"]),
        theirs=lambda d: PPCA(d["r"]).fit(d["X"]),
        same=_ppca_same,
        goal=float("inf"),
        baseline="mlcourse PPCA(method='closed_form')",
    ),
    Case(
        name="KernelPCA rbf, N=2000, 5 components",
        setup=_circles,
        ours=lambda d: KernelPCA(d["k"], gamma=2.0).fit(d["X"]),
        theirs=lambda d: skd.KernelPCA(d["k"], kernel="rbf", gamma=2.0).fit(d["X"]),
        same=_kpca_same,
        goal=0.8,
    ),
    Case(
        name="KernelPCA rbf, digits N=800 (64 features), 50 comp.",
        setup=_digits,
        ours=lambda d: KernelPCA(d["k"], gamma=1 / 64).fit(d["X"]),
        theirs=lambda d: skd.KernelPCA(d["k"], kernel="rbf", gamma=1 / 64).fit(d["X"]),
        same=_kpca_same,
        goal=1.0,
    ),
    Case(
        name="PLSRegression, N=10^4, p=50, q=5, 5 components",
        setup=_blocks,
        ours=lambda d: PLSRegression(d["k"]).fit(d["X"], d["Y"]),
        theirs=lambda d: skcd.PLSRegression(d["k"]).fit(d["X"], d["Y"]),
        same=_pls_same,
        goal=0.5,
    ),
    Case(
        name="PLSRegression, wide N=200, p=1000, q=3, 5 comp.",
        setup=_wide_blocks,
        ours=lambda d: PLSRegression(d["k"]).fit(d["X"], d["Y"]),
        theirs=lambda d: skcd.PLSRegression(d["k"]).fit(d["X"], d["Y"]),
        same=_pls_same_derived,
        goal=1.0,
    ),
    Case(
        name="CCA, N=10^4, p=50, q=5, 5 components",
        setup=_blocks,
        ours=lambda d: CCA(d["k"]).fit(d["X"], d["Y"]),
        theirs=_sk_cca,
        same=_cca_same,
        goal=0.5,
    ),
    Case(
        name="CCA, N=1000, p=q=40, 3 components",
        setup=_cca_blocks,
        ours=lambda d: CCA(d["k"]).fit(d["X"], d["Y"]),
        theirs=_sk_cca,
        same=_cca_same,
        goal=1.0,
    ),
]
