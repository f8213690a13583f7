// RUN: spacefusion-opt %s -split-input-file --smap-decompose-aggregates \
// RUN:   --smap-form-graphs --smap-schedule --convert-smap-to-gpu | FileCheck %s

// Row kernels found wrong on the H200 by the fuzzer's GPU differential run
// (bench/results/gpu-fuzz.md).

// A max from a NaN fill (linalg.softmax's decomposition: maxnumf, for which
// NaN is the identity) over a row the threads do not split evenly: the
// block's total was combined with the NaN init by maximumf, which made
// every row NaN (seeds 6, 58, 127, 191, 206, 219, ...). The init is now
// combined by the body's own op.
// CHECK-LABEL: func.func @softmax_ragged
// CHECK: gpu.launch
// CHECK: %[[NAN:.+]] = arith.constant 0xFFC00000 : f32
// CHECK: gpu.shuffle xor
// CHECK: arith.maxnumf %{{.+}}, %[[NAN]] : f32
func.func @softmax_ragged(%x: tensor<4x100xf32>) -> tensor<4x100xf32> {
  %e = tensor.empty() : tensor<4x100xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x100xf32>) outs(%e : tensor<4x100xf32>) -> tensor<4x100xf32>
  return %y : tensor<4x100xf32>
}

// -----

// A sum over a unit dim reduces along no dim: it is x + 0, element by
// element. The row kernel reduced it along the row (x - sum over the 128
// columns; seeds 36, 242, 302, 396): no shuffle now.
// CHECK-LABEL: func.func @unit_sum
// CHECK: gpu.launch
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.terminator
#x = affine_map<(a, b, c, d) -> (a, b, c, d)>
#r = affine_map<(a, b, c, d) -> (a, b, c)>
#x3 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#r3 = affine_map<(a, b, c, d) -> (a, b, c)>
#i3 = affine_map<(a, b, c) -> (a, b, c)>
func.func @unit_sum(%x: tensor<16x16x128x1xf32>) -> tensor<16x16x128x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16x128xf32>) -> tensor<16x16x128xf32>
  %s = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : tensor<16x16x128x1xf32>) outs(%f : tensor<16x16x128xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x16x128xf32>
  %e2 = tensor.empty() : tensor<16x16x128x1xf32>
  %d = linalg.generic {indexing_maps = [#x3, #r3, #x3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<16x16x128x1xf32>, tensor<16x16x128xf32>) outs(%e2 : tensor<16x16x128x1xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %r = arith.subf %v, %t : f32
    linalg.yield %r : f32
  } -> tensor<16x16x128x1xf32>
  return %d : tensor<16x16x128x1xf32>
}
