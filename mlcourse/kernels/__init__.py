"""Kernels: one interface for the Gaussian-process, RVM, RBF-network and kernel-PCA chapters.

=======================================  ========================================================
name                                     what
=======================================  ========================================================
:class:`Kernel`                          the interface: ``k(X, Y=None)`` → (n, m), ``k.diag(X)``
                                         → (n,), hyperparameters as attributes
:class:`RBFKernel`, :func:`rbf`          exp(−γ‖x − x′‖²) (scikit-learn's ``gamma``)
:class:`LaplacianKernel`,                exp(−γ‖x − x′‖₁) (scikit-learn's); in 1-D the exponential
:func:`laplacian`                        kernel, Green's function of ∫ y² + ℓ²(y′)²
:class:`SilvermanKernel`,                Silverman's (1984) kernel, Green's function of
:func:`silverman`                        ∫ y² + ℓ⁴(y″)² (1-D)
:class:`LinearKernel`, :func:`linear`    xᵀx′
:class:`LinearSplineKernel`,             Tipping's (2001) univariate linear spline, eq. (29)
:func:`linear_spline`
:class:`SquaredExponential`              σ_f² exp(−½ Σ_d (x_d − x′_d)²/ℓ_d²), with ``theta``,
                                         ``with_theta`` and ``gradient`` for learning σ_f², ℓ
:class:`BasisKernel`                     σ_w² φ(x)ᵀφ(x′) of a finite basis φ
:func:`sq_dist`                          pairwise squared distances, optionally scaled
:func:`get_kernel`                       a kernel from a name (``"rbf"``, ``"laplacian"``,
                                         ``"linear"``, ``"linear_spline"``), a Kernel or a
                                         callable
:func:`design_matrix`                    Φ = [kernel columns on centres, or a feature map, or X]
                                         with an optional bias column
=======================================  ========================================================

1-D inputs of shape (n,) are read as n points in one dimension.
"""

from ._kernels import (
    KERNELS,
    BasisKernel,
    Kernel,
    LaplacianKernel,
    LinearKernel,
    LinearSplineKernel,
    RBFKernel,
    SilvermanKernel,
    SquaredExponential,
    design_matrix,
    get_kernel,
)
from ._pairwise import laplacian, linear, linear_spline, rbf, silverman, sq_dist

__all__ = [
    "Kernel",
    "RBFKernel",
    "LaplacianKernel",
    "SilvermanKernel",
    "LinearKernel",
    "LinearSplineKernel",
    "SquaredExponential",
    "BasisKernel",
    "KERNELS",
    "get_kernel",
    "design_matrix",
    "sq_dist",
    "rbf",
    "laplacian",
    "silverman",
    "linear",
    "linear_spline",
]
