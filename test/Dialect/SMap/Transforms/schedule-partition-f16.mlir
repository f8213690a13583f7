// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze --smap-schedule %s \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target=target=sm_80 --smap-analyze \
// RUN:   --smap-schedule %s | FileCheck %s --check-prefix=SM80

// An f16 MLP (4096 tokens, 768 -> 3072 -> 768, f32 compute, as
// python/spacefusion/workloads.py emits it) is partitioned on the H200 after
// GELU. The hidden tensor crosses the cut only as the A operand of the second
// GEMM, whose B is f16: the tensor cores round it to f16 anyway, so the first
// part ends with a truncf and the second reads a 16-bit matrix (its
// extension folded into the contraction), half the bytes through memory.
// The first part is a GEMM with an epilogue that wgmma takes (128x128, k by
// 64).

// CHECK:       %[[HIDDEN:.*]] = smap.graph(%{{.*}} = %arg0 : tensor<4096x768xf16>, %{{.*}} = %arg1 : tensor<768x3072xf16>, %{{.*}} = %arg2 : tensor<3072xf16>) -> (tensor<4096x3072xf16>)
// CHECK-SAME:    schedule = #smap.schedule<spatial = [m = 128, l = 128], temporal = [k = 64]
// CHECK:         math.tanh
// CHECK:         %[[ROUNDED:.*]] = linalg.generic
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:         smap.yield %[[ROUNDED]] : tensor<4096x3072xf16>
// CHECK:       smap.graph(%[[H:.*]] = %[[HIDDEN]] : tensor<4096x3072xf16>, %[[W2:.*]] = %arg3 : tensor<3072x768xf16>
// CHECK:         linalg.generic {{.*}} ins(%[[H]], %[[W2]] : tensor<4096x3072xf16>, tensor<3072x768xf16>)
// CHECK-NEXT:    ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32):
// CHECK-NEXT:      arith.extf
// CHECK-NEXT:      arith.extf

// On sm_80 the cut falls at the same place (each part's GEMM and epilogue
// run as row fragments, the accumulator in registers) and is rounded the
// same way.
// SM80:        smap.graph({{.*}}) -> (tensor<4096x3072xf16>)
// SM80-SAME:     schedule = #smap.schedule<spatial = [m = 128, l = 128], temporal = [k = 256]
// SM80:        smap.graph(%{{.*}} = %{{.*}} : tensor<4096x3072xf16>
func.func @mlp(%x: tensor<4096x768xf16>, %w1: tensor<768x3072xf16>, %b1: tensor<3072xf16>, %w2: tensor<3072x768xf16>, %b2: tensor<768xf16>) -> tensor<4096x768xf16> {
  %e1 = tensor.empty() : tensor<4096x768xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x768xf16>) outs(%e1 : tensor<4096x768xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<4096x768xf32>
  %e3 = tensor.empty() : tensor<768x3072xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w1 : tensor<768x3072xf16>) outs(%e3 : tensor<768x3072xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<768x3072xf32>
  %e5 = tensor.empty() : tensor<3072xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b1 : tensor<3072xf16>) outs(%e5 : tensor<3072xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<3072xf32>
  %e7 = tensor.empty() : tensor<3072x768xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w2 : tensor<3072x768xf16>) outs(%e7 : tensor<3072x768xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<3072x768xf32>
  %e9 = tensor.empty() : tensor<768xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b2 : tensor<768xf16>) outs(%e9 : tensor<768xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<768xf32>
  %c11 = arith.constant 0.000000000e+00 : f32
  %e13 = tensor.empty() : tensor<4096x3072xf32>
  %f12 = linalg.fill ins(%c11 : f32) outs(%e13 : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<4096x768xf32>, tensor<768x3072xf32>) outs(%f12 : tensor<4096x3072xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<4096x3072xf32>
  %e15 = tensor.empty() : tensor<4096x3072xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g14, %g6 : tensor<4096x3072xf32>, tensor<3072xf32>) outs(%e15 : tensor<4096x3072xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<4096x3072xf32>
  %c17 = arith.constant 5.000000000e-01 : f32
  %c18 = arith.constant 7.978845608e-01 : f32
  %c19 = arith.constant 4.471500000e-02 : f32
  %c20 = arith.constant 1.000000000e+00 : f32
  %e21 = tensor.empty() : tensor<4096x3072xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g16 : tensor<4096x3072xf32>) outs(%e21 : tensor<4096x3072xf32>) {
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
  } -> tensor<4096x3072xf32>
  %c23 = arith.constant 0.000000000e+00 : f32
  %e25 = tensor.empty() : tensor<4096x768xf32>
  %f24 = linalg.fill ins(%c23 : f32) outs(%e25 : tensor<4096x768xf32>) -> tensor<4096x768xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g22, %g8 : tensor<4096x3072xf32>, tensor<3072x768xf32>) outs(%f24 : tensor<4096x768xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<4096x768xf32>
  %e27 = tensor.empty() : tensor<4096x768xf32>
  %g28 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g26, %g10 : tensor<4096x768xf32>, tensor<768xf32>) outs(%e27 : tensor<4096x768xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<4096x768xf32>
  %e29 = tensor.empty() : tensor<4096x768xf16>
  %g30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g28 : tensor<4096x768xf32>) outs(%e29 : tensor<4096x768xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4096x768xf16>
  return %g30 : tensor<4096x768xf16>
}
