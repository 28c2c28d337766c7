"""The stability of a feature selector across resamples: Kuncheva's (2007) consistency index."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..utils.validation import check_scalar

__all__ = ["kuncheva_index"]


def kuncheva_index(subsets, n_features) -> float:
    """Mean over all pairs of subsets of Kuncheva's consistency index

        I_C(A, B) = (r·p − k²) / (k·(p − k)),   r = |A ∩ B|, k = |A| = |B|, p = n_features,

    which is 1 for identical subsets and has expectation 0 for subsets drawn at random (k²/p is
    the expected overlap of two random k-subsets), so it corrects the overlap for chance.

    Parameters
    ----------
    subsets : sequence of array_like of int
        At least two subsets of the same size k, 0 < k < p, without repeated indices.
    n_features : int
        p, the number of features the subsets are drawn from.

    Returns
    -------
    float
    """
    check_scalar(n_features, "n_features", low=2, integer=True)
    sets = [np.unique(np.asarray(s, dtype=np.int64)) for s in subsets]
    if len(sets) < 2:
        raise ValueError(f"subsets must hold at least two subsets; got {len(sets)}.")
    k = len(sets[0])
    for i, (raw, s) in enumerate(zip(subsets, sets)):
        if len(s) != k or len(np.asarray(raw).ravel()) != k:
            raise ValueError(
                f"subsets[{i}] has {len(np.asarray(raw).ravel())} indices "
                f"(repeats count); every subset needs the {k} distinct indices of "
                f"subsets[0]."
            )
        if s.size and (s[0] < 0 or s[-1] >= n_features):
            raise ValueError(f"subsets[{i}] has an index outside 0..{n_features - 1}.")
    if not 0 < k < n_features:
        raise ValueError(
            f"the subsets have {k} features; Kuncheva's index needs "
            f"0 < k < n_features = {n_features}."
        )
    overlaps = [
        len(np.intersect1d(a, b, assume_unique=True)) for a, b in combinations(sets, 2)
    ]
    return float(
        np.mean([(r * n_features - k * k) / (k * (n_features - k)) for r in overlaps])
    )
