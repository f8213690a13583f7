"""Bad calls are rejected before anything runs, with a clear message."""

import numpy as np
import pytest

import spacefusion as sf


@pytest.fixture(scope="module")
def softmax():
    return sf.compile(sf.workloads.softmax(8, 64))


def test_wrong_shape(softmax):
    with pytest.raises(ValueError, match=r"input #0 must have shape \(8, 64\), got \(8, 32\)"):
        softmax(np.zeros((8, 32), np.float32))


def test_wrong_dtype(softmax):
    with pytest.raises(TypeError, match=r"input #0 must be f32 \(float32\), got float64"):
        softmax(np.zeros((8, 64), np.float64))


def test_wrong_arity(softmax):
    with pytest.raises(TypeError, match="takes 1 inputs, got 2"):
        softmax(np.zeros((8, 64), np.float32), np.zeros((8, 64), np.float32))


def test_oversized_schedule_is_a_compile_error():
    with pytest.raises(sf.CompileError, match=r"size 96 of dim 'n' is not in \[1, 64\]"):
        sf.compile(sf.workloads.softmax(8, 64), temporal={"n": 96})


def test_ragged_slice_matches_reference():
    """A slice that does not divide its dim: the last one overlaps the one
    before, and its repeated elements are left out of the sum."""
    module = sf.compile(sf.workloads.softmax(8, 64), temporal={"n": 48})
    x = np.random.default_rng(0).standard_normal((8, 64)).astype(np.float32)
    ref = sf.workloads.reference("softmax", x)[0]
    np.testing.assert_allclose(module(x)[0], ref, rtol=1e-5, atol=1e-6)


def test_not_a_function():
    with pytest.raises(sf.CompileError, match="no function"):
        sf.compile("module {}")


def test_outputs_are_fresh(softmax):
    x = np.random.default_rng(0).standard_normal((8, 64)).astype(np.float32)
    (a,) = softmax(x)
    (b,) = softmax(x)
    assert a is not b and np.array_equal(a, b)
