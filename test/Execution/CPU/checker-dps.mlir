// A function in destination-passing style accumulates into its argument.
// The pipelines mark a public function's tensor arguments read-only
// (smap-read-only-arguments), so the matmul writes C + A*B into a copy and
// %c keeps its values. The checker gives every run and repetition fresh
// copies of the inputs anyway, and fails a run that changes one: a caller
// that marks an argument writable itself (in-place updates) is told.

// RUN: split-file %s %t
// RUN: spacefusion-run %t/values.mlir --reps=1 | FileCheck %s
// RUN: spacefusion-run %t/values.mlir --reps=3 | FileCheck %s
// RUN: spacefusion-run %t/values.mlir --reps=3 --reference=native | FileCheck %s --check-prefix=NATIVE
// RUN: not spacefusion-run %t/writable.mlir 2>&1 | FileCheck %s --check-prefix=WRITABLE

// CHECK: @matmul_acc on cpu
// CHECK: max abs error {{.*}} over 192 outputs against the f64 reference
// CHECK-SAME: out of tolerance: #0 0 of 192: PASS

// NATIVE: max abs error 0.00E+00, max rel error 0.00E+00 over 192 outputs against the native reference
// NATIVE-SAME: : PASS

// WRITABLE: spacefusion-run: @matmul_acc_in_place changed its input #2

//--- values.mlir
func.func @matmul_acc(%a: tensor<16x8xf32>, %b: tensor<8x12xf32>,
                      %c: tensor<16x12xf32>) -> tensor<16x12xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x12xf32>)
                     outs(%c : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}

//--- writable.mlir
func.func @matmul_acc_in_place(%a: tensor<16x8xf32>, %b: tensor<8x12xf32>,
                               %c: tensor<16x12xf32> {bufferization.writable = true})
    -> tensor<16x12xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x12xf32>)
                     outs(%c : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}
