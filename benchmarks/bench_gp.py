"""Gaussian processes: exact GP regression against scikit-learn, and the Kalman (recursive) form
against the batch GP with the same degenerate kernel.

* fit + predict with std, N = 2000, fixed kernel (goal: at most 0.6x scikit-learn's time — one
  Cholesky factorisation and triangular solves, no inverse), and against the floor: the kernel,
  the Cholesky factorisation and the solves of GPML Algorithm 2.1 written inline (goal: 1.1x);
* the Kalman filter over all N = 2000 points (M = 20 basis functions, O(N M²)) vs the batch GP
  with the kernel σ_w² φᵀφ (O(N³));
* one new point: a Kalman measurement update (O(M²)) vs refitting the batch GP on N + 1 points.

The row against scikit-learn also runs on a second, differently shaped input (goal 1x: nowhere
slower): N = 500 inputs in 20 dimensions, predictions with std at 2000 points (the
predictive variances, O(N² M), outweigh the fit).
"""

import numpy as np
from harness import Case
from scipy import linalg
from scipy.linalg import blas
from sklearn.gaussian_process import GaussianProcessRegressor as SkGPR
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

from mlcourse.gp import GaussianProcessRegressor, KalmanGPRegressor
from mlcourse.kernels import BasisKernel, SquaredExponential

NOISE = 0.01
CENTRES = np.linspace(-3, 3, 20)


def bumps(X):
    return np.exp(-0.5 * ((np.asarray(X)[:, :1] - CENTRES) / 0.4) ** 2)


def _data(quick):
    rng = np.random.default_rng(0)
    n = 200 if quick else 2000
    X = rng.uniform(-3, 3, (n, 3))
    y = np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] + rng.normal(0, 0.1, n)
    return {
        "X": X,
        "y": y,
        "Xs": rng.uniform(-3, 3, (500, 3)),
        "x_new": np.array([[0.3, 0.0, 0.0]]),
        "y_new": np.array([0.5]),
    }


def _data_wide(quick):
    """N = 500 inputs in 20 dimensions (scale 0.3: typical squared distances near 3.6),
    2000 test inputs."""
    rng = np.random.default_rng(1)
    n, m = (100, 200) if quick else (500, 2000)
    X = 0.3 * rng.standard_normal((n, 20))
    y = np.sin(3 * X[:, 0]) + X[:, 1] + rng.normal(0, 0.1, n)
    return {"X": X, "y": y, "Xs": 0.3 * rng.standard_normal((m, 20))}


def _ours_fit_predict(d):
    gp = GaussianProcessRegressor(
        SquaredExponential(1.0, 1.0), noise_variance=NOISE, optimize=False
    ).fit(d["X"], d["y"])
    return gp.predict(d["Xs"], return_std=True)


def _sklearn_fit_predict(d):
    kernel = ConstantKernel(1.0) * RBF(1.0) + WhiteKernel(NOISE)
    gp = SkGPR(kernel, optimizer=None, alpha=0.0).fit(d["X"], d["y"])
    mean, std = gp.predict(d["Xs"], return_std=True)
    return mean, np.sqrt(np.maximum(std**2 - NOISE, 0.0))  # ours is the latent f's std


def _unit_se(A, B, trans_b=True):
    """exp(−½‖a − b‖²) for the rows of A and B: the kernel with σ_f² = ℓ = 1."""
    aa, bb = np.einsum("ij,ij->i", A, A), np.einsum("ij,ij->i", B, B)
    K = blas.dgemm(
        1.0, A, B, trans_b=trans_b
    )  # SciPy's BLAS, as the solves (see sq_dist)
    K *= -2.0
    K += aa[:, None]
    K += bb
    K *= -0.5
    return np.exp(K, out=K)


def _floor_fit_predict(d):
    """GPML Algorithm 2.1 with nothing around it: C = K + σ²I, L = chol(C), α = C⁻¹z, f̄* = K*ᵀα,
    v = L⁻¹K*, V[f*] = k** − vᵀv."""
    X, Xs = d["X"], d["Xs"]
    C = _unit_se(X, X)
    C[np.diag_indices_from(C)] += NOISE
    L = linalg.cholesky(C, lower=True, overwrite_a=True, check_finite=False)
    alpha = linalg.cho_solve((L, True), d["y"], check_finite=False)
    Ks = _unit_se(X, Xs)
    mean = blas.dgemv(1.0, Ks, alpha, trans=1)
    v = linalg.solve_triangular(L, Ks, lower=True, overwrite_b=True, check_finite=False)
    return mean, np.sqrt(np.maximum(1.0 - np.einsum("ij,ij->j", v, v), 0.0))


def _close(a, b, tol=1e-7):
    return all(np.allclose(u, v, rtol=0, atol=tol) for u, v in zip(a, b))


def _kalman_all(d):
    kf = KalmanGPRegressor(bumps, weight_variance=1.0, noise_variance=NOISE).fit(
        d["X"], d["y"]
    )
    return kf.predict(d["Xs"], return_std=True)


def _batch_all(d):
    gp = GaussianProcessRegressor(
        BasisKernel(bumps, 1.0), noise_variance=NOISE, optimize=False
    ).fit(d["X"], d["y"])
    return gp.predict(d["Xs"], return_std=True)


def _setup_update(quick):
    d = _data(quick)
    d["kf"] = KalmanGPRegressor(bumps, 1.0, NOISE).fit(d["X"], d["y"])
    return d


def _kalman_one(d):
    kf = d["kf"]
    state = (
        kf.mean_,
        kf.cov_,
        kf.n_seen_,
        kf.innovations_,
        kf.innovation_variances_,
        kf.log_marginal_likelihood_value_,
    )
    kf.partial_fit(d["x_new"], d["y_new"])
    out = kf.predict(d["Xs"][:5])
    (
        kf.mean_,
        kf.cov_,
        kf.n_seen_,
        kf.innovations_,
        kf.innovation_variances_,
        kf.log_marginal_likelihood_value_,
    ) = state  # undo, for the next repeat
    return out


def _batch_one(d):
    gp = GaussianProcessRegressor(
        BasisKernel(bumps, 1.0), noise_variance=NOISE, optimize=False
    )
    gp.fit(np.r_[d["X"], d["x_new"]], np.r_[d["y"], d["y_new"]])
    return gp.predict(d["Xs"][:5])


CASES = [
    Case(
        name="GP regression fit + predict(std), N=2000, fixed kernel",
        setup=_data,
        ours=_ours_fit_predict,
        theirs=_sklearn_fit_predict,
        same=lambda a, b, _: _close(a, b, 1e-6),
        goal=0.6,
    ),
    Case(
        name="GP regression fit + predict(std), N=2000, fixed kernel",
        setup=_data,
        ours=_ours_fit_predict,
        theirs=_floor_fit_predict,
        same=lambda a, b, _: _close(a, b, 1e-6),
        goal=1.1,
        baseline="floor: kernel, Cholesky, solves inline",
    ),
    Case(
        name="GP fit + predict(std), N=500 in 20-D, 2000 tests",
        setup=_data_wide,
        ours=_ours_fit_predict,
        theirs=_sklearn_fit_predict,
        same=lambda a, b, _: _close(a, b, 1e-6),
        goal=1.0,
    ),
    Case(
        name="Kalman form, all N=2000 points (M=20) vs batch GP",
        setup=_data,
        ours=_kalman_all,
        theirs=_batch_all,
        same=lambda a, b, _: _close(a, b, 1e-6),
        goal=0.5,
        baseline="mlcourse batch GP",
    ),
    Case(
        name="Kalman form, one new point after N=2000 vs batch refit",
        setup=_setup_update,
        ours=_kalman_one,
        theirs=_batch_one,
        same=lambda a, b, _: np.allclose(a, b, rtol=0, atol=1e-6),
        goal=0.01,
        baseline="mlcourse batch GP",
    ),
]
