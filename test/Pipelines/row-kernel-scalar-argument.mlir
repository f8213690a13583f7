// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa | FileCheck %s

// A function whose one row graph does not use a scalar argument is not the
// graph alone: the row kernel is built in place (replacing the function
// would have cast the scalar to a tensor type and crashed), and the host
// function keeps the scalar.
// CHECK-LABEL: llvm.func @sum_with_unused_scale(
// CHECK-SAME: %{{[a-z0-9]+}}: f32,
// CHECK: gpu.launch_func @sum_with_unused_scale_rows_f32::@sum_with_unused_scale_rows_f32
// CHECK: gpu.binary @sum_with_unused_scale_rows_f32
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @sum_with_unused_scale(%x: tensor<64x256xf32>, %s: f32) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%fs : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %sum : tensor<64xf32>
}
