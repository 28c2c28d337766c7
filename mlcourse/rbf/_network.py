"""The RBF network y(x) = W φ(x) (lecture 002; Bishop (1995) ch. 5): Gaussian units, the regularised
least-squares weights in their primal and kernel (dual) forms, the supervised-training criterion
J with its gradients (the lecture's eqs (1)–(3)), and the estimator :class:`RBFNetwork`.

Notation: N points x_n (rows of X, shape (N, D)), targets T (N, C) (the lecture's Z), M Gaussian
units φ_j(x) = exp(−‖x − μ_j‖²/2σ_j²) and the bias unit φ₀ = 1, so Φ̃ = [1, Φ] is N × (M+1) and
W is C × (M+1) with the biases w_k0 in its first column.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg, optimize
from scipy.linalg import blas as _blas
from sklearn.base import RegressorMixin, TransformerMixin

from ..cluster import cluster_widths, kmeans
from ..exceptions import ConvergenceWarning
from ..kernels import design_matrix, sq_dist
from ..utils.validation import (
    Interval,
    StrOptions,
    check_array,
    check_consistent_length,
    check_distinct_rows,
    check_option,
    check_random_state,
    check_scalar,
    validate_data,
)
from ._base import _RBFEstimator

__all__ = [
    "gaussian_units",
    "rbf_design",
    "ridge_weights",
    "network_objective",
    "RBFNetwork",
    "ALTERNATING_RTOL",
    "INNER_STEPS",
]

# The alternating scheme (method="alternating") stops when a round lowers J by less than
# ALTERNATING_RTOL·J (L-BFGS-B's own default stopping rule, factr = 1e7, is 1e7·ε ≈ 2.2e-9
# relative; ours is coarser because each round is a full least-squares solve), or after max_iter
# rounds. Each round takes INNER_STEPS L-BFGS-B iterations on the centres and widths.
ALTERNATING_RTOL = 1e-8
INNER_STEPS = 5


def gaussian_units(X, centers, widths) -> np.ndarray:
    """Φ with Φ_nj = φ_j(x_n) = exp(−‖x_n − μ_j‖² / 2σ_j²), shape (N, M) (no bias column).

    Parameters
    ----------
    X : array_like of shape (N, D)
    centers : array_like of shape (M, D)
        μ_j.
    widths : array_like of shape (M,)
        σ_j > 0.
    """
    widths = np.asarray(widths, dtype=float)
    if widths.ndim != 1 or widths.size != len(centers):
        raise ValueError(
            f"widths must have one entry per centre ({len(centers)}); got shape "
            f"{widths.shape}."
        )
    if not np.all(np.isfinite(widths)) or np.any(widths <= 0):
        raise ValueError("widths must be positive and finite.")
    P = sq_dist(X, centers)
    P *= -0.5 / widths**2  # in place: no temporary (N, M) arrays
    return np.exp(P, out=P)


def rbf_design(X, centers, widths) -> np.ndarray:
    """Φ̃ = [1, Φ], shape (N, M+1): the bias unit φ₀ = 1 first, then the Gaussian units
    (:func:`gaussian_units`), built by :func:`mlcourse.kernels.design_matrix`."""
    return design_matrix(
        X,
        lambda X_: gaussian_units(X_, centers, widths),
        bias=True,
        name="gaussian_units",
    )


def ridge_weights(Phi, T, alpha: float, route: str = "auto") -> np.ndarray:
    """Wᵀ minimising E = ½‖Φ Wᵀ − T‖² + (λ/2) tr(WᵀW) (lecture 002, "Training RBF Weights").

    The normal equations (ΦᵀΦ + λI) Wᵀ = ΦᵀT (the primal route, an (M+1) × (M+1) system), or their
    kernel form Wᵀ = Φᵀ(ΦΦᵀ + λI_N)⁻¹T = ΦᵀD (the dual route, N × N, G = ΦΦᵀ): the same weights
    (push-through identity). Each is solved by a Cholesky factorisation.

    Parameters
    ----------
    Phi : array_like of shape (N, P)
        The design matrix (with the bias column, if any: it is penalised like the others, as in
        the lecture's tr(WᵀW)).
    T : array_like of shape (N,) or (N, C)
    alpha : float ≥ 0
        λ.
    route : {"auto", "primal", "dual"}
        "auto" solves the smaller system: dual when N < P, else primal.

    Returns
    -------
    Wt : ndarray of shape (P,) or (P, C), as `T` is 1-D or 2-D.

    Warns
    -----
    RuntimeWarning
        When the system is numerically singular (λ = 0 with collinear columns or duplicated
        rows): the minimum-norm least-squares solution (``lstsq``) is returned instead.
    """
    Phi = check_array(Phi, "Phi")
    T = check_array(T, "T", ndim=(1, 2))
    check_consistent_length(Phi=Phi, T=T)
    check_scalar(alpha, "alpha", low=0)
    route = check_option(route, "route", ("auto", "primal", "dual"))
    N, P = Phi.shape
    if route == "auto":
        route = "dual" if N < P else "primal"
    # The Gram matrices through SciPy's BLAS (syrk fills the upper triangle, which Cholesky reads;
    # see mlcourse.kernels.sq_dist on mixing NumPy's and SciPy's BLAS).
    A = _blas.dsyrk(1.0, Phi, trans=1 if route == "primal" else 0)
    A.flat[:: len(A) + 1] += alpha
    try:
        factor = linalg.cho_factor(A, lower=False, overwrite_a=True, check_finite=False)
    except linalg.LinAlgError:
        warnings.warn(
            f"ΦᵀΦ + λI is numerically singular (alpha={alpha:g}); using the "
            "minimum-norm least-squares solution instead.",
            RuntimeWarning,
            stacklevel=2,
        )
        aug = np.vstack([Phi, np.sqrt(alpha) * np.eye(P)]) if alpha > 0 else Phi
        rhs = np.concatenate([T, np.zeros((P,) + T.shape[1:])]) if alpha > 0 else T
        return linalg.lstsq(aug, rhs, check_finite=False)[0]
    if route == "primal":
        return linalg.cho_solve(factor, Phi.T @ T, check_finite=False)
    return Phi.T @ linalg.cho_solve(factor, T, check_finite=False)


def network_objective(X, T, W, centers, widths, alpha: float = 0.0):
    """J = ½ Σ_n Σ_k (t_nk − Σ_j w_kj φ_j(x_n))² + (λ/2)‖W‖²_F and its gradients.

    With the errors e_nk = t_nk − y_k(x_n) (the lecture's eqs (1)–(3), "Selecting Basis Function
    Parameters", plus the ridge term):

    * ∂J/∂W = −Eᵀ Φ̃ + λW                                                   (1)
    * ∂J/∂μ_j = −Σ_n Σ_k e_nk w_kj φ_j(x_n) (x_n − μ_j)/σ_j²                 (2)
    * ∂J/∂σ_j = −Σ_n Σ_k e_nk w_kj φ_j(x_n) ‖x_n − μ_j‖²/σ_j³               (3)

    Parameters
    ----------
    X : ndarray of shape (N, D)
    T : ndarray of shape (N, C)
    W : ndarray of shape (C, M+1)
        Biases in column 0.
    centers : ndarray of shape (M, D)
    widths : ndarray of shape (M,)
    alpha : float
        λ.

    Returns
    -------
    J : float
    grads : tuple (dW of shape (C, M+1), dcenters of shape (M, D), dwidths of shape (M,))
    """
    Phi = gaussian_units(X, centers, widths)
    E = T - W[:, 0] - Phi @ W[:, 1:].T  # (N, C)
    J = 0.5 * float(np.sum(E**2)) + 0.5 * alpha * float(np.sum(W**2))
    dW = -E.T @ np.column_stack([np.ones(len(X)), Phi]) + alpha * W
    B = (E @ W[:, 1:]) * Phi  # b_nj = φ_j(x_n) Σ_k e_nk w_kj, (N, M)
    s2 = widths**2
    dcenters = -(B.T @ X - B.sum(axis=0)[:, None] * centers) / s2[:, None]
    # divided in two steps: σ_j³ over- or underflows for inputs of scale 1e±150 where σ_j² does not
    dwidths = -np.einsum("nj,nj->j", B, sq_dist(X, centers)) / s2 / widths
    return J, (dW, dcenters, dwidths)


def _pack(W, centers, widths):
    return np.concatenate([W.ravel(), centers.ravel(), np.log(widths)])


def _unpack(theta, C, M, D):
    nW = C * (M + 1)
    return (
        theta[:nW].reshape(C, M + 1),
        theta[nW : nW + M * D].reshape(M, D),
        np.exp(theta[nW + M * D :]),
    )


_METHODS = ("kmeans", "gradient", "alternating")


class RBFNetwork(RegressorMixin, TransformerMixin, _RBFEstimator):
    """An RBF network y(x) = W φ(x) with M Gaussian units and a bias unit (lecture 002).

    ``method="kmeans"``: the centres μ_j are k-means centres (:func:`~mlcourse.rbf.kmeans`), the
    widths σ_j the spread of each cluster (:func:`~mlcourse.rbf.cluster_widths`) or the given
    `width`, and W the regularised least-squares weights (:func:`ridge_weights`, by the smaller of
    the primal and dual systems). ``method="gradient"`` then minimises J over W, μ and σ jointly
    (L-BFGS-B with the analytic gradient of :func:`network_objective`; σ through ln σ so it stays
    positive). ``method="alternating"`` is the lecture's coordinate descent: least squares for W,
    then a few L-BFGS-B steps on μ and ln σ with W fixed, repeated; J never rises.

    Parameters
    ----------
    n_centers : int
        M, at most the number of distinct rows of X (else ``ValueError``).
    width : float > 0 or None
        σ of every unit (the starting σ for the supervised methods); None: from each cluster's
        spread.
    alpha : float ≥ 0
        λ, the weight of (λ/2) tr(WᵀW); the bias weights are penalised too, as in the lecture.
    method : {"kmeans", "gradient", "alternating"}
        Which algorithm fits the network (above); they reach different J.
    max_iter : int
        At most this many Lloyd iterations of k-means, and L-BFGS-B iterations ("gradient") or
        rounds ("alternating").
    random_state : None, int or numpy.random.Generator
        Seeds k-means++.
    train : None or {"kmeans", "gradient", "alternating"}
        The old name of `method`, which it overrides when given; kept until the chapters move.

    Attributes
    ----------
    centers_ : ndarray of shape (M, D)
    widths_ : ndarray of shape (M,)
    coef_ : ndarray of shape (M,) for 1-D y, else (C, M)
        The weights w_kj of the Gaussian units.
    intercept_ : float for 1-D y, else ndarray of shape (C,)
        The weights w_k0 of the bias unit.
    n_iter_ : int
        k-means iterations ("kmeans"), L-BFGS-B iterations ("gradient") or rounds
        ("alternating").
    loss_ : float
        J at the fitted parameters.
    loss_curve_ : ndarray
        J after each iteration ("gradient") or each half-step ("alternating"); [J] for "kmeans".
    n_features_in_ : int

    See Also
    --------
    KernelRidge : one basis function per data point.
    mlcourse.cluster.kmeans : where the centres come from.

    Examples
    --------
    >>> from mlcourse.datasets import sinc_data
    >>> from mlcourse.rbf import RBFNetwork
    >>> X, y = sinc_data(100, 0.1, random_state=0)
    >>> net = RBFNetwork(n_centers=8, random_state=0).fit(X, y)
    >>> net.centers_.shape, round(float(net.score(X, y)), 2)
    ((8, 1), 0.77)
    """

    _parameter_constraints = {
        "n_centers": [Interval(Integral, 1, None, closed="left")],
        "width": [None, Interval(Real, 0, None, closed="neither")],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "method": [StrOptions(_METHODS)],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "train": [None, StrOptions(_METHODS)],
    }

    def __init__(
        self,
        n_centers=10,
        width=None,
        alpha=1e-6,
        method="kmeans",
        max_iter=200,
        random_state=None,
        train=None,
    ):
        self.n_centers = n_centers
        self.width = width
        self.alpha = alpha
        self.method = method
        self.max_iter = max_iter
        self.random_state = random_state
        self.train = train

    def fit(self, X, y):
        """Place the units, then fit them by `method` (see the class docstring).

        Parameters
        ----------
        X : array_like of shape (N, D)
        y : array_like of shape (N,) or (N, C)

        Returns
        -------
        self : RBFNetwork
        """
        self._reset()
        M, max_iter = self.n_centers, self.max_iter
        method = self.method if self.train is None else self.train  # the old name wins
        rng = check_random_state(self.random_state)
        X, y = validate_data(self, X, y, multi_output=True, y_numeric=True)
        check_distinct_rows(X, M, "n_centers")
        T = y[:, None] if y.ndim == 1 else y
        km = kmeans(X, M, random_state=rng, max_iter=max_iter)
        centers = km.centers
        widths = (
            cluster_widths(X, centers, km.labels)
            if self.width is None
            else np.full(M, float(self.width))
        )
        design = rbf_design(X, centers, widths)
        W = ridge_weights(design, T, self.alpha).T
        alpha = float(self.alpha)
        if method == "kmeans":
            # J of network_objective, from the design matrix already built
            J = 0.5 * float(np.sum((T - design @ W.T) ** 2)) + 0.5 * alpha * float(
                np.sum(W**2)
            )
            n_iter, curve = km.n_iter, [J]
        elif method == "gradient":
            W, centers, widths, n_iter, curve = _fit_joint(
                X, T, W, centers, widths, alpha, max_iter
            )
        else:
            W, centers, widths, n_iter, curve = _fit_alternating(
                X, T, W, centers, widths, alpha, max_iter
            )
        self.centers_, self.widths_ = centers, widths
        if y.ndim == 1:
            self.coef_, self.intercept_ = W[0, 1:], float(W[0, 0])
        else:
            self.coef_, self.intercept_ = W[:, 1:], W[:, 0]
        self.n_iter_ = n_iter
        self.loss_curve_ = np.asarray(curve)
        self.loss_ = float(curve[-1])
        return self

    def transform(self, X) -> np.ndarray:
        """Φ, the activations of the Gaussian units, shape (n, M) (without the bias unit)."""
        X = validate_data(self, X, reset=False)
        return gaussian_units(X, self.centers_, self.widths_)

    def predict(self, X) -> np.ndarray:
        """y(x) = W φ̃(x): shape (n,) for 1-D training targets, else (n, C)."""
        Phi = self.transform(X)
        return Phi @ self.coef_.T + self.intercept_


def _fit_joint(X, T, W, centers, widths, alpha, max_iter):
    """Minimise J over (W, μ, ln σ) jointly by L-BFGS-B with the analytic gradient."""
    C, (M, D) = W.shape[0], centers.shape

    def fun(theta):
        J, (dW, dc, ds) = network_objective(X, T, *_unpack(theta, C, M, D), alpha)
        w = np.exp(theta[-M:])
        return J, np.concatenate([dW.ravel(), dc.ravel(), ds * w])  # ∂J/∂ln σ = σ ∂J/∂σ

    def record(intermediate_result):  # SciPy passes the iterate by this name
        curve.append(float(intermediate_result.fun))

    curve = [fun(_pack(W, centers, widths))[0]]
    res = optimize.minimize(
        fun,
        _pack(W, centers, widths),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": max_iter},
        callback=record,
    )
    if res.status == 1:
        warnings.warn(
            f"L-BFGS-B stopped after max_iter={max_iter} iterations before "
            "converging; raise max_iter.",
            ConvergenceWarning,
            stacklevel=3,
        )
    W, centers, widths = _unpack(res.x, C, M, D)
    return W, centers, widths, int(res.nit), curve


def _fit_alternating(X, T, W, centers, widths, alpha, max_iter):
    """The lecture's coordinate descent: W by least squares, then INNER_STEPS L-BFGS-B steps on
    (μ, ln σ) with W fixed; J after each half-step. Neither half can raise J: the first is an
    exact minimiser, the second's line search accepts only decreases."""
    M, D = centers.shape

    def fun(theta, W):
        c, w = theta[: M * D].reshape(M, D), np.exp(theta[M * D :])
        J, (_, dc, ds) = network_objective(X, T, W, c, w, alpha)
        return J, np.concatenate([dc.ravel(), ds * w])

    curve = [network_objective(X, T, W, centers, widths, alpha)[0]]
    n_round = 0
    for n_round in range(1, max_iter + 1):
        res = optimize.minimize(
            fun,
            np.concatenate([centers.ravel(), np.log(widths)]),
            args=(W,),
            jac=True,
            method="L-BFGS-B",
            options={"maxiter": INNER_STEPS},
        )
        centers, widths = res.x[: M * D].reshape(M, D), np.exp(res.x[M * D :])
        curve.append(float(res.fun))
        W = ridge_weights(rbf_design(X, centers, widths), T, alpha).T
        curve.append(network_objective(X, T, W, centers, widths, alpha)[0])
        if curve[-3] - curve[-1] <= ALTERNATING_RTOL * curve[-1]:
            break
    return W, centers, widths, n_round, curve
