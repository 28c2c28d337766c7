"""Shared fixtures for the unit tests."""

import matplotlib
import numpy as np
import pytest
import scipy.linalg  # noqa: F401  (loads SciPy's own OpenBLAS, see below)
import sklearn.utils  # noqa: F401  (loads scikit-learn's OpenMP runtime)
from threadpoolctl import threadpool_limits

matplotlib.use("Agg")

# pytest runs two workers on two cores; one BLAS thread each avoids oversubscription (the
# notebooks set the same limit in their first cell). threadpool_limits caps only the libraries
# already loaded, and SciPy ships an OpenBLAS of its own besides NumPy's: imported after the cap,
# it ran two spinning threads per worker, and the RVM's many small LAPACK calls took 100x longer.
threadpool_limits(1)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
