// NaN against NaN and equal infinities agree; every other non-finite
// element is a mismatch, and each kind is counted. log(x) is NaN for the
// negative inputs on both sides. exp(100 x) overflows f32 for x > 0.89 but
// not f64, and inf - inf is NaN: against the f64 reference these are inf
// and NaN only in the fused result; against the f32 reference they agree.

// RUN: not spacefusion-run %s --reps=1 | FileCheck %s
// RUN: spacefusion-run %s --reps=1 --reference=native | FileCheck %s --check-prefix=NATIVE

// CHECK: output #0: NaN in both [[NAN:[0-9]+]], only in the reference 0, only in the fused result 0; equal inf 0, inf only in the reference 0, only in the fused result 0, of opposite signs 0; never written 0
// CHECK: output #1: NaN in both 0, only in the reference 0, only in the fused result 0; equal inf 0, inf only in the reference 0, only in the fused result [[INF:[1-9][0-9]*]], of opposite signs 0; never written 0
// CHECK: output #2: NaN in both 0, only in the reference 0, only in the fused result [[INF]]; equal inf 0, inf only in the reference 0, only in the fused result 0, of opposite signs 0; never written 0
// CHECK: max abs error INF, {{.*}} against the f64 reference
// CHECK-SAME: out of tolerance: #0 0 of 128, #1 [[INF]] of 128 first at [{{[0-9]+}}, {{[0-9]+}}], #2 [[INF]] of 128 first at [{{[0-9]+}}, {{[0-9]+}}]: FAIL

// NATIVE: output #0: NaN in both [[NAN:[0-9]+]], only in the reference 0, only in the fused result 0; equal inf 0,
// NATIVE: output #1: NaN in both 0, {{.*}}; equal inf [[INF:[1-9][0-9]*]], inf only in the reference 0, only in the fused result 0, of opposite signs 0; never written 0
// NATIVE: output #2: NaN in both [[INF]], only in the reference 0, only in the fused result 0;
// NATIVE: max abs error 0.00E+00, max rel error 0.00E+00 over 384 outputs
// NATIVE-SAME: out of tolerance: #0 0 of 128, #1 0 of 128, #2 0 of 128: PASS

#map = affine_map<(i, j) -> (i, j)>
func.func @nonfinite(%x: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %c100 = arith.constant 100.0 : f32
  %init = tensor.empty() : tensor<8x16xf32>
  %r:3 = linalg.generic {indexing_maps = [#map, #map, #map, #map],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%init, %init, %init : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32, %o2: f32):
    %log = math.log %in : f32
    %scaled = arith.mulf %in, %c100 : f32
    %exp = math.exp %scaled : f32
    %diff = arith.subf %exp, %exp : f32
    linalg.yield %log, %exp, %diff : f32, f32, f32
  } -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
  return %r#0, %r#1, %r#2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
