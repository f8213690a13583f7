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


def test_torch_bf16_is_checked_exactly():
    module = sf.compile(sf.workloads.softmax(16, 128))
    with pytest.raises(TypeError, match=r"input #0 must be f32 \(torch.float32\), got torch.bfloat16"):
        module(torch.zeros(16, 128, dtype=torch.bfloat16))


def test_bf16_softmax_on_torch_tensors():
    module = sf.compile(sf.workloads.softmax(16, 128, dtype="bf16"))
    x = torch.randn(16, 128, generator=torch.Generator().manual_seed(0)).to(torch.bfloat16)
    (y,) = module(x)
    assert y.dtype == torch.bfloat16 and y.shape == (16, 128)
    # One rounding of each output to bf16 (at most 2^-8 relative).
    torch.testing.assert_close(y.float(), torch.softmax(x.float(), dim=-1), rtol=2 ** -8, atol=1e-6)
