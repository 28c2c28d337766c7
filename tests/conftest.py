"""Shared fixtures for the unit tests."""

import matplotlib
import numpy as np
import pytest
from threadpoolctl import threadpool_limits

matplotlib.use("Agg")

# pytest runs two workers on two cores; one BLAS thread each avoids oversubscription (the
# notebooks set the same limit in their first cell).
threadpool_limits(1)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
