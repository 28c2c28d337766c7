"""k-means from scratch: k-means++ seeding and Lloyd's iterations (Bishop §9.1), and the widths
of Gaussian units from the spread of each cluster.

The generalised RBF network places its M < N centres with it (lecture 002, "Generalized
Regression Network"), and the Gaussian mixture (:mod:`~mlcourse.cluster`) starts from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.linalg import blas as _blas

from ..kernels import sq_dist
from ..utils.validation import (
    check_array,
    check_distinct_rows,
    check_random_state,
    check_scalar,
)

__all__ = ["KMeansResult", "kmeans", "kmeans_plusplus", "cluster_widths"]


@dataclass
class KMeansResult:
    """What :func:`kmeans` returns.

    Attributes
    ----------
    centers : ndarray of shape (M, D)
    labels : ndarray of shape (N,)
        Index of each point's nearest centre.
    inertia : float
        Σ_n ‖x_n − μ_{labels_n}‖², the distortion J of Bishop (9.1).
    n_iter : int
        Lloyd iterations run.
    converged : bool
        Whether the assignments stopped changing (or the centres moved less than `tol`) before
        `max_iter`.
    """

    centers: np.ndarray
    labels: np.ndarray
    inertia: float
    n_iter: int
    converged: bool


def kmeans_plusplus(X, n_clusters: int, random_state=None) -> np.ndarray:
    """k-means++ seeding (Arthur & Vassilvitskii, 2007): the first centre is a data point drawn
    uniformly, each next one a point drawn with probability ∝ its squared distance to the nearest
    centre so far.

    A point that is already a centre (or a copy of one) has distance 0 and is never drawn again,
    so the centres are distinct as long as `X` has at least `n_clusters` distinct rows (checked
    by :func:`kmeans`).

    Returns
    -------
    centers : ndarray of shape (n_clusters, D)
    """
    rng = check_random_state(random_state)
    N = len(X)
    idx = [int(rng.integers(N))]
    d2 = sq_dist(X, X[idx])[:, 0]
    for _ in range(1, n_clusters):
        nxt = int(rng.choice(N, p=d2 / d2.sum()))
        idx.append(nxt)
        diff = X - X[nxt]
        np.minimum(d2, np.einsum("ij,ij->i", diff, diff), out=d2)
    return X[idx].copy()


def _means(X, labels, M):
    """Per-cluster sums and counts: one ``bincount`` per feature for few features, else one
    sparse (M, N) indicator product."""
    N, D = X.shape
    if D <= 16:
        sums = np.stack(
            [np.bincount(labels, weights=X[:, d], minlength=M) for d in range(D)],
            axis=1,
        )
    else:
        sums = sparse.csr_matrix((np.ones(N), (labels, np.arange(N))), shape=(M, N)) @ X
    return sums, np.bincount(labels, minlength=M)


def _partial_sq_dist(X, centers):
    """‖μ_j‖² − 2 x_nᵀμ_j, shape (N, M): ‖x_n − μ_j‖² less the row constant ‖x_n‖², which does
    not change the nearest centre (one matrix product per Lloyd iteration)."""
    # dgemm returns Fortran order: form the (M, N) product so that its transpose is C-ordered
    # and the row-wise argmin runs over contiguous memory.
    P = _blas.dgemm(-2.0, centers, X, trans_b=True).T
    P += np.einsum("ij,ij->i", centers, centers)
    return P


def kmeans(
    X,
    n_clusters: int,
    *,
    init=None,
    random_state=None,
    max_iter: int = 300,
    tol: float = 1e-4,
) -> KMeansResult:
    """Lloyd's algorithm: assign each point to its nearest centre, move each centre to the mean of
    its points, repeat (Bishop (9.2)–(9.4)). The distortion J = Σ_n ‖x_n − μ_{k(n)}‖² never rises.

    Parameters
    ----------
    X : array_like of shape (N, D)
    n_clusters : int
        M ≥ 1, at most the number of distinct rows of `X` (else ``ValueError``).
    init : array_like of shape (M, D), optional
        Starting centres; default k-means++ (:func:`kmeans_plusplus`) with `random_state`.
    random_state : None, int or numpy.random.Generator
    max_iter : int
        At most this many Lloyd iterations.
    tol : float ≥ 0
        Stop when the centres move by Σ_j ‖Δμ_j‖² ≤ tol · (the mean per-feature variance of X)
        (scikit-learn's rule), or when no assignment changes (then the centres are a fixed point).

    Returns
    -------
    KMeansResult

    Notes
    -----
    An empty cluster is re-seeded deterministically at the point farthest from its own centre
    (the lowest index among ties), which then leaves its old cluster; this can only lower J.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.cluster import kmeans
    >>> X = np.array([[0.0, 0.0], [0.2, 0.0], [5.0, 5.0], [5.2, 5.0]])
    >>> result = kmeans(X, 2, random_state=0)
    >>> sorted(result.centers.round(2).tolist()), round(float(result.inertia), 3)
    ([[0.1, 0.0], [5.1, 5.0]], 0.04)
    """
    X = check_array(X, "X")
    M = check_scalar(n_clusters, "n_clusters", low=1, integer=True)
    max_iter = check_scalar(max_iter, "max_iter", low=1, integer=True)
    check_scalar(tol, "tol", low=0)
    check_distinct_rows(X, M, "n_clusters")
    if init is None:
        centers = kmeans_plusplus(X, M, random_state)
    else:
        centers = check_array(init, "init").copy()
        if centers.shape != (M, X.shape[1]):
            raise ValueError(
                f"init must have shape {(M, X.shape[1])}; got {centers.shape}."
            )
    threshold = tol * float(np.mean(np.var(X, axis=0)))
    labels = np.full(len(X), -1)
    converged = False
    xx = np.einsum("ij,ij->i", X, X)
    for n_iter in range(1, max_iter + 1):
        d2 = _partial_sq_dist(X, centers)  # + ‖x_n‖² = ‖x_n − μ_j‖², see below
        new = np.argmin(d2, axis=1)
        if np.array_equal(new, labels):
            converged = True
            break
        labels = new
        sums, counts = _means(X, labels, M)
        if (counts == 0).any():
            d2 += xx[:, None]
        while (counts == 0).any():  # empty cluster: re-seed (see Notes)
            j = int(np.flatnonzero(counts == 0)[0])
            own = d2[np.arange(len(X)), labels]
            far = int(np.argmax(own))  # own > 0 somewhere: ≥ M distinct points
            counts[labels[far]] -= 1
            sums[labels[far]] -= X[far]
            labels[far], counts[j], sums[j] = j, 1, X[far]
            d2[far, j] = 0.0  # it is now its own centre
        new_centers = sums / counts[:, None]
        shift = float(np.sum((new_centers - centers) ** 2))
        centers = new_centers
        if shift <= threshold:
            converged = True
            break
    d2 = sq_dist(X, centers)
    labels = np.argmin(d2, axis=1)
    inertia = float(d2[np.arange(len(X)), labels].sum())
    return KMeansResult(centers, labels, inertia, n_iter, converged)


def cluster_widths(X, centers, labels) -> np.ndarray:
    """One width per Gaussian unit from the spread of its cluster: the root-mean-square distance
    of its points from its centre, σ_j² = Σ_{n in j} ‖x_n − μ_j‖² / N_j.

    A typical member then has φ_j(x) ≈ e^{−1/2} in any dimension D. (The maximum-likelihood
    isotropic variance, D times smaller, would give e^{−D/2}: in ten dimensions, units so narrow
    that they barely respond even to their own cluster.)

    A cluster with no spread (a single distinct point) gets the median of the other widths; if no
    cluster has spread (every cluster is one distinct point), every unit gets the median over
    centres of the distance to the nearest other centre; if there is only one centre and no
    spread, σ = 1 (then every input is the centre and φ = 1 whatever σ is).

    Parameters
    ----------
    X : ndarray of shape (N, D)
    centers : ndarray of shape (M, D)
    labels : ndarray of shape (N,)

    Returns
    -------
    widths : ndarray of shape (M,), positive
    """
    M = len(centers)
    d2 = np.sum((X - centers[labels]) ** 2, axis=1)
    counts = np.bincount(labels, minlength=M)
    var = np.bincount(labels, weights=d2, minlength=M) / np.maximum(counts, 1)
    widths = np.sqrt(var)
    spread = widths > 0
    if spread.all():
        return widths
    if spread.any():
        widths[~spread] = np.median(widths[spread])
    elif M > 1:
        c2 = sq_dist(centers)
        np.fill_diagonal(c2, np.inf)
        widths[:] = np.median(np.sqrt(c2.min(axis=1)))
    else:
        widths[:] = 1.0
    return widths
