// The unfused program that gives the fused one its error baseline
// accumulates in f32 where the compiler does (smap-widen-accumulators, on
// by default): fuzz seed 41429, a bf16 softmax over 257 columns
// (linalg.softmax, its sum in bf16) and a GEMM into one cancelling output
// (-0.00705; the terms' magnitudes add up to 0.49). The fused program sums
// in f32 and rounds the sum to bf16, which moves the probabilities and the
// output by 2.46e-4, beyond the bf16 tolerance of so small an output; the
// program's own bf16 sum happened to err by 3.3e-5 only, so the check
// failed the fused program for rounding exactly as the compiler is meant
// to. With the same widening, the baseline errs as the fused program does.
// RUN: spacefusion-run %s --reps=1 | FileCheck %s
// CHECK: unfused against the f64 reference: max abs error 2.46E-04
// CHECK: out of tolerance: #0 0 of 1: PASS
// Without the widening, neither program widens, and both sum in bf16:
// RUN: spacefusion-run %s --reps=1 --widen-accumulators=false | FileCheck %s --check-prefix=NARROW
// NARROW: unfused against the f64 reference: max abs error 3.27E-05
// NARROW: max abs error 3.27E-05, {{.*}} PASS
// fuzz: seed=41429 dtype=bf16 cse=0 steps=softmax(named,dim=1);gemm(named,1x1x257) features=-
#map0 = affine_map<(d0, d1) -> (d0, d1)>
func.func @fuzz(%arg0: tensor<1x257xbf16>, %arg1: tensor<257x1xbf16>) -> (tensor<1x1xbf16>) {
  %cst4 = arith.constant 0.000000e+00 : f32
  %init1 = tensor.empty() : tensor<1x257xbf16>
  %softmax2 = linalg.softmax dimension(1) ins(%arg0 : tensor<1x257xbf16>) outs(%init1 : tensor<1x257xbf16>) -> tensor<1x257xbf16>
  %init3 = tensor.empty() : tensor<1x1xf32>
  %fill5 = linalg.fill ins(%cst4 : f32) outs(%init3 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %mm6 = linalg.matmul ins(%softmax2, %arg1 : tensor<1x257xbf16>, tensor<257x1xbf16>) outs(%fill5 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %init7 = tensor.empty() : tensor<1x1xf32>
  %squash10 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel"]} ins(%mm6 : tensor<1x1xf32>) outs(%init7 : tensor<1x1xf32>) {
  ^bb0(%in7_0: f32, %out7_0: f32):
    %v9 = math.tanh %in7_0 : f32
    linalg.yield %v9 : f32
  } -> tensor<1x1xf32>
  %init11 = tensor.empty() : tensor<1x1xbf16>
  %trunc14 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel"]} ins(%squash10 : tensor<1x1xf32>) outs(%init11 : tensor<1x1xbf16>) {
  ^bb0(%in11_0: f32, %out11_0: bf16):
    %v13 = arith.truncf %in11_0 : f32 to bf16
    linalg.yield %v13 : bf16
  } -> tensor<1x1xbf16>
  return %trunc14 : tensor<1x1xbf16>
}
