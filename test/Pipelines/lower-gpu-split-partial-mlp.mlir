// A bf16 MLP (256x128, hidden 512, GELU) split along its hidden dim l into
// 4 parts: the partial graph's second GEMM accumulates each part's sum into
// a graph output. The row-fragment lowering accumulates only into a row tile
// the block allocates, so the cost model must not predict row_fragments for
// it (it did, and smap-distribute-blocks refused the schedule: "accumulates
// into a buffer that is not a row tile").
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa split=l:4' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %s --cse --linalg-fuse-elementwise-ops \
// RUN:   | spacefusion-opt '--spacefusion-lower-gpu=format=isa split=l:4' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: error
// CHECK: split | Category:smap:schedule | Function=mlp | Remark="split dim 'l' (512) into 4 parts
// CHECK-NOT: strategy=row_fragments
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=mlp | Remark="lowered to one kernel: strategy={{[a-z_]+}} blocks=128
// CHECK-NOT: strategy=row_fragments
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=mlp | Remark="lowered to one kernel: strategy=
// CHECK-NOT: error
func.func @mlp(%x: tensor<256x128xbf16>, %w1: tensor<128x512xbf16>, %b1: tensor<512xbf16>, %w2: tensor<512x128xbf16>, %b2: tensor<128xbf16>) -> tensor<256x128xbf16> {
  %e1 = tensor.empty() : tensor<256x128xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x128xbf16>) outs(%e1 : tensor<256x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<256x128xf32>
  %e3 = tensor.empty() : tensor<128x512xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w1 : tensor<128x512xbf16>) outs(%e3 : tensor<128x512xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<128x512xf32>
  %e5 = tensor.empty() : tensor<512xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b1 : tensor<512xbf16>) outs(%e5 : tensor<512xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<512xf32>
  %e7 = tensor.empty() : tensor<512x128xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w2 : tensor<512x128xbf16>) outs(%e7 : tensor<512x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<512x128xf32>
  %e9 = tensor.empty() : tensor<128xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b2 : tensor<128xbf16>) outs(%e9 : tensor<128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<128xf32>
  %c11 = arith.constant 0.000000000e+00 : f32
  %e13 = tensor.empty() : tensor<256x512xf32>
  %f12 = linalg.fill ins(%c11 : f32) outs(%e13 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<256x128xf32>, tensor<128x512xf32>) outs(%f12 : tensor<256x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<256x512xf32>
  %e15 = tensor.empty() : tensor<256x512xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g14, %g6 : tensor<256x512xf32>, tensor<512xf32>) outs(%e15 : tensor<256x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<256x512xf32>
  %c17 = arith.constant 5.000000000e-01 : f32
  %c18 = arith.constant 7.978845608e-01 : f32
  %c19 = arith.constant 4.471500000e-02 : f32
  %c20 = arith.constant 1.000000000e+00 : f32
  %e21 = tensor.empty() : tensor<256x512xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g16 : tensor<256x512xf32>) outs(%e21 : tensor<256x512xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %x3 = arith.mulf %in0, %in0 : f32
    %x3b = arith.mulf %x3, %in0 : f32
    %t = arith.mulf %x3b, %c19 : f32
    %u = arith.addf %in0, %t : f32
    %v = arith.mulf %u, %c18 : f32
    %th = math.tanh %v : f32
    %w = arith.addf %th, %c20 : f32
    %z = arith.mulf %w, %in0 : f32
    %y = arith.mulf %z, %c17 : f32
    linalg.yield %y : f32
  } -> tensor<256x512xf32>
  %c23 = arith.constant 0.000000000e+00 : f32
  %e25 = tensor.empty() : tensor<256x128xf32>
  %f24 = linalg.fill ins(%c23 : f32) outs(%e25 : tensor<256x128xf32>) -> tensor<256x128xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g22, %g8 : tensor<256x512xf32>, tensor<512x128xf32>) outs(%f24 : tensor<256x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<256x128xf32>
  %e27 = tensor.empty() : tensor<256x128xf32>
  %g28 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g26, %g10 : tensor<256x128xf32>, tensor<128xf32>) outs(%e27 : tensor<256x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<256x128xf32>
  %e29 = tensor.empty() : tensor<256x128xbf16>
  %g30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g28 : tensor<256x128xf32>) outs(%e29 : tensor<256x128xbf16>) {
  ^bb0(%in0: f32, %acc: bf16):
    %y = arith.truncf %in0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<256x128xbf16>
  return %g30 : tensor<256x128xbf16>
}
