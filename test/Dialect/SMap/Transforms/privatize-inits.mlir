// RUN: spacefusion-opt %s -split-input-file --cse --smap-form-graphs \
// RUN:   --smap-analyze | FileCheck %s

// One tensor.empty is the destination of a transposing generic, a
// linalg.transpose and a generic (what `cse` leaves). A destination that an
// op does not read is not a data dependence: each member gets its own copy,
// and the SMG keeps both dims (aligning the users of the shared empty used
// to merge them into one dim "m").

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @transpose_chain
// CHECK: smap.graph
// CHECK-SAME: dims = [#smap.dim<"m", 64, parallel>, #smap.dim<"n", 64, parallel>]
// CHECK: %[[E0:.+]] = tensor.empty() : tensor<64x64xf32>
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<64x64xf32>
// CHECK: %[[A:.+]] = linalg.generic
// CHECK-SAME: outs(%[[E1]] :
// CHECK-SAME: #smap.space<"addf0", ["n", "m"]
// CHECK: %[[E2:.+]] = tensor.empty() : tensor<64x64xf32>
// CHECK: linalg.transpose ins(%[[A]] : tensor<64x64xf32>) outs(%[[E2]] :
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[E0]] :
func.func @transpose_chain(%x: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %one = arith.constant 1.0 : f32
  %0 = linalg.generic {indexing_maps = [#tr, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %one : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %1 = linalg.transpose ins(%0 : tensor<64x64xf32>)
                        outs(%e : tensor<64x64xf32>) permutation = [1, 0]
  %2 = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%1, %c : tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.mulf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %2 : tensor<64x64xf32>
}

// -----

// Two reductions start from one zero fill (as `cse` merges the two fills):
// each gets its own fill and its own empty.
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
// CHECK-LABEL: func.func @shared_fill
// CHECK: smap.graph
// CHECK: %[[E0:.+]] = tensor.empty() : tensor<32xf32>
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<32xf32>
// CHECK: %[[F0:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E1]] : tensor<32xf32>)
// CHECK: %[[F1:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E0]] : tensor<32xf32>)
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[F1]] :
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[F0]] :
func.func @shared_fill(%x: tensor<32x16xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x16xf32>) outs(%f : tensor<32xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<32xf32>
  %sq = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x16xf32>) outs(%f : tensor<32xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.mulf %v, %v : f32
    %a = arith.addf %m, %acc : f32
    linalg.yield %a : f32
  } -> tensor<32xf32>
  return %sum, %sq : tensor<32xf32>, tensor<32xf32>
}
