// What cannot be widened to f64 is an error on the op, with the way out.

// RUN: not spacefusion-run %s --reps=1 2>&1 | FileCheck %s
// RUN: spacefusion-run %s --reps=1 --reference=native | FileCheck %s --check-prefix=NATIVE

// CHECK: error: 'arith.bitcast' op operand type 'f64' and result type 'i32' are cast incompatible
// CHECK: spacefusion-run: cannot compute the reference in f64 (--reference=native runs it in the function's dtypes)
// NATIVE: against the native reference {{.*}}: PASS

#map = affine_map<(i) -> (i)>
func.func @bits(%x: tensor<16xf32>) -> tensor<16xf32> {
  %init = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %b = arith.bitcast %in : f32 to i32
    %c = arith.bitcast %b : i32 to f32
    linalg.yield %c : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}
