// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule --convert-smap-to-gpu -split-input-file -verify-diagnostics
// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule -split-input-file \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHY

// Graphs that are not row kernels: smap-schedule says why (WHY), gives them
// another strategy, and convert-smap-to-gpu, which builds only the row kernels
// the schedule chose, refuses them with an error on the graph.

// Attention: two contractions around the softmax.
func.func @attention(%q: tensor<1x2x64x32xf32>, %k: tensor<1x2x64x32xf32>, %v: tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x64x64xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32>
  // WHY: remark: [Missed] not-rows | Category:smap:schedule | Function={{[a-z_0-9]+}} | Remark="not a row kernel: 'linalg.generic' is a contraction (GEMM-like); contractions need the tensor-core lowering"
  // expected-error @+1 {{convert-smap-to-gpu: not lowered to a GPU kernel: the graph is scheduled as simt, not as a row kernel (smap-schedule's remark says why)}}
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>) outs(%f2 : tensor<1x2x64x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x64x64xf32>
  %c5 = arith.constant 1.767766953e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x64x64xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x64x64xf32>) outs(%e6 : tensor<1x2x64x64xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x64x64xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x64xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x64xf32>) -> tensor<1x2x64xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x64x64xf32>) outs(%f9 : tensor<1x2x64xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x64xf32>
  %e12 = tensor.empty() : tensor<1x2x64x64xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x64x64xf32>, tensor<1x2x64xf32>) outs(%e12 : tensor<1x2x64x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x64x64xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x64xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x64xf32>) -> tensor<1x2x64xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x64x64xf32>) outs(%f15 : tensor<1x2x64xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x64xf32>
  %e18 = tensor.empty() : tensor<1x2x64x64xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x64x64xf32>, tensor<1x2x64xf32>) outs(%e18 : tensor<1x2x64x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x64x64xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x64x32xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x64x64xf32>, tensor<1x2x64x32xf32>) outs(%f21 : tensor<1x2x64x32xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x64x32xf32>
  return %g23 : tensor<1x2x64x32xf32>
}

// -----

// A lone GEMM.
func.func @gemm(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<32x32xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // WHY: remark: [Missed] not-rows | Category:smap:schedule | Function={{[a-z_0-9]+}} | Remark="not a row kernel: 'linalg.generic' is a contraction (GEMM-like); contractions need the tensor-core lowering"
  // expected-error @+1 {{convert-smap-to-gpu: not lowered to a GPU kernel: the graph is scheduled as simt, not as a row kernel (smap-schedule's remark says why)}}
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f2 : tensor<32x32xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<32x32xf32>
  return %g4 : tensor<32x32xf32>
}

// -----

// A function that is not one fusion graph.
// expected-error @+1 {{convert-smap-to-gpu: @identity holds no fusion graph}}
func.func @identity(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  return %x : tensor<4x32xf32>
}
