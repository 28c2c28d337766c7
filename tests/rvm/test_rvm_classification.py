"""mlcourse.rvm, classification: the Laplace step (gradient, Hessian, mode, evidence), the two
α updates and their fixed points, fast vs EM, multiclass, Tipping's Ripley protocol, the
estimator contract and bad input."""

from pathlib import Path

import numpy as np
import pytest
from scipy import integrate, special
from sklearn.datasets import load_iris

from mlcourse.kernels import design_matrix, get_kernel
from mlcourse.laplace import fit_laplace, probit_approximation
from mlcourse.rvm import (
    RVMClassifier,
    _evidence,
    _laplace_step,
    fit_em_classifier,
    fit_sequential_classifier,
    laplace_posterior,
    sparsity_quality,
    working_problem,
)
from mlcourse.utils.numdiff import numerical_gradient, numerical_hessian
from mlcourse.utils.objectives import make_objective

RIPLEY = Path(__file__).resolve().parents[2] / "book" / "data" / "ripley"
EPS = np.finfo(float).eps
# Fast and EM climb the same Laplace evidence from opposite ends (the empty model, every basis
# function) and stop at local maxima; on Ripley's data distinct maxima lie up to about 0.5 nats
# apart (different sets of relevance vectors), as in the regression tests (LOCAL_MAXIMA_NATS).
LOCAL_MAXIMA_NATS = 5.0


def log_posterior(w, Phi, t, alpha):
    """ln p(w | t, α) + const = Σ[t ln y + (1 − t) ln(1 − y)] − ½wᵀAw, written out with SciPy
    (an independent route from mlcourse's objectives); t 1-D, or one-hot rows with w (K·M,)."""
    if t.ndim == 1:
        a = Phi @ w
        return float(
            np.sum(t * special.log_expit(a) + (1 - t) * special.log_expit(-a))
            - 0.5 * np.sum(alpha * w**2)
        )
    W = w.reshape(t.shape[1], -1)
    return float(
        np.sum(t * special.log_softmax(Phi @ W.T, axis=1))
        - 0.5 * np.sum(np.reshape(alpha, W.shape) * W**2)
    )


def problem(seed, n=40, m=4, k=None):
    rng = np.random.default_rng(seed)
    Phi = rng.standard_normal((n, m))
    w = rng.standard_normal(m if k is None else (k, m))
    if k is None:
        t = (rng.uniform(size=n) < special.expit(Phi @ w)).astype(float)
        alpha = rng.uniform(0.5, 2.0, m)
    else:
        P = special.softmax(Phi @ w.T, axis=1)
        t = np.eye(k)[[rng.choice(k, p=p) for p in P]]
        alpha = rng.uniform(0.5, 2.0, (k, m))
    return Phi, t, alpha


def precision_of(lp):
    """Σ⁻¹ from the stored square root Σ = WᵀW (for checks: the inverse is the point)."""
    return np.linalg.inv(lp.W.T @ lp.W)


@pytest.mark.parametrize("k", [None, 3])
def test_gradient_and_hessian_by_finite_differences(k):
    """∇ ln p(w | t, α) = Φᵀ(t − y) − Aw and ∇∇ = −(ΦᵀBΦ + A), an M × M (KM × KM) matrix."""
    Phi, t, alpha = problem(0, k=k)
    rng = np.random.default_rng(1)
    w = 0.5 * rng.standard_normal(alpha.size)
    f = lambda v: log_posterior(v, Phi, t, alpha.ravel())  # noqa: E731
    if k is None:
        y = special.expit(Phi @ w)
        grad = Phi.T @ (t - y) - alpha * w
        H = -(Phi.T @ (Phi * (y * (1 - y))[:, None]) + np.diag(alpha))
    else:
        W = w.reshape(k, -1)
        Y = special.softmax(Phi @ W.T, axis=1)
        grad = ((t - Y).T @ Phi - alpha * W).ravel()
        H = -np.diag(alpha.ravel())
        for i in range(k):
            for j in range(k):
                b = Y[:, i] * ((i == j) - Y[:, j])  # Bishop (4.110)
                H[
                    i * len(W[0]) : (i + 1) * len(W[0]),
                    j * len(W[0]) : (j + 1) * len(W[0]),
                ] -= Phi.T @ (Phi * b[:, None])
    assert H.shape == (alpha.size, alpha.size)
    scale = np.abs(Phi).sum() + alpha.sum()
    # central differences: error ~ ε^(2/3)·scale (gradient) and ε^(1/2)·scale (Hessian)
    np.testing.assert_allclose(
        numerical_gradient(f, w), grad, atol=10 * EPS ** (2 / 3) * scale
    )
    np.testing.assert_allclose(numerical_hessian(f, w), H, atol=10 * EPS**0.5 * scale)
    # the working problem's square root: RᵀR = ΦᵀBΦ (to rounding of the products)
    A = Phi @ w if k is None else Phi @ w.reshape(k, -1).T
    R, tau = working_problem(Phi, t, A)
    np.testing.assert_allclose(
        R.T @ R,
        -H - np.diag(alpha.ravel()),
        atol=100 * EPS * np.abs(Phi).max() ** 2 * len(Phi),
    )
    np.testing.assert_allclose(
        R.T @ tau, R.T @ R @ w + grad + alpha.ravel() * w, atol=1e3 * EPS * scale
    )


@pytest.mark.parametrize("k", [None, 3])
def test_mode_is_stationary_and_laplace_matches_the_laplace_chapter(k):
    """At w*, Φᵀ(t − y) = Aw*; Σ⁻¹ and the evidence agree with mlcourse.laplace.fit_laplace."""
    Phi, t, alpha = problem(2, k=k)
    lp = laplace_posterior(Phi, t, alpha)
    f = lambda v: log_posterior(v, Phi, t, alpha.ravel())  # noqa: E731
    g = numerical_gradient(f, lp.mean)
    scale = np.abs(Phi).sum() + alpha.sum()
    assert np.max(np.abs(g)) < 10 * EPS ** (2 / 3) * scale * (1 + np.abs(lp.mean).max())
    link = "logit" if k is None else "softmax"
    ref = fit_laplace(make_objective(Phi, t, alpha, link=link), np.zeros(alpha.size))
    np.testing.assert_allclose(
        lp.mean, ref.mode, rtol=1e-7, atol=1e-7
    )  # Newton tol 1e-8
    np.testing.assert_allclose(
        precision_of(lp), ref.precision, rtol=1e-7, atol=1e-7 * scale
    )
    # fit_laplace's ln Ẑ omits the prior's normaliser ½ln|A| − (M/2) ln 2π
    offset = 0.5 * np.log(alpha).sum() - 0.5 * alpha.size * np.log(2 * np.pi)
    assert lp.log_evidence == pytest.approx(
        ref.log_normalizer + offset, abs=1e-9 * scale
    )


def laplace_correction_1d(Phi, t, alpha, w):
    """First correction to Laplace's ln Z in 1-D: ln Z − ln Ẑ ≈ f⁽⁴⁾/(8f″²) − 5f‴²/(24f″³) for
    E = −ln f (the standard asymptotic series; the remainder is O(N⁻²))."""
    phi = Phi[:, 0]
    y = special.expit(phi * w)
    b = y * (1 - y)
    e2 = np.sum(phi**2 * b) + alpha
    e3 = np.sum(phi**3 * b * (1 - 2 * y))
    e4 = np.sum(phi**4 * b * (1 - 6 * b))
    return -e4 / (8 * e2**2) + 5 * e3**2 / (24 * e2**3)


def test_evidence_against_quadrature():
    """ln p(t | α) by quadrature (M = 1 and M = 2) against the Laplace estimate.

    M = 1: the difference is the first term of the asymptotic series to O(N⁻²) (so within a
    third of it at N = 200). M = 2: the Laplace error is O(1/N) of the curvature terms, so at
    N = 400 within 0.05 nats; a wrong determinant or a missing (2π)^(M/2) is off by ≥ 0.5.
    """
    rng = np.random.default_rng(3)
    x = rng.standard_normal(200)
    Phi = x[:, None]
    t = (rng.uniform(size=200) < special.expit(1.5 * x)).astype(float)
    lp = laplace_posterior(Phi, t, [0.5])
    m, sd = lp.mean[0], np.sqrt(lp.var[0])
    shift = log_posterior(lp.mean, Phi, t, np.array([0.5]))
    Z, err = integrate.quad(
        lambda v: np.exp(log_posterior(np.array([v]), Phi, t, np.array([0.5])) - shift),
        m - 12 * sd,
        m + 12 * sd,
        epsabs=0,
        epsrel=1e-10,
    )
    log_z = np.log(Z) + shift + 0.5 * np.log(0.5) - 0.5 * np.log(2 * np.pi)
    corr = laplace_correction_1d(Phi, t, 0.5, m)
    assert abs(log_z - lp.log_evidence - corr) < abs(corr) / 3
    # M = 2
    x = rng.standard_normal(400)
    Phi = np.column_stack([x, np.ones(400)])
    t = (rng.uniform(size=400) < special.expit(2 * x - 0.5)).astype(float)
    alpha = np.array([0.3, 0.1])
    lp = laplace_posterior(Phi, t, alpha)
    sd = np.sqrt(lp.var)
    shift = log_posterior(lp.mean, Phi, t, alpha)
    Z, _ = integrate.dblquad(
        lambda b, a: np.exp(log_posterior(np.array([a, b]), Phi, t, alpha) - shift),
        lp.mean[0] - 10 * sd[0],
        lp.mean[0] + 10 * sd[0],
        lp.mean[1] - 10 * sd[1],
        lp.mean[1] + 10 * sd[1],
        epsabs=0,
        epsrel=1e-8,
    )
    log_z = np.log(Z) + shift + 0.5 * np.log(alpha).sum() - np.log(2 * np.pi)
    assert abs(log_z - lp.log_evidence) < 0.05


def ripley(n_train=100, seed=0):
    tr = np.loadtxt(RIPLEY / "synth.tr", skiprows=1)
    te = np.loadtxt(RIPLEY / "synth.te", skiprows=1)
    idx = np.random.default_rng(seed).choice(len(tr), n_train, replace=False)
    return tr[idx, :2], tr[idx, 2], te[:, :2], te[:, 2]


def ripley_design(seed=0):
    X, t, _, _ = ripley(seed=seed)
    return design_matrix(
        X, get_kernel("rbf", gamma=4.0), X, bias=True, bias_last=True
    ), t


def test_both_updates_have_the_same_fixed_points():
    """αᵢ = γᵢ/wᵢ*² ⇔ αᵢ(wᵢ*² + Σᵢᵢ) = 1. With αᵢwᵢ*² = γᵢ(1 + δᵢ) the MacKay step is
    α/(1 + δ) and the EM step α/(1 + γδ): the same sign, EM's smaller (0 ≤ γ ≤ 1), both 0
    together. Where either loop has converged (|Δ ln α| < tol), both steps are small."""
    Phi, t = ripley_design()
    tol = 1e-3
    for rule in ("mackay", "em"):
        fit = fit_em_classifier(Phi, t, rule=rule, max_iter=5000, tol=tol)
        assert fit.converged
        lp = laplace_posterior(Phi, t, fit.alpha, w0=fit.weights)
        a = fit.alpha[np.isfinite(fit.alpha)]
        gamma = 1 - a * lp.var
        # a weight on its way out (γ → 0, αᵢ near PRUNE_ALPHA) has w* at the level of the Newton
        # tolerance, so its steps are rounding noise: check the weights the data determine
        keep = gamma > 1e-3
        a, gamma, w2, var = a[keep], gamma[keep], lp.mean[keep] ** 2, lp.var[keep]
        step_mackay = np.log(gamma / w2 / a)
        step_em = np.log(1 / (w2 + var) / a)
        assert np.all(np.sign(step_em) * np.sign(step_mackay) >= 0)
        assert np.all(np.abs(step_em) <= np.abs(step_mackay) * (1 + 1e-9) + 1e-12)
        # the loop stopped after a step < tol; the next one is smaller still for a contraction
        own = step_mackay if rule == "mackay" else step_em
        assert np.max(np.abs(own)) < tol
        # (EM's steps are γ times MacKay's for small steps: where γ ≈ 1e-3 a step < tol leaves
        # MacKay's δ of order 1. EM's stopping rule on Δ ln α stops far from the fixed point.)


def test_fast_reaches_a_maximum_of_the_em_loop():
    """The sequential algorithm ends at a fixed point of the re-estimation (EM started from it
    moves ln α by < 100 tol) with evidence within LOCAL_MAXIMA_NATS of EM's from all functions."""
    Phi, t = ripley_design()
    fast = fit_sequential_classifier(Phi, t, tol=1e-6)
    em = fit_em_classifier(Phi, t)
    assert fast.converged and em.converged
    assert abs(fast.log_evidence - em.log_evidence) < LOCAL_MAXIMA_NATS
    again = fit_em_classifier(Phi, t, alpha0=fast.alpha, max_iter=1)
    keep = np.isfinite(fast.alpha)
    assert np.isfinite(again.alpha[keep]).all()
    np.testing.assert_allclose(
        np.log(again.alpha[keep]), np.log(fast.alpha[keep]), atol=1e-4
    )
    # the evidence never decreases by more than rounding along EM's path
    h = np.array(em.history)
    assert np.all(np.diff(h) > -1e-6 * np.abs(h[1:]))


# --- the sequential loop's candidate factors (_candidate_factors) ------------------------------


def near_span_problem(seed, gamma, k=None, n=60, m_act=6):
    """Unit-norm RBF columns (one centre a near-duplicate of another), 0/1 or one-hot labels,
    and α with `m_act` weights in the model at 10^U(−8, 1): well-determined weights, whose
    span leaves many candidates a small part of their own (Sᵢ ≪ ‖rᵢ‖²)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    X[1] = X[0] + 1e-4
    Phi = design_matrix(X, get_kernel("rbf", gamma=gamma), X, bias=True, bias_last=True)
    Phi /= np.linalg.norm(Phi, axis=0)
    if k is None:
        t = (X[:, 0] + 0.5 * rng.standard_normal(n) > 0).astype(float)
    else:
        t = np.eye(k)[rng.integers(0, k, n)]
    alpha = np.full((1 if k is None else k, Phi.shape[1]), np.inf)
    idx = rng.choice(alpha.size, m_act, replace=False)
    idx[0] = 0  # the centre with a near-duplicate is in the model
    alpha.flat[idx] = 10.0 ** rng.uniform(-8, 1, m_act)
    return Phi, t, alpha


def candidate_factor_errors(Phi, t, alpha):
    """|Δs|, |Δq| of _candidate_factors against sparsity_quality on the full working problem,
    each over its bound (fails where > 1).

    Out of the model sᵢ = Sᵢ, and both routes form pᵢ = rᵢ − Qcᵢ to about NLε‖rᵢ‖ (NL rows;
    :func:`_candidate_factors` subtracts ‖cᵢ‖² from ‖rᵢ‖² only where that loses less), so Sᵢ
    to 2‖pᵢ‖·NLε‖rᵢ‖ ≤ 2NLε‖rᵢ‖√Sᵢ, and Qᵢ to 2NLε‖rᵢ‖‖τ‖ (|Qᵢ| ≤ ‖rᵢ‖‖τ‖ as C⁻¹ ≼ I);
    twice that for the difference of two routes. In the model sᵢ, qᵢ come from Σ (identical
    in both routes) or from Sᵢ, Qᵢ through αᵢ/(αᵢ − Sᵢ): relative NLε·κ, κ the condition
    number of the unit-diagonal-scaled precision.
    """
    lp, work = _laplace_step._laplace(
        Phi, t, alpha, np.zeros(alpha.shape), working=True
    )
    R, tau = working_problem(Phi, t, lp.activations)
    a = alpha.ravel()
    s0, q0, _, _ = sparsity_quality(R, tau, a, 1.0)
    s, q = _laplace_step._candidate_factors(Phi, Phi * Phi, a, work)
    NL, r = R.shape[0], np.linalg.norm(R, axis=0)
    out, inn = ~np.isfinite(a), np.isfinite(a)
    H = R[:, inn].T @ R[:, inn] + np.diag(a[inn])
    d = 1 / np.sqrt(np.diag(H))
    kappa = np.linalg.cond(H * d[:, None] * d[None, :])
    bound_s = 4 * NL * EPS * r[out] * np.sqrt(s0[out])
    bound_q = 4 * NL * EPS * r[out] * np.linalg.norm(tau)
    return (
        np.abs(s[out] - s0[out]) / bound_s,
        np.abs(q[out] - q0[out]) / bound_q,
        np.abs(s[inn] - s0[inn]) / (NL * EPS * kappa * s0[inn]),
        np.abs(q[inn] - q0[inn]) / (NL * EPS * kappa * np.abs(q0[inn])),
    )


@pytest.mark.parametrize(
    "seed, gamma, k", [(0, 0.02, None), (1, 0.3, None), (5, 0.3, 3), (2, 0.02, 3)]
)
def test_candidate_factors_match_sparsity_quality(seed, gamma, k):
    """The loop's s, q for every candidate (from one product with Φ) are sparsity_quality's on
    the full working problem R, τ, to the rounding of either (candidate_factor_errors)."""
    Phi, t, alpha = near_span_problem(seed, gamma, k)
    for err in candidate_factor_errors(Phi, t, alpha):
        assert err.max() <= 1.0


def test_candidate_factors_need_p_near_the_span(monkeypatch):
    """The bound above can fail: ‖pᵢ‖² = ‖rᵢ‖² − ‖cᵢ‖² for every column (no pᵢ formed)
    exceeds it where pᵢ is small (here by more than 10 times)."""
    Phi, t, alpha = near_span_problem(5, 0.3, 3)
    monkeypatch.setattr(_laplace_step, "_SPAN_SHARE", 0.0)
    err_s = candidate_factor_errors(Phi, t, alpha)[0]
    assert err_s.max() > 10.0


@pytest.mark.parametrize("k", [None, 3])
def test_columns_are_those_of_the_working_problem(k):
    """_columns gives the working problem's columns for any weights, bit for bit (the same
    single products)."""
    Phi, t, alpha = near_span_problem(3, 0.3, k)
    A = Phi @ np.random.default_rng(0).standard_normal((Phi.shape[1], alpha.shape[0]))
    A = A[:, 0] if k is None else A
    R, tau = working_problem(Phi, t, A)
    roots, tau2 = _laplace_step._roots(A, t)
    idx = np.array([0, 5, alpha.size - 1, 7])
    np.testing.assert_array_equal(_laplace_step._columns(Phi, roots, idx), R[:, idx])
    np.testing.assert_array_equal(tau2, tau)


def refit_sequential(Phi, t, tol):
    """The sequential loop as it was written first: after every change the Laplace posterior
    from scratch (laplace_posterior, warm-started) and s, q from sparsity_quality on the working
    problem over every column; the same choice rule (_changes, _best, _worth). Returns α (as
    fit_sequential_classifier's), the actions, and the last s, q (unit-norm columns)."""
    scale = np.linalg.norm(Phi, axis=0)
    B = Phi / scale
    K = 1 if t.ndim == 1 else t.shape[1]
    alpha = np.full((K, B.shape[1]), np.inf)
    shaped = (lambda v: v[0]) if K == 1 else (lambda v: v)  # noqa: E731
    lp, actions = laplace_posterior(B, t, shaped(alpha)), []
    while True:
        a = alpha.ravel()
        s, q, _, _ = sparsity_quality(*working_problem(B, t, lp.activations), a, 1.0)
        new, gain = _evidence._changes(a, s, q)
        worth = _evidence._worth(lp.log_evidence, t.size)
        j, idle, action = _evidence._best(a, new, gain, worth, tol)
        if idle:
            return shaped(alpha * scale**2), actions, s, q, lp
        actions.append(action)
        w = np.zeros(a.size)
        w[np.isfinite(a)] = lp.mean
        alpha.flat[j] = new[j]
        w[j] = w[j] if np.isfinite(new[j]) else 0.0
        lp = laplace_posterior(B, t, shaped(alpha), shaped(w.reshape(alpha.shape)))


def iris_softmax(n=60):
    X, y = load_iris(return_X_y=True)
    idx = np.random.default_rng(5).permutation(len(y))[:n]
    Phi = design_matrix(X[idx], get_kernel("rbf", gamma=0.5), X[idx], bias=True)
    return Phi, np.eye(3)[y[idx]]


def xor_problem(seed, n=80, gamma=2.0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    t = (X[:, 0] * X[:, 1] + 0.5 * rng.standard_normal(n) > 0).astype(float)
    return design_matrix(X, get_kernel("rbf", gamma=gamma), X, bias=True), t


@pytest.mark.parametrize(
    "make",
    [
        ripley_design,
        iris_softmax,
        lambda: xor_problem(0),
        lambda: xor_problem(7, 150, 10.0),
    ],
    ids=["ripley", "iris-softmax", "xor", "xor-narrow"],
)
def test_sequential_classifier_takes_the_refit_loops_path(make):
    """fit_sequential_classifier makes the same changes as the refit loop (refit_sequential)
    and ends at the same α: |Δ ln αᵢ| within the rounding of sᵢ, qᵢ, NLε·κ (NL rows of the
    working problem, κ of its scaled precision), through αᵢ = sᵢ²/θᵢ, θᵢ = qᵢ² − sᵢ, which
    amplifies relative errors by 2 + (2qᵢ² + sᵢ)/θᵢ; ln p to NLε·|ln p|."""
    Phi, t = make()
    fit = fit_sequential_classifier(Phi, t, tol=1e-6)
    alpha, actions, s, q, lp = refit_sequential(Phi, t, tol=1e-6)
    assert fit.converged and fit.actions == actions
    keep = np.isfinite(alpha.ravel())
    np.testing.assert_array_equal(fit.active, np.flatnonzero(keep))
    NL = t.size
    prec = lp.W.T @ lp.W
    d = np.sqrt(np.diag(prec))
    delta = NL * EPS * np.linalg.cond(prec / d[:, None] / d[None, :])
    theta = q[keep] ** 2 - s[keep]
    amplification = 2 + (2 * q[keep] ** 2 + s[keep]) / theta
    err = np.abs(np.log(fit.alpha.ravel()[keep] / alpha.ravel()[keep]))
    assert np.all(err <= amplification * delta)
    assert abs(fit.log_evidence - lp.log_evidence) <= NL * EPS * abs(lp.log_evidence)


def test_ripley_protocol_smoke():
    """Tipping (2001) §4.2: 100 points, r = 0.5: a few relevance vectors and about 9 % error
    (Bayes error ≈ 8 %); here at most 10 vectors and under 14 % on the 1000 test points."""
    X, t, Xte, tte = ripley()
    clf = RVMClassifier(gamma=1 / 0.5**2).fit(X, t)
    assert len(clf.relevance_vectors_) <= 10
    assert np.mean(clf.predict(Xte) != tte) < 0.14
    assert np.isfinite(clf.log_evidence_) and clf.converged_


def test_moderated_probabilities():
    """predict_proba(method="moderated") is σ(κ(σ_a²)μ_a) with σ_a² = φᵀΣφ from the stored
    attributes, and within the probit approximation's 0.02 (+ 4 Monte Carlo standard errors)
    of the average of σ(a) over the Laplace posterior."""
    X, t, Xte, _ = ripley()
    clf = RVMClassifier(gamma=4.0).fit(X, t)
    x = Xte[:50]
    p_mod = clf.predict_proba(x, method="moderated")[:, 1]
    p_plug = clf.predict_proba(x, method="plugin")[:, 1]
    Phi = np.column_stack(
        [get_kernel("rbf", gamma=4.0)(x, clf.relevance_vectors_), np.ones(len(x))]
    )
    w = np.r_[clf.coef_[0], clf.intercept_[0]]
    S = clf.sigma_[0]
    np.testing.assert_allclose(p_plug, special.expit(Phi @ w), atol=1e-12)
    np.testing.assert_allclose(
        p_mod,
        probit_approximation(Phi @ w, np.einsum("ni,ij,nj->n", Phi, S, Phi)),
        atol=1e-12,
    )
    rng = np.random.default_rng(4)
    used = np.flatnonzero(np.diag(S) > 0)
    L = np.linalg.cholesky(S[np.ix_(used, used)])
    draws = w[used] + rng.standard_normal((4000, len(used))) @ L.T
    p = special.expit(draws @ Phi[:, used].T)
    mc, se = p.mean(axis=0), p.std(axis=0) / np.sqrt(len(p))
    assert np.all(np.abs(p_mod - mc) < 0.02 + 4 * se)


@pytest.mark.parametrize("multiclass", ["softmax", "ovr"])
def test_multiclass_on_iris(multiclass):
    X, y = load_iris(return_X_y=True)
    rng = np.random.default_rng(5)
    idx = rng.permutation(len(y))
    tr, te = idx[:100], idx[100:]
    clf = RVMClassifier(gamma=0.5, multiclass=multiclass).fit(X[tr], y[tr])
    P = clf.predict_proba(X[te])
    assert P.shape == (len(te), 3)
    np.testing.assert_allclose(P.sum(axis=1), 1, atol=1e-12)
    assert clf.coef_.shape[0] == 3 and clf.multiclass_ == multiclass
    assert np.mean(clf.predict(X[te]) == y[te]) > 0.85
    assert len(clf.relevance_vectors_) < len(tr) // 4


def test_labels_of_any_type():
    X, t, _, _ = ripley()
    labels = np.where(t > 0, "yes", "no")
    clf = RVMClassifier(gamma=4.0).fit(X, labels)
    assert list(clf.classes_) == ["no", "yes"]
    assert set(clf.predict(X)) <= {"no", "yes"}


def test_imbalanced_and_uninformative_data():
    """99:1 classes: a finite fit. Inputs that cannot tell the samples apart (one point
    repeated): every basis function is the constant, one of them is kept, and the model
    predicts the class frequency, shrunk by the prior."""
    rng = np.random.default_rng(6)
    X = rng.standard_normal((300, 2))
    y = np.zeros(300)
    y[:3] = 1
    clf = RVMClassifier(gamma=1.0).fit(X, y)
    p = clf.predict_proba(X)
    assert np.all(np.isfinite(p)) and np.isfinite(clf.log_evidence_)
    assert np.sum(p[:, 1] > 0.5) <= 3  # no more predicted positives than there are
    X = np.repeat(rng.standard_normal((1, 2)), 300, axis=0)
    y = (rng.uniform(size=300) < 0.7).astype(int)
    for bias in (True, False):
        clf = RVMClassifier(gamma=1.0, bias=bias).fit(X, y)
        p = clf.predict_proba(X[:5])[:, 1]
        assert np.ptp(p) < 1e-12  # duplicates may both enter; p is constant
        # the prior's MAP: within 3 binomial standard errors of the observed rate
        assert np.all(np.abs(p - y.mean()) < 3 * np.sqrt(0.7 * 0.3 / 300))


@pytest.mark.parametrize(
    "params, match",
    [
        ({"gamma": -1.0}, "gamma"),
        ({"kernel": "nope"}, "kernel"),
        ({"method": "nope"}, "method"),
        ({"multiclass": "nope"}, "multiclass"),
        ({"max_iter": 0}, "max_iter"),
        ({"tol": -1}, "tol"),
    ],
)
def test_bad_hyperparameters(params, match):
    X, t, _, _ = ripley()
    with pytest.raises(ValueError, match=match):
        RVMClassifier(**params).fit(X, t)


def test_bad_data():
    X, t, _, _ = ripley()
    with pytest.raises(ValueError, match="one class"):
        RVMClassifier().fit(X, np.zeros(len(X)))
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        RVMClassifier().fit(Xn, t)
    with pytest.raises(ValueError, match="inconsistent"):
        RVMClassifier().fit(X, t[:-1])
    with pytest.raises(ValueError, match="Unknown label type"):
        RVMClassifier().fit(X, np.linspace(0, 1, len(X)))
    clf = RVMClassifier(gamma=4.0).fit(X, t)
    with pytest.raises(ValueError, match="method"):
        clf.predict_proba(X, method="nope")
    with pytest.raises(ValueError, match="alpha"):
        laplace_posterior(np.ones((3, 2)), [0, 1, 0], [1.0, -1.0])


def test_decision_function_and_predict_follow_the_moderated_default():
    """The default predict_proba is the moderated one (as BayesianLogisticRegression's), and
    decision_function its log-odds κ(σ_a²)μ_a, so the three agree; κ only shrinks μ_a towards 0,
    so with two classes the predictions are the mode's (μ_a > 0)."""
    X, t, Xte, _ = ripley()
    clf = RVMClassifier(gamma=4.0).fit(X, t)
    p = clf.predict_proba(Xte)
    np.testing.assert_array_equal(p, clf.predict_proba(Xte, method="moderated"))
    a = clf.decision_function(Xte)
    np.testing.assert_allclose(special.expit(a), p[:, 1], rtol=0, atol=1e-15)
    mode = special.logit(clf.predict_proba(Xte, method="plugin")[:, 1])
    assert np.all(np.abs(a) <= np.abs(mode) * (1 + 1e-12) + 1e-12)
    np.testing.assert_array_equal(
        clf.predict(Xte), clf.classes_[(mode > 0).astype(int)]
    )
