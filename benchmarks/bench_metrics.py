"""Classifier evaluation: roc_auc on 10^6 scores (goal: at most 0.6x scikit-learn's time)."""

import numpy as np
from harness import Case
from sklearn.metrics import roc_auc_score

from mlcourse.metrics import roc_auc


def _scores(quick):
    rng = np.random.default_rng(0)
    n = 2_000 if quick else 1_000_000
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(size=n) + y, 3)   # rounded: many ties, as real scores have
    return {"y": y, "s": s}


CASES = [
    Case(name="roc_auc, 10^6 scores with ties",
         setup=_scores,
         ours=lambda d: roc_auc(d["y"], d["s"]),
         theirs=lambda d: roc_auc_score(d["y"], d["s"]),
         same=lambda a, b, _: abs(a - b) <= 1e-12,
         goal=0.6),
]
