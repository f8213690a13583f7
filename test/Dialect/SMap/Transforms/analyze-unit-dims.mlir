// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs --smap-analyze \
// RUN:   | FileCheck %s

// A reduction over a unit-extent loop (a GEMM with N = 1 followed by a sum
// of squares over its last dim, as the fuzzer found it) reduces along no
// global dim: extent-1 dims are folded away. It used to be recorded as a
// reduction along the graph's first dim, which was then "temporal" and
// could be sliced as such (invalid IR).

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @unit_reduction
// CHECK: smap.graph
// CHECK-SAME: dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"n", 8, parallel>]
// CHECK: linalg.generic
// CHECK-SAME: #smap.space<"reduce_add0", ["m", "n"], {{\[}}[]], []>
func.func @unit_reduction(%x: tensor<16x8x1xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = linalg.generic {indexing_maps = [#id3, #red], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<16x8x1xf32>) outs(%f : tensor<16x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %a = arith.addf %sq, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x8xf32>
  %e2 = tensor.empty() : tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x8xf32>) outs(%e2 : tensor<16x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// A linalg.index of a unit loop is constant along every dim.
#x2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @unit_index
// CHECK: smap.graph
// CHECK-SAME: dims = [#smap.dim<"n", 16, parallel>]
func.func @unit_index(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %e = tensor.empty() : tensor<1x16xf32>
  %r = linalg.generic {indexing_maps = [#x2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x16xf32>) outs(%e : tensor<1x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %y = arith.addf %v, %f : f32
    linalg.yield %y : f32
  } -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}
