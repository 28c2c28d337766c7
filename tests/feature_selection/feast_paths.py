"""An independent re-implementation of FEAST's selectors, following the code paths of its C
sources (FEAST v2: MIM.c, JMI.c, CMIM.c, mRMR_D.c, on MIToolbox v3's ArrayOperations.c,
CalculateProbability.c and MutualInformation.c), for the tests only.

It is written from reading that code, in plain Python loops over samples and states, sharing
nothing with mlcourse: it floors and shifts each column to 0..m−1 (``normaliseArray``), merges two
columns into a joint variable numbered by first appearance (``mergeArrays``), estimates
probabilities as counts / N (``calculateJointProbability``), sums p(x,y)·log(p(x,y)/p(x)/p(y))
over the joint states in column-major order and divides by ln 2 (``mi``: bits), and runs each
greedy loop with FEAST's strict ``>`` comparisons and starting values. Where FEAST's CMIM differs
from the lecture's criterion (its partial score starts at I(x_j; t), Fleuret's fast CMIM), this
copy does as FEAST does.
"""

import math


def normalise(column):
    ints = [math.floor(v) for v in column]
    low = min(ints)
    return [v - low for v in ints]


def merge(first, second):
    n_first = max(first) + 1
    state_map, out = {}, []
    for a, b in zip(first, second):
        key = a + b * n_first
        if key not in state_map:
            state_map[key] = len(state_map) + 1  # FEAST numbers the joint states from 1
        out.append(state_map[key])
    return out


def mi(first, second):
    n = len(first)
    n1, n2 = max(first) + 1, max(second) + 1
    c1, c2, c12 = [0] * n1, [0] * n2, [0] * (n1 * n2)
    for a, b in zip(first, second):
        c1[a] += 1
        c2[b] += 1
        c12[b * n1 + a] += 1
    total = 0.0
    for i in range(n1 * n2):
        p12, p1, p2 = c12[i] / n, c1[i % n1] / n, c2[i // n1] / n
        if p12 > 0 and p1 > 0 and p2 > 0:
            total += p12 * math.log(p12 / p1 / p2)
    return total / math.log(2.0)


def conditional_entropy(data, condition):
    n = len(data)
    nd, nc = max(data) + 1, max(condition) + 1
    cc, cj = [0] * nc, [0] * (nd * nc)
    for a, b in zip(data, condition):
        cc[b] += 1
        cj[b * nd + a] += 1
    total = 0.0
    for i in range(nd * nc):
        pj, pc = cj[i] / n, cc[i // nd] / n
        if pj > 0 and pc > 0:
            total -= pj * math.log(pj / pc)
    return total / math.log(2.0)


def cmi(data, target, condition):
    """I(data; target | condition) = H(data | condition) − H(data | target, condition)."""
    return conditional_entropy(data, condition) - conditional_entropy(
        data, merge(target, condition)
    )


def _first(features, labels):
    class_mi = [mi(f, labels) for f in features]
    best, arg = -1.0, -1
    for j, v in enumerate(class_mi):
        if v > best:
            best, arg = v, j
    return class_mi, arg


def feast(criterion, k, X, y):
    """FEAST's selection of k columns of X (rows = samples) for labels y, 0-based indices."""
    features = [normalise(col) for col in zip(*X)]
    labels = normalise(y)
    p = len(features)
    class_mi, first = _first(features, labels)
    out, chosen = [first], {first}
    if criterion == "mim":
        for _ in range(1, k):
            best, arg = -1.0, None
            for j in range(p):
                if j not in chosen and best < class_mi[j]:
                    best, arg = class_mi[j], j
            out.append(arg)
            chosen.add(arg)
    elif criterion in ("jmi", "mrmr"):
        cache = {}
        for i in range(1, k):
            best, arg = (0.0 if criterion == "jmi" else -math.inf), 0
            for j in range(p):
                if j in chosen:
                    continue
                total = 0.0
                for x in range(i):
                    if (x, j) not in cache:
                        s = out[x]
                        cache[x, j] = (
                            mi(merge(features[s], features[j]), labels)
                            if criterion == "jmi"
                            else mi(features[s], features[j])
                        )
                    total += cache[x, j]
                value = total if criterion == "jmi" else class_mi[j] - total / i
                if value > best:
                    best, arg = value, j
            out.append(arg)
            chosen.add(arg)
    elif criterion == "cmim":
        partial, last_used = list(class_mi), [0] * p
        for i in range(1, k):
            best, arg = -1.0, None
            for j in range(p):
                if j in chosen:
                    continue
                while partial[j] > best and last_used[j] < i:
                    c = cmi(features[j], labels, features[out[last_used[j]]])
                    partial[j] = min(partial[j], c)
                    last_used[j] += 1
                if partial[j] > best:
                    best, arg = partial[j], j
            out.append(arg)
            chosen.add(arg)
    else:
        raise ValueError(criterion)
    return out
