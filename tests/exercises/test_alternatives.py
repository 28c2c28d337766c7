"""A right answer written another way passes: for every exercise, a second route — another
formula, scikit-learn, SciPy or mlcourse's own implementation — that a student could take.
Each also checks the reference independently (the checker compares the two)."""

import numpy as np
import pytest
from scipy import linalg, special, stats
from sklearn import metrics as skm
from sklearn.cross_decomposition import PLSRegression
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from mlcourse import rvm
from mlcourse.decomposition import PPCA
from mlcourse.exercises import EXERCISES
from mlcourse.feature_selection import (
    conditional_mutual_information,
    mutual_information,
)


def roc_sklearn(t, s):
    fpr, tpr, _ = skm.roc_curve(t, s, drop_intermediate=False)
    return fpr, tpr


def roc_by_sorting(t, s):
    # sort once, cumulative counts, keep the last index of each run of equal scores
    order = np.argsort(-np.asarray(s), kind="stable")
    s_sorted, t_sorted = np.asarray(s)[order], np.asarray(t)[order]
    tp, fp = np.cumsum(t_sorted == 1), np.cumsum(t_sorted == 0)
    last = np.r_[s_sorted[1:] != s_sorted[:-1], True]
    return list(np.r_[0, fp[last]] / fp[-1]), list(np.r_[0, tp[last]] / tp[-1])


def auc_sklearn(t, s):
    return skm.roc_auc_score(t, s)


def auc_ranks(t, s):
    # Mann–Whitney U from mid-ranks: U = R₊ − N₊(N₊ + 1)/2
    ranks = stats.rankdata(s)
    n_pos = np.sum(np.asarray(t) == 1)
    n_neg = len(t) - n_pos
    return (ranks[np.asarray(t) == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def irls_weighted_least_squares(Phi, t, w):
    # the working response z, solved as weighted least squares (Bishop (4.99)–(4.100))
    y = special.expit(Phi @ w)
    R = y * (1 - y)
    z = Phi @ w - (y - t) / R
    return np.linalg.lstsq(np.sqrt(R)[:, None] * Phi, np.sqrt(R) * z, rcond=None)[0]


def irls_inverse(Phi, t, w):
    y = 1 / (1 + np.exp(-(Phi @ w)))
    H = Phi.T @ np.diag(y * (1 - y)) @ Phi
    return w - np.linalg.inv(H) @ Phi.T @ (y - t)


def generative_sklearn(X, t):
    # scikit-learn's LDA with the lsqr solver uses the same maximum-likelihood Σ
    lda = LinearDiscriminantAnalysis(solver="lsqr").fit(X, t)
    return lda.coef_[0], float(lda.intercept_[0])


def generative_by_hand(X, t):
    N1, N2 = np.sum(t == 1), np.sum(t == 0)
    mu1, mu2 = X[t == 1].mean(0), X[t == 0].mean(0)
    S = sum(
        np.outer(x - (mu1 if c else mu2), x - (mu1 if c else mu2)) for x, c in zip(X, t)
    )
    Sigma_inv = np.linalg.inv(S / len(X))
    w = Sigma_inv @ (mu1 - mu2)
    w0 = -0.5 * mu1 @ Sigma_inv @ mu1 + 0.5 * mu2 @ Sigma_inv @ mu2 + np.log(N1 / N2)
    return w.tolist(), w0


def covariance_inverse(Phi, w_map, alpha):
    y = special.expit(Phi @ w_map)
    return np.linalg.inv(alpha * np.eye(len(w_map)) + (Phi.T * (y * (1 - y))) @ Phi)


def covariance_cholesky(Phi, w_map, alpha):
    # Σ from a Cholesky factor of the precision: S_N = W⁻¹W⁻ᵀ with S_N⁻¹ = WᵀW
    R = special.expit(Phi @ w_map) * special.expit(-(Phi @ w_map))
    W = linalg.cholesky(alpha * np.eye(len(w_map)) + Phi.T @ np.diag(R) @ Phi)
    W_inv = linalg.solve_triangular(W, np.eye(len(w_map)))
    return W_inv @ W_inv.T


def probit_by_phi(Phi_new, w_map, S_N):
    # σ(κμ) written with κ = 1/√(1 + λ²σ²)·… and σ through tanh: σ(x) = (1 + tanh(x/2))/2
    mu = Phi_new @ w_map
    var = np.array([phi @ S_N @ phi for phi in Phi_new])
    kappa = (1 + np.pi * var / 8) ** -0.5
    return (1 + np.tanh(kappa * mu / 2)) / 2


def ridge_kernel_form(Phi, Z, lam):
    # the dual route: Wᵀ = Φᵀ(ΦΦᵀ + λI)⁻¹Z (the push-through identity)
    G = Phi @ Phi.T
    return (Phi.T @ np.linalg.solve(G + lam * np.eye(len(G)), Z)).T


def ridge_solve(Phi, Z, lam):
    return np.linalg.solve(
        Phi.T @ Phi + lam * np.eye(Phi.shape[1]), Phi.T @ Z
    ).T.tolist()


def nw_softmax(X, z, X_query, sigma_x):
    d2 = ((X_query[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return special.softmax(-d2 / (2 * sigma_x**2), axis=1) @ z


def nw_logsumexp(X, z, X_query, sigma_x):
    # with ‖a − b‖² = ‖a‖² + ‖b‖² − 2aᵀb and logsumexp
    d2 = (X_query**2).sum(1)[:, None] + (X**2).sum(1)[None, :] - 2 * X_query @ X.T
    log_k = -d2 / (2 * sigma_x**2)
    log_k -= special.logsumexp(log_k, axis=1, keepdims=True)
    return np.exp(log_k) @ z


def gp_inverse(K, K_star, k_star_star, t, noise_variance):
    C_inv = np.linalg.inv(K + noise_variance * np.eye(len(K)))
    mean = K_star.T @ C_inv @ t
    var = k_star_star + noise_variance - np.einsum("nq,nm,mq->q", K_star, C_inv, K_star)
    return mean, var


def gp_conditional_gaussian(K, K_star, k_star_star, t, noise_variance):
    # condition the joint Gaussian of (t, t_*) one query at a time (Bishop (2.81)–(2.82))
    means, variances = [], []
    for q in range(K_star.shape[1]):
        k = K_star[:, q]
        C = np.block(
            [
                [K + noise_variance * np.eye(len(K)), k[:, None]],
                [k[None, :], np.array([[k_star_star[q] + noise_variance]])],
            ]
        )
        gain = linalg.solve(C[:-1, :-1], C[:-1, -1], assume_a="pos")
        means.append(gain @ t)
        variances.append(C[-1, -1] - C[-1, :-1] @ gain)
    return means, variances


def lml_scipy(K, t, noise_variance):
    return stats.multivariate_normal(
        np.zeros(len(t)), K + noise_variance * np.eye(len(t))
    ).logpdf(t)


def lml_eigen(K, t, noise_variance):
    lam, U = np.linalg.eigh(K + noise_variance * np.eye(len(t)))
    proj = U.T @ t
    return (
        -0.5 * proj @ (proj / lam)
        - 0.5 * np.log(lam).sum()
        - 0.5 * len(t) * np.log(2 * np.pi)
    )


def rvm_function_space(Phi, t, alpha, beta):
    # condition the joint Gaussian of (w, t): an N × N solve with C = β⁻¹I + ΦA⁻¹Φᵀ
    A_inv = np.diag(1 / alpha)
    C = np.eye(len(t)) / beta + Phi @ A_inv @ Phi.T
    m = A_inv @ Phi.T @ np.linalg.solve(C, t)
    Sigma = A_inv - A_inv @ Phi.T @ np.linalg.solve(C, Phi @ A_inv)
    return m, Sigma


def rvm_mlcourse(Phi, t, alpha, beta):
    post = rvm.posterior(Phi, t, alpha, beta)
    return post.mean, post.cov


def reestimate_mlcourse(Phi, t, alpha, beta):
    alpha_new, beta_new, _ = rvm.reestimate(Phi, t, alpha, beta)
    return alpha_new, beta_new


def reestimate_inverse(Phi, t, alpha, beta):
    Sigma = np.linalg.inv(np.diag(alpha) + beta * Phi.T @ Phi)
    m = beta * Sigma @ Phi.T @ t
    gamma = 1 - alpha * np.diag(Sigma)
    return gamma / m**2, (len(t) - gamma.sum()) / np.sum((t - Phi @ m) ** 2)


def newton_inverse(Phi, t, alpha, w):
    y = special.expit(Phi @ w)
    H = Phi.T @ np.diag(y * (1 - y)) @ Phi + np.diag(alpha)
    return w + np.linalg.inv(H) @ (Phi.T @ (t - y) - alpha * w)


def newton_irls_form(Phi, t, alpha, w):
    # the new mode solves (ΦᵀBΦ + A)w_new = ΦᵀB ŧ with the working targets ŧ = Φw + B⁻¹(t − y)
    y = special.expit(Phi @ w)
    B = y * (1 - y)
    t_hat = Phi @ w + (t - y) / B
    return np.linalg.solve(
        Phi.T @ (B[:, None] * Phi) + np.diag(alpha), Phi.T @ (B * t_hat)
    )


def evidence_mlcourse(Phi, t, alpha, w_star):
    return rvm.laplace_posterior(Phi, t, alpha, w0=w_star).log_evidence


def evidence_by_hand(Phi, t, alpha, w_star):
    y = special.expit(Phi @ w_star)
    log_lik = np.sum(np.where(t == 1, np.log(y), np.log1p(-y)))
    log_prior = stats.multivariate_normal(
        np.zeros(len(alpha)), np.diag(1 / alpha)
    ).logpdf(w_star)
    Sigma = np.linalg.inv(Phi.T @ np.diag(y * (1 - y)) @ Phi + np.diag(alpha))
    return (
        log_lik
        + log_prior
        + 0.5 * len(alpha) * np.log(2 * np.pi)
        + 0.5 * np.linalg.slogdet(Sigma)[1]
    )


def mi_mlcourse(x, t):
    return mutual_information(x, t)


def mi_conditional_entropy(x, t):
    # Ĥ(t) − Ĥ(t | x), the lecture's form, from frequency tables
    def H(v):
        _, c = np.unique(v, return_counts=True)
        p = c / c.sum()
        return -np.sum(p * np.log(p))

    return H(t) - sum(np.mean(x == v) * H(t[x == v]) for v in np.unique(x))


def jmi_chain_rule(X, t, selected):
    # Σ_i [Î(x_i; t) + Î(x_j; t | x_i)], mlcourse's estimators
    scores = np.array(
        [
            sum(
                mutual_information(X[:, i], t)
                + conditional_mutual_information(X[:, j], t, X[:, i])
                for i in selected
            )
            for j in range(X.shape[1])
        ]
    )
    scores[selected] = -np.inf
    return scores


def jmi_pairs_mlcourse(X, t, selected):
    scores = [
        -np.inf
        if j in selected
        else sum(mutual_information(X[:, [i, j]], t) for i in selected)
        for j in range(X.shape[1])
    ]
    return scores


def pca_eigh(X, M):
    lam, U = np.linalg.eigh(np.cov(X.T, bias=True))
    return -U[:, ::-1][:, :M]  # the sign is free


def pca_dual(X, M):
    Xc = X - X.mean(0)
    lam, V = np.linalg.eigh(Xc @ Xc.T / len(X))
    lam, V = lam[::-1][:M], V[:, ::-1][:, :M]
    return Xc.T @ V / np.sqrt(len(X) * lam)


def distortion_reconstruction(X, M):
    mean = X.mean(0)
    _, _, Vt = np.linalg.svd(X - mean)
    U = Vt[:M].T
    X_tilde = mean + (X - mean) @ U @ U.T
    return np.mean(np.sum((X - X_tilde) ** 2, axis=1))


def distortion_eigvals(X, M):
    lam = np.linalg.eigvalsh(np.cov(X.T, bias=True))[::-1]
    return lam[M:].sum()


def ppca_mlcourse(X, r):
    model = PPCA(r).fit(X)
    return model.components_, model.noise_variance_


def ppca_rotated(X, r):
    Xc = X - X.mean(0)
    lam, U = np.linalg.eigh(Xc.T @ Xc / len(X))
    lam, U = lam[::-1], U[:, ::-1]
    sigma2 = lam[r:].mean()
    R, _ = np.linalg.qr(np.random.default_rng(0).normal(size=(r, r)))  # any rotation
    return U[:, :r] * np.sqrt(lam[:r] - sigma2) @ R, sigma2


def pls_sklearn(X, Y):
    model = PLSRegression(1, scale=False, tol=1e-26, max_iter=100_000).fit(X, Y)
    return model.x_weights_[:, 0]


def pls_power(X, Y):
    # the top eigenvector of X_cᵀY_cY_cᵀX_c by power iterations
    Xc, Yc = X - X.mean(0), Y - Y.mean(0)
    A = Xc.T @ Yc @ Yc.T @ Xc
    u = np.ones(X.shape[1])
    for _ in range(2000):
        u = A @ u
        u /= np.linalg.norm(u)
    return u


ALTERNATIVES = {
    "roc-points": [roc_sklearn, roc_by_sorting],
    "auc-mann-whitney": [auc_sklearn, auc_ranks],
    "irls-step": [irls_weighted_least_squares, irls_inverse],
    "generative-weights": [generative_sklearn, generative_by_hand],
    "laplace-covariance": [covariance_inverse, covariance_cholesky],
    "probit-approximation": [probit_by_phi],
    "ridge-weights": [ridge_kernel_form, ridge_solve],
    "nadaraya-watson": [nw_softmax, nw_logsumexp],
    "gp-predictive": [gp_inverse, gp_conditional_gaussian],
    "gp-log-marginal-likelihood": [lml_scipy, lml_eigen],
    "rvm-posterior": [rvm_function_space, rvm_mlcourse],
    "rvm-reestimate": [reestimate_mlcourse, reestimate_inverse],
    "rvm-newton-step": [newton_inverse, newton_irls_form],
    "rvm-laplace-evidence": [evidence_mlcourse, evidence_by_hand],
    "mutual-information": [mi_mlcourse, mi_conditional_entropy],
    "jmi-scores": [jmi_chain_rule, jmi_pairs_mlcourse],
    "pca-directions": [pca_eigh, pca_dual],
    "pca-distortion": [distortion_reconstruction, distortion_eigvals],
    "ppca-ml": [ppca_mlcourse, ppca_rotated],
    "pls-direction": [pls_sklearn, pls_power],
}


def test_every_exercise_has_an_alternative():
    assert set(ALTERNATIVES) == set(EXERCISES)


@pytest.mark.parametrize(
    "name, answer",
    [(name, f) for name, fs in ALTERNATIVES.items() for f in fs],
    ids=lambda v: v if isinstance(v, str) else v.__name__,
)
def test_another_route_is_accepted(name, answer):
    feedback = EXERCISES[name].check(answer)
    assert feedback.correct, feedback
