"""`tf32=True`: the f32 contractions' products are those of TF32-rounded
factors (to nearest, ties away), checked against numpy, independently of the
compiler's own reference; the default keeps f32 products."""

import numpy as np
import pytest

import spacefusion as sf

GEMM = """
func.func @gemm(%a: tensor<64x96xf32>, %b: tensor<96x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x48xf32>)
                     outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}
"""


def tf32(x):
    """x rounded to TF32 as the compiler rounds: half a unit added, 13 bits cleared."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)


def inputs():
    rng = np.random.default_rng(7)
    return (rng.uniform(-1, 1, (64, 96)).astype(np.float32),
            rng.uniform(-1, 1, (96, 48)).astype(np.float32))


@pytest.mark.parametrize("fused", [True, False])
def test_tf32_products_are_rounded(fused):
    a, b = inputs()
    (got,) = sf.compile(GEMM, fused=fused, tf32=True)(a, b)
    rounded = tf32(a).astype(np.float64) @ tf32(b).astype(np.float64)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    scale = np.abs(exact).max()
    # f32 accumulation of the exact products of rounded factors ...
    assert np.abs(got - rounded).max() <= 2e-6 * scale
    # ... which are not the f32 products: the check can tell them apart.
    assert np.abs(rounded - exact).max() > 50 * 2e-6 * scale


def test_default_keeps_f32_products():
    a, b = inputs()
    (got,) = sf.compile(GEMM)(a, b)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(got - exact).max() <= 2e-6 * np.abs(exact).max()


SELECT = """
func.func @columns(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
"""


def test_rounding_ties_go_away_from_zero():
    # B selects A's first four columns, so the result is A's rounded values:
    # 1 + 2^-11 lies halfway between two TF32 values and rounds up in
    # magnitude on both signs; 1 + 2^-12 rounds down; 2^-13 past a tie up.
    u = 2.0 ** -10
    a = np.zeros((2, 8), dtype=np.float32)
    a[0, :4] = [1 + u / 2, -(1 + u / 2), 1 + u / 4, 3 + u]
    a[1, :4] = [1 + u / 2 + 2.0 ** -13, 1.5, -2 - u, 0.0]
    b = np.eye(8, 4, dtype=np.float32)
    (got,) = sf.compile(SELECT, tf32=True)(a, b)
    assert got[0].tolist() == [1 + u, -(1 + u), 1.0, 3 + 2 * u]
    assert got[1].tolist() == [1 + u, 1.5, -2 - 2 * u, 0.0]
    assert np.array_equal(got, tf32(a)[:, :4])
