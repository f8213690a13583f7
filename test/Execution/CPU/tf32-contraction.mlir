// `spacefusion-run --tf32` rounds the f32 contractions' factors to TF32 in
// every version: the f64 reference keeps the rounding (tf32 is not widened)
// and rounds its f64 values through f32, so the fused products are checked
// exactly, at f32's tolerance (given here: --tf32 defaults to TF32's, for
// factors a fused program computes in another order). A linear layer with
// a ReLU and a batched product whose B is read transposed (k innermost).
// RUN: spacefusion-run %s --tf32 --reps=1 --atol=2e-5 --rtol=1e-4 \
// RUN:   | FileCheck %s
// RUN: spacefusion-run %s --tf32 --reps=1 --atol=2e-5 --rtol=1e-4 \
// RUN:   --entry=batched_bt | FileCheck %s
// RUN: spacefusion-run %s --tf32 --reps=1 | FileCheck %s --check-prefix=TF32
// RUN: spacefusion-run %s --tf32 --reps=1 --print-reference \
// RUN:   | FileCheck %s --check-prefix=REF
// CHECK: f32: atol 2.0E-05 x max|ref|, rtol 1.0E-04
// CHECK-SAME: PASS
// TF32: f32: atol 2.0E-03 x max|ref|, rtol 9.8E-04
// TF32-SAME: PASS

// REF-LABEL: func.func @linear_relu(
// REF: ^bb0(%[[X:.+]]: f64, %[[W:.+]]: f64, %{{.+}}: f64):
// REF-NEXT: %[[XT:.+]] = arith.truncf %[[X]] to_nearest_away : f64 to tf32
// REF-NEXT: arith.extf %[[XT]] : tf32 to f64
// REF-NEXT: %[[WT:.+]] = arith.truncf %[[W]] to_nearest_away : f64 to tf32
// REF-NEXT: arith.extf %[[WT]] : tf32 to f64
func.func @linear_relu(%x: tensor<96x80xf32>, %w: tensor<80x48xf32>) -> tensor<96x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<96x48xf32>) -> tensor<96x48xf32>
  %y = linalg.matmul ins(%x, %w : tensor<96x80xf32>, tensor<80x48xf32>) outs(%f : tensor<96x48xf32>) -> tensor<96x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<96x48xf32>) outs(%e : tensor<96x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<96x48xf32>
  return %r : tensor<96x48xf32>
}

func.func @batched_bt(%a: tensor<3x40x72xf32>, %b: tensor<3x56x72xf32>) -> tensor<3x40x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x40x56xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x40x56xf32>) -> tensor<3x40x56xf32>
  %c = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<3x40x72xf32>, tensor<3x56x72xf32>) outs(%f : tensor<3x40x56xf32>) -> tensor<3x40x56xf32>
  return %c : tensor<3x40x56xf32>
}
