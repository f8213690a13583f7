// RUN: spacefusion-opt %s --smap-form-graphs '--smap-schedule=rows-per-block=3' --convert-smap-to-gpu -verify-diagnostics

// A rows-per-block that does not divide the rows is an error, not a kernel
// that skips or overruns rows.

func.func @scale(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %two = arith.constant 2.0 : f32
  %init = tensor.empty() : tensor<8x64xf32>
  // expected-error @+1 {{smap-schedule: the row kernel cannot be built: rows-per-block=3 does not divide the 8 rows or exceeds 32 warps}}
  %y = linalg.generic {
      indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x64xf32>) outs(%init : tensor<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %two : f32
    linalg.yield %r : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
