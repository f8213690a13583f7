// Attention in the form mixed-precision frontends emit (f16 or bf16
// operands extended inside the contraction bodies, f32 softmax, the
// probabilities rounded to the 16-bit type before the second contraction;
// written by python/spacefusion/workloads.py, attention(frontend=True)),
// sliced along the keys: the online softmax rounds exp(S - m_running)
// instead of exp(S - m) / sum. Its error is the unfused program's kind (one
// rounding per probability, see docs/Rationale.md, "Rounding inside a
// rescaled chain"), checked here against the f64 reference; with no
// tolerance at all the same check fails.

// RUN: split-file %s %t
// RUN: spacefusion-run %t/f16.mlir --reps=1 --spatial=m:32 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t/bf16.mlir --reps=1 --spatial=m:32 --temporal=l:16 | FileCheck %s --check-prefix=BF16
// RUN: not spacefusion-run %t/f16.mlir --reps=1 --spatial=m:32 --temporal=l:32 --baseline-slack=0 --atol=0 --rtol=0 | FileCheck %s --check-prefix=EXACT

// CHECK: @attention on cpu, 1 fusion graph(s)
// CHECK: temporally sliced
// CHECK: (f16: atol {{.*}}), out of tolerance: #0 0 of 16384: PASS
// BF16: temporally sliced
// BF16: (bf16: atol {{.*}}), out of tolerance: #0 0 of 16384: PASS
// EXACT: out of tolerance: #0 {{[1-9][0-9]*}} of 16384 first at {{.*}}: FAIL

//--- f16.mlir
func.func @attention(%q: tensor<1x2x128x64xf16>, %k: tensor<1x2x128x64xf16>, %v: tensor<1x2x128x64xf16>) -> tensor<1x2x128x64xf16> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x128x128xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x128x128xf32>) -> tensor<1x2x128x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>) outs(%f2 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: f16, %in1: f16, %acc: f32):
    %x = arith.extf %in0 : f16 to f32
    %w = arith.extf %in1 : f16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c5 = arith.constant 1.250000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x128x128xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x128x128xf32>) outs(%e6 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x128xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x128xf32>) -> tensor<1x2x128xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x128x128xf32>) outs(%f9 : tensor<1x2x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128xf32>
  %e12 = tensor.empty() : tensor<1x2x128x128xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x128x128xf32>, tensor<1x2x128xf32>) outs(%e12 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x128xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x128xf32>) -> tensor<1x2x128xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x128x128xf32>) outs(%f15 : tensor<1x2x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128xf32>
  %e18 = tensor.empty() : tensor<1x2x128x128xf16>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x128x128xf32>, tensor<1x2x128xf32>) outs(%e18 : tensor<1x2x128x128xf16>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f16):
    %r = arith.divf %in0, %in1 : f32
    %y = arith.truncf %r : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x2x128x128xf16>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x128x64xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x128x64xf32>) -> tensor<1x2x128x64xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x128x128xf16>, tensor<1x2x128x64xf16>) outs(%f21 : tensor<1x2x128x64xf32>) {
  ^bb0(%in0: f16, %in1: f16, %acc: f32):
    %x = arith.extf %in0 : f16 to f32
    %w = arith.extf %in1 : f16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x64xf32>
  %e24 = tensor.empty() : tensor<1x2x128x64xf16>
  %g25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g23 : tensor<1x2x128x64xf32>) outs(%e24 : tensor<1x2x128x64xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x2x128x64xf16>
  return %g25 : tensor<1x2x128x64xf16>
}

//--- bf16.mlir
func.func @attention(%q: tensor<1x2x128x64xbf16>, %k: tensor<1x2x128x64xbf16>, %v: tensor<1x2x128x64xbf16>) -> tensor<1x2x128x64xbf16> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x128x128xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x128x128xf32>) -> tensor<1x2x128x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>) outs(%f2 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: bf16, %in1: bf16, %acc: f32):
    %x = arith.extf %in0 : bf16 to f32
    %w = arith.extf %in1 : bf16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c5 = arith.constant 1.250000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x128x128xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x128x128xf32>) outs(%e6 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x128xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x128xf32>) -> tensor<1x2x128xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x128x128xf32>) outs(%f9 : tensor<1x2x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128xf32>
  %e12 = tensor.empty() : tensor<1x2x128x128xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x128x128xf32>, tensor<1x2x128xf32>) outs(%e12 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x128xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x128xf32>) -> tensor<1x2x128xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x128x128xf32>) outs(%f15 : tensor<1x2x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128xf32>
  %e18 = tensor.empty() : tensor<1x2x128x128xbf16>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x128x128xf32>, tensor<1x2x128xf32>) outs(%e18 : tensor<1x2x128x128xbf16>) {
  ^bb0(%in0: f32, %in1: f32, %acc: bf16):
    %r = arith.divf %in0, %in1 : f32
    %y = arith.truncf %r : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<1x2x128x128xbf16>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x128x64xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x128x64xf32>) -> tensor<1x2x128x64xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x128x128xbf16>, tensor<1x2x128x64xbf16>) outs(%f21 : tensor<1x2x128x64xf32>) {
  ^bb0(%in0: bf16, %in1: bf16, %acc: f32):
    %x = arith.extf %in0 : bf16 to f32
    %w = arith.extf %in1 : bf16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x64xf32>
  %e24 = tensor.empty() : tensor<1x2x128x64xbf16>
  %g25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g23 : tensor<1x2x128x64xf32>) outs(%e24 : tensor<1x2x128x64xbf16>) {
  ^bb0(%in0: f32, %acc: bf16):
    %y = arith.truncf %in0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<1x2x128x64xbf16>
  return %g25 : tensor<1x2x128x64xbf16>
}

