"""Linear dimensionality reduction and the linear-Gaussian latent-variable models (lectures 000,
002, 004): principal component analysis (the PCA chapter);
probabilistic and supervised PCA, partial least squares, canonical correlation analysis and
kernel PCA (the latent-variable chapter).

* :class:`PCA` — maximum-variance / minimum-error projection, by three routes (``"eig"``,
  ``"svd"``, ``"dual"``; see ``_pca_routes``), with optional whitening.
* :func:`profile_likelihood` — Zhu & Ghodsi's (2006) choice of the number of components.
* Fisher's discriminant direction, which the PCA chapter contrasts with PCA, is a linear
  classifier's: :func:`mlcourse.linear.fisher_direction`.
* :class:`PPCA` — probabilistic PCA (Tipping & Bishop 1999): closed form, or EM with missing
  values; :func:`ppca_max_log_likelihood`, :func:`ppca_bic`, :func:`ppca_evidence` (Minka 2000)
  choose its number of components from the spectrum.
* :class:`SupervisedPCA` — Bayesian factor regression: one latent drives x and t.
* :class:`PLSRegression` — partial least squares (NIPALS, regression deflation).
* :class:`CCA` — canonical correlation analysis by one SVD.
* :class:`KernelPCA` — PCA in the feature space of a kernel (``mlcourse.kernels``).

Conventions. ``explained_variance_`` uses the divisor N − 1, like scikit-learn; Bishop's S and the
lectures' λ_i use 1/N, so λ_i = (N − 1)/N · ``explained_variance_[i]`` (same eigenvectors); the
latent-variable models use S (divisor N), as maximum likelihood requires. Each component's sign
is fixed so that its largest-|·| entry is positive (scikit-learn's convention).
"""

# Kept until the chapters import them from mlcourse.linear (the old path, silent; mlcourse.pca
# re-exports them from there). Then delete this import.
from ..linear import fisher_criterion, fisher_direction  # noqa: F401
from ._cca import CCA
from ._kernel_pca import KernelPCA
from ._pca import PCA, profile_likelihood
from ._pls import PLSRegression
from ._ppca import PPCA, ppca_bic, ppca_evidence, ppca_max_log_likelihood
from ._supervised_pca import SupervisedPCA

__all__ = [
    "PCA",
    "profile_likelihood",
    "PPCA",
    "ppca_max_log_likelihood",
    "ppca_bic",
    "ppca_evidence",
    "SupervisedPCA",
    "PLSRegression",
    "CCA",
    "KernelPCA",
]
