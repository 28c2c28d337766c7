"""Exercises of the chapter on feature selection: the plug-in mutual information, and the JMI
scores of one step of the greedy search."""

from __future__ import annotations

import numpy as np

from ..checks import EPS
from ._exercise import Case, Exercise, Mistake

CHAPTER = "feature_selection"


def _entropy(*columns):
    """Plug-in joint entropy in nats, Ĥ = ln N − (1/N)Σ_c n_c ln n_c over observed cells."""
    joint = np.column_stack([np.asarray(c).reshape(len(c), -1) for c in columns])
    _, counts = np.unique(joint, axis=0, return_counts=True)
    n = counts.sum()
    return float(np.log(n) - counts @ np.log(counts) / n)


def _mi(x, t):
    return _entropy(x) + _entropy(t) - _entropy(x, t)


def _tolerance(N, cells):
    # Each plug-in entropy sums `cells` terms n_c ln n_c, of size up to N ln N: relative
    # rounding cells·EPS on N ln N/N = ln N; three entropies, ten times over.
    return 30 * (cells + 2) * EPS * (np.log(max(N, 2)) + 1)


# --- the mutual information ----------------------------------------------------------------


def plug_in_mi(x, t):
    """The plug-in estimate Î(x; t) of the mutual information of two discrete variables.

    Parameters
    ----------
    x : ndarray of shape (N,)
        A discrete feature: equal values are one state, whatever the values are.
    t : ndarray of shape (N,)
        The class labels, discrete too.

    Returns
    -------
    float
        Σ_{x,t} p̂(x, t) ln[p̂(x, t)/(p̂(x)p̂(t))] in nats, with p̂ the relative
        frequencies.
    """
    x, t = np.asarray(x), np.asarray(t)
    _, xi = np.unique(x, return_inverse=True)
    _, ti = np.unique(t, return_inverse=True)
    joint = np.zeros((xi.max() + 1, ti.max() + 1))
    np.add.at(joint, (xi, ti), 1.0)
    p = joint / len(x)
    outer = p.sum(1, keepdims=True) * p.sum(0, keepdims=True)
    seen = p > 0  # 0 ln 0 = 0: only observed cells contribute
    return float(np.sum(p[seen] * np.log(p[seen] / outer[seen])))


def _mi_bits(x, t):
    return _mi(x, t) / np.log(2)


def _mi_unweighted(x, t):
    x, t = np.asarray(x), np.asarray(t)
    values = np.unique(x)
    return _entropy(t) - np.mean([_entropy(t[x == v]) for v in values])


def _mi_joint_entropy(x, t):
    return _entropy(x, t)


def _mi_cases():
    rng = np.random.default_rng(302)
    t200 = rng.integers(0, 3, 200)
    x200 = (t200 + rng.integers(0, 3, 200)) % 4  # depends on t, with noise
    tn = rng.integers(0, 2, 30)
    xn = np.where(rng.random(30) < 0.8, tn, 1 - tn) * 8 - 1  # values −1 and 7
    data = [
        ("a single sample", np.array([3]), np.array([1])),
        ("a constant feature (Î = 0)", np.zeros(12), rng.integers(0, 2, 12)),
        ("x determines t (Î = Ĥ(t))", np.arange(9) % 3, (np.arange(9) % 3 == 1) * 1),
        ("unequal groups, values −1 and 7", xn, tn),
        ("200 samples, 4 × 3 values", x200, t200),
    ]
    return [
        Case(
            label,
            (x, t),
            rtol=0.0,
            atol=float(_tolerance(len(x), len(np.unique(x)) * len(np.unique(t)))),
            factors={"1/ln 2": 1 / np.log(2)},
        )
        for label, x, t in data
    ]


MUTUAL_INFORMATION = Exercise(
    name="mutual-information",
    chapter=CHAPTER,
    prompt="Estimate the mutual information Î(x; t) of two discrete variables from counts, "
    "in nats.",
    reference=plug_in_mi,
    make_cases=_mi_cases,
    mistakes=(
        Mistake(
            "Your information is in bits (logarithms to base 2): the book uses natural "
            "logarithms, nats (section 'Mutual information'); the two differ by the factor "
            "ln 2.",
            _mi_bits,
        ),
        Mistake(
            "Your Ĥ(t | x) averages the entropies Ĥ(t | x = v) over the values v with equal "
            "weights: the conditional entropy weights each by p̂(x = v), "
            "Ĥ(t | x) = Σ_v p̂(v)Ĥ(t | x = v).",
            _mi_unweighted,
        ),
        Mistake(
            "That is the joint entropy Ĥ(x, t): the mutual information is "
            "Ĥ(x) + Ĥ(t) − Ĥ(x, t) = Ĥ(t) − Ĥ(t | x).",
            _mi_joint_entropy,
        ),
    ),
    outputs=("information",),
    section="fs-mi",
)


# --- one JMI step --------------------------------------------------------------------------


def jmi_scores(X, t, selected):
    """The JMI score of every feature, given those already selected.

    Parameters
    ----------
    X : ndarray of shape (N, D)
        Discrete features, one column each.
    t : ndarray of shape (N,)
        Discrete class labels.
    selected : list of int
        The columns S_k already selected (at least one).

    Returns
    -------
    scores : ndarray of shape (D,)
        Σ_{i∈S_k} Î({x_i, x_j}; t) for each candidate j (the information of the pair,
        in nats), and −∞ for the columns already selected, so that argmax picks the
        next feature.
    """
    X, t = np.asarray(X), np.asarray(t)
    scores = np.array(
        [sum(_mi(X[:, [i, j]], t) for i in selected) for j in range(X.shape[1])]
    )
    scores[list(selected)] = -np.inf
    return scores


def _masked(X, selected, score):
    out = np.array([score(j) for j in range(np.shape(X)[1])], dtype=float)
    out[list(selected)] = -np.inf
    return out


def _jmi_unmasked(X, t, selected):
    X, t = np.asarray(X), np.asarray(t)
    return np.array(
        [sum(_mi(X[:, [i, j]], t) for i in selected) for j in range(X.shape[1])]
    )


def _jmi_mim(X, t, selected):
    X, t = np.asarray(X), np.asarray(t)
    return _masked(X, selected, lambda j: _mi(X[:, j], t))


def _jmi_last_only(X, t, selected):
    X, t = np.asarray(X), np.asarray(t)
    return _masked(X, selected, lambda j: _mi(X[:, [selected[-1], j]], t))


def _jmi_conditional(X, t, selected):
    X, t = np.asarray(X), np.asarray(t)
    return _masked(
        X,
        selected,
        lambda j: sum(_mi(X[:, [i, j]], t) - _mi(X[:, i], t) for i in selected),
    )


def _not_masked(got, case, expected):
    selected = list(case.args[2])
    g = got[0]
    return g.shape == expected[0].shape and bool(np.all(np.isfinite(g[selected])))


def _jmi_cases():
    rng = np.random.default_rng(303)

    def data(N, D):
        t = rng.integers(0, 2, N)
        X = rng.integers(0, 3, (N, D))
        X[:, 0] = (t + (rng.random(N) < 0.2)) % 2  # informative
        X[:, 1] = np.where(rng.random(N) < 0.3, rng.integers(0, 2, N), t)  # informative
        return X, t

    X3, t3 = data(20, 3)
    X5, t5 = data(60, 5)
    Xc, tc = data(40, 4)
    Xc[:, 3] = Xc[:, 0]  # a copy of a selected feature: redundant
    X6, t6 = data(200, 6)
    cases = [
        ("one feature selected, D = 3", X3, t3, [0]),
        ("two selected, D = 5", X5, t5, [0, 2]),
        ("a copy of a selected feature", Xc, tc, [0]),
        ("200 samples, D = 6, three selected", X6, t6, [1, 4, 0]),
    ]
    return [
        Case(
            label,
            (X, t, selected),
            rtol=0.0,
            atol=float(len(selected) * _tolerance(len(t), 9 * 2)),
        )
        for label, X, t, selected in cases
    ]


JMI_SCORES = Exercise(
    name="jmi-scores",
    chapter=CHAPTER,
    prompt="Score every feature by JMI, Σ_{i∈S_k} Î({x_i, x_j}; t), for one step of the "
    "greedy search.",
    reference=jmi_scores,
    make_cases=_jmi_cases,
    mistakes=(
        Mistake(
            "The features already selected must score −∞, so that the argmax picks a new "
            "one: a selected feature paired with itself would otherwise look informative.",
            _jmi_unmasked,
            test=_not_masked,
        ),
        Mistake(
            "Your scores ignore the selected features: Î(x_j; t) alone is MIM, which "
            "would choose ten copies of the best feature. JMI scores the candidate paired "
            "with each selected feature, Σ_{i∈S_k} Î({x_i, x_j}; t) (section 'JMI and "
            "CMIM').",
            _jmi_mim,
        ),
        Mistake(
            "Your score pairs the candidate with the last selected feature only, as the "
            "lecture's second line reads without its sum: JMI sums over every i in S_k.",
            _jmi_last_only,
        ),
        Mistake(
            "Your scores are Σ_i Î(x_j; t | x_i): by the chain rule they differ from JMI's "
            "Σ_i Î({x_i, x_j}; t) by Σ_i Î(x_i; t), the same for every candidate, so they "
            "choose the same feature; the exercise asks for the scores of the pairs.",
            _jmi_conditional,
        ),
    ),
    outputs=("score vector",),
    section="fs-jmi",
)

EXERCISES = (MUTUAL_INFORMATION, JMI_SCORES)
