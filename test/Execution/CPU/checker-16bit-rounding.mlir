// 3x in f32 between casts, rounded once to f16 or bf16: within half an ulp
// of the exact result (2^-11, 2^-8 relative; atol only for subnormals).
// Checks that inputs are stored, and outputs decoded, as the compiled code
// reads and writes 16-bit floats.

// RUN: spacefusion-run %s --reps=1 --entry=triple_f16 --baseline-slack=0 --atol=1e-8 --rtol=4.8828125e-4 | FileCheck %s --check-prefix=F16
// RUN: spacefusion-run %s --reps=1 --entry=triple_bf16 --baseline-slack=0 --atol=1e-8 --rtol=3.90625e-3 | FileCheck %s --check-prefix=BF16
// Half an ulp is also the most: a quarter fails.
// RUN: not spacefusion-run %s --reps=1 --entry=triple_f16 --baseline-slack=0 --atol=1e-8 --rtol=1.220703125e-4 | FileCheck %s --check-prefix=TIGHT

// F16: @triple_f16 on cpu
// F16: over 4096 outputs against the f64 reference (f16: atol 1.0E-08 x max|ref|, rtol 4.9E-04), out of tolerance: #0 0 of 4096: PASS
// BF16: @triple_bf16 on cpu
// BF16: over 4096 outputs against the f64 reference (bf16: atol 1.0E-08 x max|ref|, rtol 3.9E-03), out of tolerance: #0 0 of 4096: PASS
// TIGHT: out of tolerance: #0 {{[1-9][0-9]*}} of 4096 first at [{{[0-9]+}}]: FAIL

#map = affine_map<(i) -> (i)>
func.func @triple_f16(%x: tensor<4096xf16>) -> tensor<4096xf16> {
  %three = arith.constant 3.0 : f32
  %init = tensor.empty() : tensor<4096xf16>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<4096xf16>) outs(%init : tensor<4096xf16>) {
  ^bb0(%in: f16, %out: f16):
    %e = arith.extf %in : f16 to f32
    %m = arith.mulf %e, %three : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4096xf16>
  return %y : tensor<4096xf16>
}

func.func @triple_bf16(%x: tensor<4096xbf16>) -> tensor<4096xbf16> {
  %three = arith.constant 3.0 : f32
  %init = tensor.empty() : tensor<4096xbf16>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<4096xbf16>) outs(%init : tensor<4096xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %e = arith.extf %in : bf16 to f32
    %m = arith.mulf %e, %three : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4096xbf16>
  return %y : tensor<4096xbf16>
}
