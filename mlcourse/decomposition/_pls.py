"""Partial least squares regression (lecture 002; Wold's NIPALS as in Wegelin 2000, §4.1, and
scikit-learn's ``PLSRegression``).

Each component k takes the direction u_k of the (deflated, centred, scaled) inputs whose scores
t_k = X_k u_k covary most with the targets: u_k maximises ‖Y_kᵀX_k u‖ over unit u, i.e. it is
the top left singular vector of the p × q cross-product X_kᵀY_k. NIPALS finds it by the power
method (alternating u ∝ X_kᵀY_k c, c ∝ Y_kᵀX_k u until u stops changing); here it is taken from
the SVD of X_kᵀY_k directly — the power method's fixed point, without its stopping error.
Then both blocks are deflated by regression on t_k (``deflation_mode="regression"``):

    p_k = X_kᵀt_k/(t_kᵀt_k),  X_{k+1} = X_k − t_k p_kᵀ,
    c_k = Y_kᵀt_k/(t_kᵀt_k),  Y_{k+1} = Y_k − t_k c_kᵀ,

and x = Σ_k t_k p_k + residual gives the scores of new inputs as X R with
R = W(PᵀW)⁻¹ (``x_rotations_``) and the regression coefficients B = R Cᵀ.

The N × p block X_k is never formed: each deflation would rewrite all of it, r times over.
Regression deflation keeps the scores orthogonal (X_{k+1}ᵀt_j = 0 for j ≤ k), which gives
(Dayal & MacGregor 1997, "improved kernel PLS")

    t_k = X_k u_k = X r_k,      r_k = u_k − Σ_{j<k} (p_jᵀu_k) r_j,
    X_{k+1}ᵀY_{k+1} = X_kᵀY_k − (t_kᵀt_k) p_k c_kᵀ,   ‖X_{k+1}‖²_F = ‖X_k‖²_F − (t_kᵀt_k)‖p_k‖²,

so a component costs two products with X (t_k = X r_k and X_kᵀt_k = Xᵀt_k) instead of six
passes over it. The q-column block Y_k is deflated as written.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy import linalg

from ..base import RegressorMixin, TransformerMixin
from ..utils.validation import (
    Interval,
    check_at_most,
    check_not_constant,
    validate_data,
)
from ._pca_routes import RANK_RTOL, flip_signs
from ._sklearn_base import _LatentBase

__all__ = ["PLSRegression", "second_block"]


def second_block(estimator, X, y):
    """X (for a prediction method) and the second block `y` of ``transform(X, y)``: y as a
    finite (N, q) array with the q = ``n_targets_`` columns of ``fit``, and X as validated."""
    X, Y = validate_data(
        estimator, X, y, reset=False, y_numeric=True, multi_output=True
    )
    Y = Y.reshape(len(Y), -1)
    if Y.shape[1] != estimator.n_targets_:
        raise ValueError(
            f"y has {Y.shape[1]} columns, but {type(estimator).__name__} was fitted with "
            f"{estimator.n_targets_} target(s)."
        )
    return X, Y


def centre_scale(A, scale: bool):
    """A − mean, divided by the standard deviation (divisor N − 1; 1 for a constant column) if
    `scale`: scikit-learn's ``_center_scale_xy``. Returns the new array, mean and scale."""
    mean = A.mean(axis=0)
    A = A - mean
    if not scale:
        return A, mean, np.ones(A.shape[1])
    # in place, with no N × p temporaries (A.std and A / std would allocate two more)
    std = np.sqrt(np.einsum("ij,ij->j", A, A) / (len(A) - 1))
    std[std == 0.0] = 1.0
    A /= std
    return A, mean, std


class PLSRegression(TransformerMixin, RegressorMixin, _LatentBase):
    """Partial least squares regression, PLS2 (NIPALS with regression deflation).

    Parameters
    ----------
    n_components : int
        1 ≤ n_components ≤ min(N, p): the number of latent directions.
    scale : bool
        Divide X and Y by their standard deviations (divisor N − 1) after centring, as
        scikit-learn does.

    Attributes
    ----------
    x_weights_ : ndarray of shape (p, r)
        u_k, unit vectors; the largest-|·| entry of each positive (scikit-learn's sign rule).
    y_weights_ : ndarray of shape (q, r)
        Y_kᵀt_k/(t_kᵀt_k) (equal to ``y_loadings_`` under regression deflation).
    x_loadings_, y_loadings_ : ndarrays of shape (p, r) and (q, r)
        p_k and c_k.
    x_scores_, y_scores_ : ndarrays of shape (N, r)
        t_k = X_k u_k and Y_k c_k/‖c_k‖² (scikit-learn's).
    x_rotations_, y_rotations_ : ndarrays of shape (p, r) and (q, r)
        W(PᵀW)⁻¹ and C(CᵀC)⁺: the scores of new (centred, scaled) data are X R.
    coef_ : ndarray of shape (q, p)
        Regression coefficients on the original scale: predictions are (x − x̄)ᵀ B + ȳ.
    intercept_ : ndarray of shape (q,)
        ȳ.
    x_mean_, x_std_, y_mean_, y_std_ : ndarrays
        The centring and scaling.
    n_components_, n_features_in_, n_targets_ : int
    y_ndim_ : int
        1 if y was a vector (``predict`` then returns a vector), else 2.

    See Also
    --------
    CCA : directions of largest correlation.
    SupervisedPCA : a latent-variable model of x and t.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcourse.decomposition import PLSRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((50, 4))
    >>> y = X @ [1.0, -2.0, 0.0, 0.0] + 0.1 * rng.standard_normal(50)
    >>> pls = PLSRegression(n_components=2).fit(X, y)
    >>> round(float(pls.score(X, y)), 3)
    0.993
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "scale": ["boolean"],
    }

    def __init__(self, n_components=2, scale: bool = True):
        self.n_components = n_components
        self.scale = scale

    _two_blocks = True  # X and a matrix y

    def fit(self, X, y):
        """Fit to inputs X of shape (N, p) and targets y of shape (N,) or (N, q).

        A constant y (every column) raises ``ValueError``: no direction of X covaries with it.
        So does an X or y whose residual is numerically zero before ``n_components``
        components, naming how many the data support.
        """
        self._reset()
        scale = self.scale
        X, y = validate_data(
            self, X, y, y_numeric=True, multi_output=True, ensure_min_samples=2
        )
        y_ndim = y.ndim
        Y = y.reshape(len(y), -1)
        n, p = X.shape
        q = Y.shape[1]
        r = check_at_most(
            self.n_components,
            "n_components",
            min(n, p),
            f"min(n_samples, n_features), the rank of X, for X of shape {X.shape}",
        )
        check_not_constant(
            Y, "y", "PLS finds the directions of X that covary with y, and none do"
        )
        Xs, x_mean, x_std = centre_scale(X, scale)
        Yk, y_mean, y_std = centre_scale(Y, scale)
        x_norm2 = np.einsum("ij,ij->", Xs, Xs)  # ‖X_k‖²_F, deflated below
        level = RANK_RTOL * max(n, p) * x_norm2  # rounding of t_kᵀt_k
        # the rounding of X_kᵀY_k, products of columns of norms at most ‖X‖_F and ‖Y‖_F
        cross_level = RANK_RTOL * max(n, p) * np.sqrt(x_norm2) * np.linalg.norm(Yk)
        cross = Xs.T @ Yk  # X_kᵀY_k, deflated below (module docstring)
        W, P, Rk = np.empty((p, r)), np.empty((p, r)), np.empty((p, r))
        C, T, U = np.empty((q, r)), np.empty((n, r)), np.empty((n, r))
        for k in range(r):
            if not x_norm2 > level:
                raise ValueError(
                    f"n_components={r} is too many: after {k} component(s) the "
                    f"residual of X is numerically zero (X has rank {k}); use "
                    f"n_components <= {k}."
                )
            if not np.linalg.norm(cross) > cross_level:
                raise ValueError(
                    f"n_components={r} is too many: after {k} component(s) the "
                    f"residual of y is uncorrelated with X (X_kᵀY_k is rounding, "
                    f"≤ {cross_level:.1e}); use n_components <= {k}."
                )
            w = (
                linalg.svd(cross, full_matrices=False)[0][:, 0]
                if q > 1
                else cross[:, 0] / np.linalg.norm(cross)
            )
            w = flip_signs(w[None, :])[0]
            rk = w - Rk[:, :k] @ (P[:, :k].T @ w)  # t_k = X_k w = X r_k
            t = Xs @ rk
            tt = t @ t
            if not tt > level:
                raise ValueError(
                    f"n_components={r} is too many: after {k} component(s) the "
                    f"residual of X is numerically zero (X has rank {k}); use "
                    f"n_components <= {k}."
                )
            P[:, k] = Xs.T @ t / tt  # X_kᵀt = Xᵀt: t ⊥ the earlier scores
            C[:, k] = Yk.T @ t / tt
            U[:, k] = Yk @ C[:, k] / (C[:, k] @ C[:, k])
            Yk -= np.outer(t, C[:, k])
            cross -= tt * np.outer(P[:, k], C[:, k])
            x_norm2 -= tt * (P[:, k] @ P[:, k])
            W[:, k], T[:, k], Rk[:, k] = w, t, rk
        # PᵀW is upper triangular with a unit diagonal (p_iᵀw_j = 0 for i > j): a solve is exact
        R = linalg.solve_triangular(P.T @ W, W.T, lower=False, trans="T").T
        self.x_weights_, self.y_weights_, self.x_loadings_, self.y_loadings_ = (
            W,
            C,
            P,
            C.copy(),
        )
        self.x_scores_, self.y_scores_ = T, U
        self.x_rotations_ = R
        self.y_rotations_ = C @ linalg.pinv(C.T @ C)
        self.coef_ = ((R @ C.T) * y_std).T / x_std
        self.intercept_ = y_mean
        self.x_mean_, self.x_std_, self.y_mean_, self.y_std_ = (
            x_mean,
            x_std,
            y_mean,
            y_std,
        )
        self.n_components_, self.n_targets_, self.y_ndim_ = r, q, y_ndim
        return self

    def predict(self, X) -> np.ndarray:
        """(x − x̄)ᵀB + ȳ, shape (N,) for vector targets, else (N, q)."""
        X = validate_data(self, X, reset=False)
        pred = (X - self.x_mean_) @ self.coef_.T + self.intercept_
        return pred[:, 0] if self.y_ndim_ == 1 else pred

    def transform(self, X, y=None):
        """The x-scores ((x − x̄)/s_x)ᵀR, shape (N, r); with `y` also its scores
        ((y − ȳ)/s_y)ᵀ C(CᵀC)⁺."""
        if y is None:
            X = validate_data(self, X, reset=False)
        else:
            X, Y = second_block(self, X, y)
        scores = (X - self.x_mean_) / self.x_std_ @ self.x_rotations_
        if y is None:
            return scores
        return scores, (Y - self.y_mean_) / self.y_std_ @ self.y_rotations_

    def fit_transform(self, X, y):
        """``fit(X, y)`` then ``transform(X, y)``."""
        return self.fit(X, y).transform(X, y)
