// A temporally sliced reduction whose result is reshaped inside the graph
// (tensor.expand_shape of a row sum into 4x4): the reduction's tensor dim
// is the collapsed group of two global dims, which the update generic's
// maps read as a unit dim at 0 (15 of 16 outputs wrong, any slice size).
// The maps now match a collapsed group as a whole.
// RUN: spacefusion-run %s --reps=1 --temporal=k:16 | FileCheck %s --check-prefixes=CHECK,SLICED
// RUN: spacefusion-run %s --reps=1 --temporal=k:8 | FileCheck %s --check-prefixes=CHECK,SLICED
// RUN: spacefusion-run %s --reps=1 | FileCheck %s
// SLICED: temporally sliced
// CHECK: PASS

#mn = affine_map<(m, n) -> (m, n)>
#m = affine_map<(m, n) -> (m)>
func.func @sum_expand(%x: tensor<16x64xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#mn, #m], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %r = tensor.expand_shape %s [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
