// A matmul of f16 into f16 ("storage type = compute type"), the pipeline
// accumulating it in f32 and rounding once (smap-widen-accumulators). Its
// result is within the f16 tolerance of the f64 reference by itself
// (--baseline-slack=0: no credit for the unfused program's error); the
// program's own f16 accumulation over k = 1024 is not, which the same check
// with --widen-accumulators=false shows.

// RUN: spacefusion-run %s --reps=1 --baseline-slack=0 | FileCheck %s
// RUN: not spacefusion-run %s --reps=1 --baseline-slack=0 --widen-accumulators=false \
// RUN:   | FileCheck %s --check-prefix=F16ACC

// CHECK: unfused against the f64 reference
// CHECK: out of tolerance: #0 0 of 32768: PASS
// F16ACC: out of tolerance: #0 {{[1-9][0-9]*}} of 32768 first at {{.*}}: FAIL

func.func @mm(%x: tensor<256x1024xf16>, %w: tensor<1024x128xf16>) -> tensor<256x128xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x128xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<256x128xf16>) -> tensor<256x128xf16>
  %y = linalg.matmul ins(%x, %w : tensor<256x1024xf16>, tensor<1024x128xf16>) outs(%f : tensor<256x128xf16>) -> tensor<256x128xf16>
  return %y : tensor<256x128xf16>
}
