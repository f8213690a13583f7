// The f64 reference of a mixed-precision function: bf16 arguments and
// result, f32 math between arith.extf and arith.truncf, fill, a named op,
// tensor.empty and a reshape. Every float type becomes f64, constants are
// widened exactly (dense ones too: @table, which is not run, since every
// function of the module is widened), and the casts, now from f64 to f64,
// are dropped.

// RUN: spacefusion-run %s --reps=1 --print-reference | FileCheck %s

// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %{{.*}}: tensor<8x16xf64>, %{{.*}}: tensor<16x4xf64>) -> tensor<2x4x4xf64>
// CHECK-NOT: f32
// CHECK-NOT: bf16
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK-DAG: arith.constant 0.000000e+00 : f64
// CHECK-DAG: arith.constant 5.000000e-01 : f64
// CHECK-DAG: arith.constant 0xFFF0000000000000 : f64
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<8x4xf64>) -> tensor<8x4xf64>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf64>, tensor<16x4xf64>) outs(%{{.*}} : tensor<8x4xf64>) -> tensor<8x4xf64>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 4, 4] : tensor<8x4xf64> into tensor<2x4x4xf64>
// CHECK: return %{{.*}} : tensor<2x4x4xf64>
// CHECK-LABEL: func.func @table() -> tensor<4xf64>
// CHECK: arith.constant dense<[1.000000e+00, 5.000000e-01, 2.500000e-01, 1.250000e-01]> : tensor<4xf64>

// CHECK: @mixed on cpu
// CHECK: against the f64 reference (bf16: atol 1.6E-02 x max|ref|, rtol 7.8E-03), out of tolerance: #0 0 of 32: PASS

#map2 = affine_map<(i, j) -> (i, j)>
func.func @mixed(%a: tensor<8x16xbf16>, %b: tensor<16x4xbf16>) -> tensor<2x4x4xbf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %half = arith.constant 5.000000e-01 : f32
  %ae = tensor.empty() : tensor<8x16xf32>
  %af = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x16xbf16>) outs(%ae : tensor<8x16xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %e = arith.extf %in : bf16 to f32
    linalg.yield %e : f32
  } -> tensor<8x16xf32>
  %be = tensor.empty() : tensor<16x4xf32>
  %bf = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16x4xbf16>) outs(%be : tensor<16x4xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %e = arith.extf %in : bf16 to f32
    linalg.yield %e : f32
  } -> tensor<16x4xf32>
  %ce = tensor.empty() : tensor<8x4xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<8x4xf32>) -> tensor<8x4xf32>
  %c = linalg.matmul ins(%af, %bf : tensor<8x16xf32>, tensor<16x4xf32>)
                     outs(%cz : tensor<8x4xf32>) -> tensor<8x4xf32>
  %re = tensor.empty() : tensor<8x4xbf16>
  %r = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<8x4xf32>) outs(%re : tensor<8x4xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %m = arith.mulf %in, %half : f32
    %x = math.exp %m : f32
    %clamped = arith.maximumf %x, %ninf : f32
    %t = arith.truncf %clamped : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x4xbf16>
  %e = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 4, 4]
      : tensor<8x4xbf16> into tensor<2x4x4xbf16>
  return %e : tensor<2x4x4xbf16>
}

func.func @table() -> tensor<4xbf16> {
  %table = arith.constant dense<[1.0, 0.5, 0.25, 0.125]> : tensor<4xbf16>
  return %table : tensor<4xbf16>
}
