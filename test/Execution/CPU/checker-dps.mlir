// A function in destination-passing style accumulates into its argument:
// bufferized, the matmul writes C + A*B into %c's buffer. Each run, and each
// repetition, must start from a fresh copy of the inputs; sharing them, the
// fused run read the reference's result as its C (and every repetition
// added A*B once more).

// RUN: spacefusion-run %s --reps=1 | FileCheck %s
// RUN: spacefusion-run %s --reps=3 | FileCheck %s
// RUN: spacefusion-run %s --reps=3 --reference=native | FileCheck %s --check-prefix=NATIVE

// CHECK: @matmul_acc on cpu
// CHECK: max abs error {{.*}} over 192 outputs against the f64 reference
// CHECK-SAME: out of tolerance: #0 0 of 192: PASS

// NATIVE: max abs error 0.00E+00, max rel error 0.00E+00 over 192 outputs against the native reference
// NATIVE-SAME: : PASS

func.func @matmul_acc(%a: tensor<16x8xf32>, %b: tensor<8x12xf32>,
                      %c: tensor<16x12xf32>) -> tensor<16x12xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x12xf32>)
                     outs(%c : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}
