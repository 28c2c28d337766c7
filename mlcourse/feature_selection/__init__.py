"""Feature selection (lecture 002, "Preprocessing and Feature Extraction" to "JMI & CMIM
Criteria"; Guyon & Elisseeff 2003; Brown et al. 2012).

======================================  ============================================================
name                                    what
======================================  ============================================================
:func:`entropy`,                        plug-in entropies and (conditional) mutual informations of
:func:`mutual_information`,             discrete variables, in nats, optionally Miller–Madow
:func:`conditional_mutual_information`  corrected
:func:`discretize`                      equal-width (or equal-count) bins, as FEAST's users apply
:func:`select_features`,                greedy filters MIM, JMI, CMIM and mRMR, with cached pairwise
:class:`FeatureSelector`                terms; the transformer for pipelines
:func:`forward_selection`,              wrapper search around any estimator, by cross-validated
:func:`backward_elimination`,           score or the drop of the residual sum of squares; seeded
:func:`kfold_splits`                    K-fold splits
:func:`orthogonal_matching_pursuit`     OMP (and the orthogonal-least-squares rule) with QR refits
:class:`HistogramClassifier`            q(t | x_S) from the class counts of each cell
:func:`kuncheva_index`                  the stability of selected subsets across resamples
======================================  ============================================================
"""

from ._greedy import CRITERIA, TIE_TOL, FeatureSelector, select_features
from ._histogram import HistogramClassifier
from ._information import (
    CORRECTIONS,
    STRATEGIES,
    conditional_mutual_information,
    discretize,
    entropy,
    mutual_information,
)
from ._omp import OMP_METHODS, RANK_RTOL, OMPResult, orthogonal_matching_pursuit
from ._stability import kuncheva_index
from ._wrapper import (
    SCORINGS,
    SearchPath,
    backward_elimination,
    forward_selection,
    kfold_splits,
)

__all__ = [
    "entropy",
    "mutual_information",
    "conditional_mutual_information",
    "discretize",
    "select_features",
    "FeatureSelector",
    "forward_selection",
    "backward_elimination",
    "kfold_splits",
    "SearchPath",
    "orthogonal_matching_pursuit",
    "OMPResult",
    "HistogramClassifier",
    "kuncheva_index",
    "CRITERIA",
    "TIE_TOL",
    "CORRECTIONS",
    "STRATEGIES",
    "SCORINGS",
    "OMP_METHODS",
    "RANK_RTOL",
]
