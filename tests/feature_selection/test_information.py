"""Entropies and mutual informations: against the formulas on exact distributions, the lecture's
identities (JMI, CMIM, the conditional likelihood), the bivariate Gaussian's closed form, the
Miller–Madow correction, and the discretisation against scikit-learn."""

import numpy as np
import pytest
from scipy import stats
from scipy.special import xlogy
from sklearn.preprocessing import KBinsDiscretizer

from mlcourse.feature_selection import (
    conditional_mutual_information,
    discretize,
    entropy,
    mutual_information,
)

EPS = np.finfo(float).eps


def sample_of(counts):
    """Samples whose empirical distribution is exactly counts / counts.sum(): each cell of the
    array `counts` (one axis per variable) repeated n times. Returns one column per axis."""
    cells = np.argwhere(np.ones_like(counts, dtype=bool))
    reps = counts[tuple(cells.T)]
    return [np.repeat(cells[:, a], reps) for a in range(counts.ndim)]


def H(p, axes):
    """Entropy in nats of the marginal of the pmf `p` on `axes`."""
    drop = tuple(a for a in range(p.ndim) if a not in axes)
    m = p.sum(axis=drop).ravel()
    return float(-xlogy(m, m).sum())


def random_counts(rng, shape, zeros=0.3):
    """Random cell counts, some cells empty (plug-in estimates must skip them)."""
    c = rng.integers(1, 30, size=shape)
    c[rng.random(shape) < zeros] = 0
    c.flat[0] += 1
    return c


def rounding(n_cells, n):
    """Entropies sum n_cells terms p ln p of size ≤ ln N: 10·ε·n_cells·ln N per entropy, and an
    identity adds at most eight of them."""
    return 8 * 10 * EPS * n_cells * max(np.log(n), 1.0)


@pytest.mark.parametrize("seed", range(5))
def test_plug_in_estimates_are_the_functionals_of_the_empirical_distribution(seed):
    rng = np.random.default_rng(seed)
    counts = random_counts(rng, (3, 4, 2))
    x, y, z = sample_of(counts)
    p = counts / counts.sum()
    tol = rounding(counts.size, len(x))
    assert entropy(x, y, z) == pytest.approx(H(p, (0, 1, 2)), abs=tol)
    assert entropy(np.c_[x, y], z) == pytest.approx(H(p, (0, 1, 2)), abs=tol)
    assert entropy(z) == pytest.approx(stats.entropy(counts.sum(axis=(0, 1))), abs=tol)
    assert mutual_information(x, y) == pytest.approx(
        H(p, (0,)) + H(p, (1,)) - H(p, (0, 1)), abs=tol
    )
    # I(x; y | z) from its definition Σ p(x,y,z) ln[p(x,y|z) / (p(x|z) p(y|z))]
    pz, pxz, pyz = p.sum(axis=(0, 1)), p.sum(axis=1), p.sum(axis=0)
    nz = p > 0
    ratio = (p * pz[None, None, :]) / (pxz[:, None, :] * pyz[None, :, :] + ~nz)
    cmi = float(np.sum(p[nz] * np.log(ratio[nz])))
    assert conditional_mutual_information(x, y, z) == pytest.approx(cmi, abs=tol)


def test_values_are_categories_of_any_type():
    x = np.array(["a", "b", "b", "c", "a", "a"])
    y = np.array([1.5, -2.0, -2.0, 7.0, 1.5, 1.5])
    assert mutual_information(x, y) == pytest.approx(entropy(x), abs=10 * EPS)
    assert entropy(np.zeros(5)) == 0.0


@pytest.mark.parametrize("seed", range(5))
def test_jmi_and_cmim_expanded_forms_are_identities(seed):
    """Lecture 002, "JMI & CMIM Criteria": on a random joint distribution of
    (x_1, ..., x_4, t), with S = {x_1, x_2} selected and candidates j = 3, 4."""
    rng = np.random.default_rng(seed)
    counts = random_counts(rng, (2, 3, 3, 2, 3), zeros=0.2)
    *xs, t = sample_of(counts)
    tol = rounding(counts.size, len(t))
    S, cands = [0, 1], [2, 3]
    I = mutual_information
    Ic = conditional_mutual_information
    for j in cands:
        for i in S:
            # {x_i, x_j} jointly: the chain rule I({x_i, x_j}; t) = I(x_i; t) + I(x_j; t | x_i)
            assert I(np.c_[xs[i], xs[j]], t) == pytest.approx(
                I(xs[i], t) + Ic(xs[j], t, xs[i]), abs=tol
            )
            # I(x_j; t | x_i) = I(x_j; t) − I(x_j; x_i) + I(x_j; x_i | t)
            assert Ic(xs[j], t, xs[i]) == pytest.approx(
                I(xs[j], t) - I(xs[j], xs[i]) + Ic(xs[j], xs[i], t), abs=tol
            )
    jmi = [sum(I(np.c_[xs[i], xs[j]], t) for i in S) for j in cands]
    jmi_cond = [sum(Ic(xs[j], t, xs[i]) for i in S) for j in cands]
    jmi_red = [
        I(xs[j], t) - np.mean([I(xs[j], xs[i]) - Ic(xs[j], xs[i], t) for i in S])
        for j in cands
    ]
    const = sum(I(xs[i], t) for i in S)
    np.testing.assert_allclose(np.subtract(jmi, const), jmi_cond, rtol=0, atol=tol)
    np.testing.assert_allclose(np.divide(jmi_cond, len(S)), jmi_red, rtol=0, atol=tol)
    cmim = [min(Ic(xs[j], t, xs[i]) for i in S) for j in cands]
    cmim_red = [
        I(xs[j], t) - max(I(xs[j], xs[i]) - Ic(xs[j], xs[i], t) for i in S)
        for j in cands
    ]
    np.testing.assert_allclose(cmim, cmim_red, rtol=0, atol=tol)


def test_the_lectures_second_jmi_line_is_not_an_identity():
    """Printed: |S| I(x_j; t) − I(x_j; x_i) + I(x_j; x_i | t), with no sum over i: with two
    selected features it differs from Σ_i I(x_j; t | x_i) by far more than rounding."""
    rng = np.random.default_rng(0)
    counts = random_counts(rng, (2, 3, 3, 2), zeros=0.1)
    x1, x2, xj, t = sample_of(counts)
    I, Ic = mutual_information, conditional_mutual_information
    right = Ic(xj, t, x1) + Ic(xj, t, x2)
    for xi in (x1, x2):
        printed = 2 * I(xj, t) - I(xj, xi) + Ic(xj, xi, t)
        assert abs(printed - right) > 1e-3


@pytest.mark.parametrize("seed", range(3))
def test_conditional_likelihood_decomposition(seed):
    """Brown et al. (2012) eq. (5), the lecture's last line: for a model q(t | x_θ),
    J = −E ln q = KL(p(t|x_θ) ‖ q) + I(x; t) − I(x_θ; t) + H(t | x), exactly on the empirical
    distribution."""
    rng = np.random.default_rng(seed)
    counts = random_counts(rng, (2, 3, 2, 3), zeros=0.2)
    x1, x2, x3, t = sample_of(counts)
    n = len(t)
    theta = np.c_[x1, x3]  # the selected features x_θ; x_2 left out
    q_table = rng.dirichlet(np.ones(3), size=(2, 2))  # q(t | x_1, x_3), any model
    q = q_table[x1, x3, t]
    J = -np.mean(np.log(q))
    # p̂(t | x_θ) per sample from counts
    cell = x1 * 2 + x3
    joint = np.zeros((4, 3))
    np.add.at(joint, (cell, t), 1)
    p_cond = joint[cell, t] / joint.sum(axis=1)[cell]
    kl = np.mean(np.log(p_cond / q))
    X = np.c_[x1, x2, x3]
    h_t_given_x = entropy(X, t) - entropy(X)
    rhs = kl + mutual_information(X, t) - mutual_information(theta, t) + h_t_given_x
    assert J == pytest.approx(rhs, abs=rounding(counts.size, n) + 10 * EPS * n * abs(J))
    # the lecture's I(x_θ̃; t | x_θ) = I(x; t) − I(x_θ; t) (the chain rule); printed with θ for
    # θ̃ it would be I(x_θ; t | x_θ) = 0
    assert conditional_mutual_information(x2, t, theta) == pytest.approx(
        mutual_information(X, t) - mutual_information(theta, t),
        abs=rounding(counts.size, n),
    )
    assert conditional_mutual_information(theta, t, theta) == pytest.approx(
        0, abs=10 * EPS
    )


def binned_gaussian_mi(rho, xedges, yedges):
    """The exact MI of a standard bivariate normal (correlation rho) cut at the given edges (the
    outer edges are the data's min and max; the outer bins take the tails), from SciPy's CDF."""
    mvn = stats.multivariate_normal(mean=[0, 0], cov=[[1, rho], [rho, 1]])
    xe = np.r_[-np.inf, xedges[1:-1], np.inf]
    ye = np.r_[-np.inf, yedges[1:-1], np.inf]
    gx, gy = np.meshgrid(np.clip(xe, -12, 12), np.clip(ye, -12, 12), indexing="ij")
    F = mvn.cdf(np.dstack([gx, gy]))
    P = np.clip(np.diff(np.diff(F, axis=0), axis=1), 0, None)
    P /= P.sum()
    px, py = P.sum(axis=1), P.sum(axis=0)
    return float(-xlogy(px, px).sum() - xlogy(py, py).sum() + xlogy(P, P).sum())


def test_gaussian_mutual_information():
    """Plug-in Î of binned samples of a bivariate normal → the binned distribution's MI (within
    four standard errors of the estimator, sd(ln p(x,y)/(p(x)p(y)))/√N, after the first-order
    bias (m−1)…/(2N) is removed by Miller–Madow), and the binned MI rises to −½ ln(1 − ρ²) as
    the bins narrow (the data-processing inequality keeps it below)."""
    rho = 0.8
    exact = -0.5 * np.log(1 - rho**2)
    rng = np.random.default_rng(0)
    n = 20_000
    L = np.linalg.cholesky([[1, rho], [rho, 1]])
    xy = rng.standard_normal((n, 2)) @ L.T
    gaps = []
    for b in (5, 10, 20, 40):
        d = discretize(xy, b)
        edges = [np.linspace(xy[:, k].min(), xy[:, k].max(), b + 1) for k in (0, 1)]
        binned = binned_gaussian_mi(rho, *edges)
        est = mutual_information(d[:, 0], d[:, 1], correction="miller-madow")
        _, inv, cnt = np.unique(d, axis=0, return_inverse=True, return_counts=True)
        px = np.bincount(d[:, 0]) / n
        py = np.bincount(d[:, 1]) / n
        log_ratio = np.log(cnt[inv.ravel()] / n / px[d[:, 0]] / py[d[:, 1]])
        se = log_ratio.std() / np.sqrt(n)
        assert abs(est - binned) < 4 * se + 1e-6, (
            b,
            est,
            binned,
            se,
        )  # 1e-6: SciPy's CDF
        assert binned < exact
        gaps.append(exact - binned)
    # halving the bin width h at least halves the loss (it falls as h², by a factor near 4)
    assert all(g2 < g1 / 2 for g1, g2 in zip(gaps, gaps[1:])), gaps


def test_miller_madow_removes_most_of_the_plug_in_bias():
    """Independent x, y with 6 and 4 equiprobable states, N = 200: E[Î] ≈ (6−1)(4−1)/(2N) > 0 =
    I; Miller–Madow's mean is within 4 Monte Carlo standard errors of 0, plug-in's is not."""
    rng = np.random.default_rng(1)
    reps, n = 400, 200
    plug, mm = np.empty(reps), np.empty(reps)
    for r in range(reps):
        x, y = rng.integers(0, 6, n), rng.integers(0, 4, n)
        plug[r] = mutual_information(x, y)
        mm[r] = mutual_information(x, y, correction="miller-madow")
    se = plug.std() / np.sqrt(reps)
    assert abs(plug.mean() - 15 / (2 * n)) < 4 * se + 0.1 * 15 / (
        2 * n
    )  # second-order terms
    assert abs(mm.mean()) < 4 * mm.std() / np.sqrt(reps)
    assert plug.mean() > 10 * se


def test_discretize_matches_kbins_discretizer():
    rng = np.random.default_rng(2)
    X = np.c_[
        rng.standard_normal(300), rng.exponential(size=300), rng.integers(0, 7, 300)
    ]
    X[:5, 0] = np.linspace(X[:, 0].min(), X[:, 0].max(), 5)  # values on the edges
    for strategy in ("uniform",):
        ref = KBinsDiscretizer(
            n_bins=5, encode="ordinal", strategy=strategy
        ).fit_transform(X)
        np.testing.assert_array_equal(discretize(X, 5, strategy), ref.astype(int))
    q = discretize(X[:, :2], 4, "quantile")
    for col in q.T:  # continuous columns: equal counts
        assert np.all(np.abs(np.bincount(col) - 75) <= 1)
    assert np.array_equal(
        discretize(np.ones(6)), np.zeros(6, dtype=int)
    )  # constant column
    assert discretize(X[:, 0], 3).shape == (300,)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: entropy(), "at least one"),
        (lambda: entropy([1.0, np.nan]), "columns\\[0\\] contains NaN"),
        (lambda: mutual_information([1, 2, 3], [1, 2]), "x has 3, y has 2"),
        (lambda: mutual_information([1, 2], [1, np.inf]), "y contains infinite"),
        (lambda: conditional_mutual_information([1, 2], [1, 2], [[1, 2, 3]]), "z"),
        (lambda: mutual_information([], []), "x is empty"),
        (lambda: mutual_information([1, 2], [1, 2], correction="mm"), "correction"),
        (lambda: discretize([[1.0], [np.nan]]), "X contains NaN"),
        (lambda: discretize([[1.0], [2.0]], n_bins=1), "n_bins"),
        (lambda: discretize([[1.0], [2.0]], strategy="kmeans"), "strategy"),
    ],
)
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
