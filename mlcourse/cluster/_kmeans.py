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

_EPS = np.finfo(float).eps

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
    XT = np.ascontiguousarray(
        X.T
    )  # (D, N): the distance update runs along contiguous rows
    for _ in range(1, n_clusters):
        # rng.choice(N, p=d2 / d2.sum()) without its checks of p, which cost more than the draw:
        # the same cumulative sum and uniform, so the same point for the same seed.
        cdf = np.cumsum(d2 / d2.sum())
        cdf /= cdf[-1]
        nxt = int(cdf.searchsorted(rng.random(), side="right"))
        idx.append(nxt)
        diff = XT - XT[:, nxt : nxt + 1]
        diff *= diff
        np.minimum(d2, diff.sum(axis=0), out=d2)
    return X[idx].copy()


def _means(X, labels, M, XT=None):
    """Per-cluster sums and counts: one ``bincount`` per feature for few features (over the
    rows of ``XT = X.T`` in C order, if given: contiguous weights), else one sparse (M, N)
    indicator product."""
    N, D = X.shape
    if D <= 16:
        cols = XT if XT is not None else X.T
        sums = np.stack(
            [np.bincount(labels, weights=cols[d], minlength=M) for d in range(D)],
            axis=1,
        )
    else:
        sums = sparse.csr_matrix((np.ones(N), (labels, np.arange(N))), shape=(M, N)) @ X
    return sums, np.bincount(labels, minlength=M)


def _partial_sq_dist(X, centers):
    """‖μ_j‖² − 2 x_nᵀμ_j, shape (N, M): ‖x_n − μ_j‖² less the row constant ‖x_n‖², which does
    not change the nearest centre (one matrix product per Lloyd iteration)."""
    return _augmented_sq_dist(_augment(X), centers)


def _augment(X):
    """[X, 1], shape (N, D + 1)."""
    Xa = np.empty((len(X), X.shape[1] + 1))
    Xa[:, :-1] = X
    Xa[:, -1] = 1.0
    return Xa


def _augmented_sq_dist(Xa, centers):
    """:func:`_partial_sq_dist` from ``Xa = [X, 1]``: [−2μ_j, ‖μ_j‖²]·[x_n, 1], one product."""
    Ca = np.empty_like(centers, shape=(len(centers), centers.shape[1] + 1))
    Ca[:, :-1] = centers
    Ca[:, :-1] *= -2.0
    Ca[:, -1] = np.einsum("ij,ij->i", centers, centers)
    # dgemm returns Fortran order: form the (M, N) product so that its transpose is C-ordered
    # and the row-wise argmin runs over contiguous memory. Xa.T is already Fortran-ordered, so
    # BLAS reads it in place (no copy of the data per call).
    return _blas.dgemm(1.0, Ca, Xa.T).T


def _rows(A, idx):
    """A[idx] for a 2-D A and an index array: ``np.take`` along the rows, which gathers short
    rows several times faster than fancy indexing does."""
    return np.take(A, idx, axis=0)


class _Assignment:
    """Lloyd's assignment step with Hamerly's bounds (Hamerly, 2010).

    For each point it keeps an upper bound on the distance to its own centre and a lower bound
    on the distance to every other centre. A point whose bounds are apart keeps its centre
    without any distance being computed, so the late iterations, where few points lie near a
    boundary, cost O(N) rather than O(NM).

    The bounds are rigorous under rounding: a point is skipped only where the plain step's own
    floating-point argmin (:func:`_partial_sq_dist`) is certain to agree, so the assignments, and
    every centre, are those of the plain iteration.
    """

    def __init__(self, X):
        self.X, self.Xa = X, _augment(X)
        self.xx = np.einsum("ij,ij->i", X, X)
        self.x_max = float(np.sqrt(self.xx.max()))
        # Slack for the rounding of the drifts added to the bounds: each addition errs by ε times
        # a distance below 2 max‖x‖ (centres are means of points): 1e-9 max‖x‖ covers 10⁵ steps.
        self.slack = 1e-9 * self.x_max
        self.upper = self.lower = None

    def _rounding(self, centers):
        """E, a bound on the rounding error of ``_partial_sq_dist(X, centers)`` + ‖x_n‖²: sums of
        D + 2 terms, each at most (‖x‖ + ‖μ‖)² in size; doubled for safety."""
        mu_max = float(np.sqrt(np.einsum("ij,ij->i", centers, centers).max()))
        return 2 * (centers.shape[1] + 2) * _EPS * (self.x_max + mu_max) ** 2

    def all(self, centers):
        """Every point's nearest centre, computed, with fresh bounds."""
        labels, self.upper, self.lower = self._nearest(self.Xa, self.xx, centers)
        return labels

    def _nearest(self, Xa, xx, centers):
        """Nearest centres of the rows ``Xa = [X, 1]`` by the plain rule, and bounds on the
        distance to the nearest and to the next nearest centre (the computed values ± E)."""
        d2 = _augmented_sq_dist(Xa, centers)
        n, M = d2.shape
        labels = np.argmin(d2, axis=1)
        flat = d2.ravel()
        at = np.arange(0, n * M, M) + labels
        own = flat[at]
        flat[at] = np.inf
        second = flat[np.arange(0, n * M, M) + np.argmin(d2, axis=1)]
        E = self._rounding(centers)
        upper = np.sqrt(own + xx + E)
        lower = np.sqrt(np.maximum(second + xx - E, 0.0))
        return labels, upper, lower

    def _doubtful(self, centers, labels):
        """Points that may be nearer another centre than their own, by the bounds; and the
        bound `far` on their distance to every other centre, and the margin it must clear."""
        E = self._rounding(centers)
        c2 = sq_dist(centers)  # ‖μ_j − μ_k‖², ± E
        np.fill_diagonal(c2, np.inf)
        # half the distance to the nearest other centre: a point nearer its centre than that
        # is nearer it than any other (triangle inequality)
        half = 0.5 * np.sqrt(np.maximum(c2.min(axis=1) - E, 0.0))
        # a point is sure if far − upper > √(2E) (+ slack): then far² − upper² > 2E, more than
        # the rounding of the two entries an argmin compares
        margin = np.sqrt(2 * E) + 2 * self.slack
        far = np.maximum(np.take(half, labels), self.lower)
        return np.flatnonzero(far - self.upper <= margin), far, margin

    def final(self, centers, labels):
        """The labels at the final centres, as the plain loop's last line gives them (nearest by
        :func:`~mlcourse.kernels.sq_dist`): recomputed only where the bounds leave a doubt."""
        if self.upper is None:
            return np.argmin(sq_dist(self.X, centers), axis=1)
        idx = self._doubtful(centers, labels)[0]
        if len(idx):
            labels = labels.copy()
            labels[idx] = np.argmin(sq_dist(_rows(self.X, idx), centers), axis=1)
        return labels

    def update(self, centers, labels):
        """The step from the bounds: only points whose bounds overlap have distances computed.
        Returns the new labels (`labels` itself if none changed) and whether any changed."""
        idx, far, margin = self._doubtful(centers, labels)
        if len(idx) == 0:
            return labels, False
        # tighten to the exact distance, test again
        diff = _rows(self.X, idx) - _rows(centers, np.take(labels, idx))
        self.upper[idx] = np.sqrt(np.einsum("ij,ij->i", diff, diff))
        idx = idx[far[idx] - self.upper[idx] <= margin]
        if len(idx) == 0:
            return labels, False
        new, self.upper[idx], self.lower[idx] = self._nearest(
            _rows(self.Xa, idx), np.take(self.xx, idx), centers
        )
        if np.array_equal(new, labels[idx]):
            return labels, False
        labels = labels.copy()
        labels[idx] = new
        return labels, True

    def move(self, old, new, labels):
        """Centres moved from `old` to `new`: a point's own distance grows by at most its centre's
        drift, its distance to any other centre shrinks by at most the largest other drift."""
        drift = np.sqrt(np.sum((new - old) ** 2, axis=1))
        top = int(np.argmax(drift))
        first = drift[top]
        drift[top] = -np.inf
        second = max(float(drift.max()), 0.0) if len(drift) > 1 else 0.0
        drift[top] = first
        self.upper += np.take(drift, labels)
        self.lower -= first
        if first > second:  # (adding 0.0 elsewhere changes nothing)
            self.lower += np.where(labels == top, first - second, 0.0)


def _reseed(X, labels, sums, counts, d2):
    """Give each empty cluster the point farthest from its own centre (the lowest index among
    ties), in place; d2 holds ‖x_n − μ_j‖², shape (N, M)."""
    while (counts == 0).any():
        j = int(np.flatnonzero(counts == 0)[0])
        own = d2[np.arange(len(X)), labels]
        far = int(np.argmax(own))  # own > 0 somewhere: ≥ M distinct points
        counts[labels[far]] -= 1
        sums[labels[far]] -= X[far]
        labels[far], counts[j], sums[j] = j, 1, X[far]
        d2[far, j] = 0.0  # it is now its own centre


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

    The assignment step computes distances only for the points that may change centre, found by
    Hamerly's (2010) bounds, which allow for rounding: the assignments are exactly those of the
    plain step.

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
    step = _Assignment(X)
    XT = np.ascontiguousarray(X.T) if X.shape[1] <= 16 else None
    for n_iter in range(1, max_iter + 1):
        if step.upper is None:
            new = step.all(centers)
            changed = not np.array_equal(new, labels)
        else:
            new, changed = step.update(centers, labels)
        if not changed:
            converged = True
            break
        labels = new
        sums, counts = _means(X, labels, M, XT)
        if (counts == 0).any():  # empty cluster: re-seed (see Notes)
            d2 = _partial_sq_dist(X, centers) + step.xx[:, None]  # ‖x_n − μ_j‖²
            _reseed(X, labels, sums, counts, d2)
            step.upper = None  # the next assignment computes every distance
        new_centers = sums / counts[:, None]
        shift = float(np.sum((new_centers - centers) ** 2))
        if step.upper is not None:
            step.move(centers, new_centers, labels)
        centers = new_centers
        if shift <= threshold:
            converged = True
            break
    labels = step.final(centers, labels)
    diff = X - _rows(centers, labels)
    inertia = float(np.einsum("ij,ij->", diff, diff))
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
    d2 = np.sum((X - _rows(centers, labels)) ** 2, axis=1)
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
