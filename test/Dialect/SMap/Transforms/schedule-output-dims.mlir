// A given spatial slice must be a dim of every output: an output that does
// not vary along it would be written whole by every block. smap-schedule
// used to accept it and smap-spatial-slice then built a spatial_slice its
// own verifier rejects (fuzzer seeds 265, 3018).
// RUN: not spacefusion-opt %s --smap-form-graphs --smap-schedule="spatial=n:4" 2>&1 | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule="spatial=m:4" | FileCheck %s --check-prefix=OK
// CHECK: error: invalid schedule: dim 'n' is not a dim of every output, so every block would write all of an output that does not vary along it
// OK: schedule = #smap.schedule<spatial = [m = 4]

#mn = affine_map<(m, n) -> (m, n)>
#m = affine_map<(m, n) -> (m)>
func.func @row_sum_and_scale(%x: tensor<16x8xf32>, %z: tensor<16x4xf32>) -> (tensor<16x8xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#mn, #m], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<16x4xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [#mn, #m, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x8xf32>, tensor<16xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %p = arith.mulf %v, %t : f32
    linalg.yield %p : f32
  } -> tensor<16x8xf32>
  return %y, %s : tensor<16x8xf32>, tensor<16xf32>
}
