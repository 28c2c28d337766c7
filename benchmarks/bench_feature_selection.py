"""Feature selection: JMI with cached pairwise terms against a naive recomputation of every
term at every step (10⁴ × 200 discretised features, 20 picks; goal ≥ 10× faster, ratio ≤ 0.1),
and orthogonal matching pursuit against scikit-learn's ``OrthogonalMatchingPursuit``
(2000 × 500, 50 non-zeros; goal ≤ 1.0×), and on a second, differently shaped input: the
compressed-sensing shape, 500 × 2000 (more columns than rows), 50 non-zeros (goal ≤ 1.0×).

The naive JMI is the textbook loop: at step m, for every candidate j, it sums the m terms
Î({x_i, x_j}; t) over the selected i, each counted from scratch (``bincount`` on the integer
codes, no sorting), as a direct reading of the lecture's criterion would. mlcourse computes each
term once, when x_i is selected, for all candidates at once, and keeps a running sum: the cache
alone divides the number of terms by about k/2 = 10, and counting all candidates in one matrix
product does the rest.
"""

import numpy as np
from harness import Case
from scipy.special import xlogy
from sklearn.linear_model import OrthogonalMatchingPursuit

from mlcourse.feature_selection import orthogonal_matching_pursuit, select_features


def _jmi_setup(quick):
    rng = np.random.default_rng(0)
    n, p, k, bins = (500, 20, 5, 5) if quick else (10_000, 200, 20, 5)
    t = rng.integers(0, 2, n)
    X = rng.integers(0, bins, (n, p))
    informative = rng.choice(p, p // 10, replace=False)
    X[:, informative] = np.where(
        rng.random((n, len(informative))) < 0.3,
        t[:, None] * (bins - 1),
        X[:, informative],
    )
    return {"X": X, "t": t, "k": k, "bins": bins}


def _entropy_of_counts(counts, n):
    return np.log(n) - xlogy(counts, counts).sum() / n


def _naive_jmi(d):
    X, t, k, bins = d["X"], d["t"], d["k"], d["bins"]
    n, p = X.shape
    h_t = _entropy_of_counts(np.bincount(t), n)

    def mi(code, states):  # Î(code; t), from scratch
        return (
            _entropy_of_counts(np.bincount(code), n)
            + h_t
            - _entropy_of_counts(np.bincount(code + states * t), n)
        )

    order = [int(np.argmax([mi(X[:, j], bins) for j in range(p)]))]
    while len(order) < k:
        scores = [
            sum(mi(X[:, i] + bins * X[:, j], bins * bins) for i in order)
            if j not in order
            else -np.inf
            for j in range(p)
        ]
        order.append(int(np.argmax(scores)))
    return np.array(order)


def _omp_setup(quick, wide=False):
    rng = np.random.default_rng(2 if wide else 1)
    n, p, k = (200, 50, 5) if quick else (2000, 500, 50)
    if wide:
        n, p = p, n
    X = rng.standard_normal((n, p))
    X /= np.linalg.norm(
        X, axis=0
    )  # unit columns: scikit-learn's rule is the lecture's then
    w = np.zeros(p)
    w[rng.choice(p, k, replace=False)] = rng.choice([-1, 1], k) * rng.uniform(1, 2, k)
    return {"X": X, "y": X @ w + 0.01 * rng.standard_normal(n), "k": k}


def _omp_same(ours, theirs, d):
    """Same support, and the same weights within the normal equations' error ε·κ(X_S)²·N."""
    support = np.sort(ours.support)
    kappa = np.linalg.cond(d["X"][:, support])
    tol = 10 * np.finfo(float).eps * len(d["y"]) * kappa**2 * np.abs(theirs.coef_).max()
    return np.array_equal(support, np.flatnonzero(theirs.coef_)) and np.allclose(
        ours.coef, theirs.coef_, rtol=0, atol=tol
    )


def _omp_case(name, wide):
    return Case(
        name=name,
        setup=lambda quick: _omp_setup(quick, wide),
        ours=lambda d: orthogonal_matching_pursuit(d["X"], d["y"], d["k"]),
        theirs=lambda d: OrthogonalMatchingPursuit(
            n_nonzero_coefs=d["k"], fit_intercept=False
        ).fit(d["X"], d["y"]),
        same=_omp_same,
        goal=1.0,
    )


CASES = [
    Case(
        name="select_features jmi, 1e4x200, 20 picks",
        setup=_jmi_setup,
        ours=lambda d: select_features(d["X"], d["t"], d["k"], "jmi"),
        theirs=_naive_jmi,
        same=lambda a, b, d: np.array_equal(a, b),
        goal=0.1,
        baseline="naive JMI, every term every step",
    ),
    _omp_case("orthogonal_matching_pursuit, 2000x500, 50 nonzeros", wide=False),
    _omp_case("orthogonal_matching_pursuit, 500x2000, 50 nonzeros", wide=True),
]
