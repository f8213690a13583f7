"""The CPU shared objects take torch tensors as well as numpy arrays."""

import numpy as np
import pytest

import spacefusion as sf

torch = pytest.importorskip("torch")


def test_softmax_on_torch_tensors_matches_torch():
    module = sf.compile(sf.workloads.softmax(16, 128))
    x = torch.randn(16, 128, generator=torch.Generator().manual_seed(0))
    (y,) = module(x)  # a list of the results
    expected = torch.softmax(x, dim=-1).numpy()
    # f32 throughout; the fused kernel sums in a different order.
    np.testing.assert_allclose(np.asarray(y), expected, rtol=1e-5, atol=1e-6)


def test_torch_dtype_is_checked():
    module = sf.compile(sf.workloads.softmax(16, 128))
    with pytest.raises(TypeError, match="input #0 must be f32"):
        module(torch.zeros(16, 128, dtype=torch.float64))
