// REQUIRES: libdevice
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=chip=sm_80 format=isa' | FileCheck %s
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa' | FileCheck %s --check-prefix=HOPPER
// RUN: spacefusion-opt %examples/softmax_named.mlir '--spacefusion-lower-gpu=format=isa' \
// RUN:   | FileCheck %s --check-prefix=NAMED

// The whole GPU path in one pipeline, from linalg on tensors: a row softmax
// becomes a host function with a C interface that launches one kernel, and
// the kernel's PTX for the requested chip, with libdevice's exp linked in
// (no unresolved `__nv_` calls left).

// CHECK:       llvm.func @softmax(
// CHECK:         gpu.launch_func @softmax_rows_f32::@softmax_rows_f32
// CHECK:       llvm.func @_mlir_ciface_softmax(
// CHECK:       gpu.binary @softmax_rows_f32
// CHECK-SAME:    #nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">
// CHECK-SAME:    assembly = "
// CHECK-SAME:    .target sm_80
// CHECK-NOT:     __nv_expf
// CHECK-SAME:    ex2.approx
// CHECK-NOT:     __nv_expf

// HOPPER:      gpu.binary @softmax_rows_f32
// HOPPER-SAME:   chip = "sm_90a"
// HOPPER-SAME:   .target sm_90a

// linalg.softmax is decomposed before the row lowering.
// NAMED:       llvm.func @_mlir_ciface_softmax_named(
// NAMED:       gpu.binary @softmax_named_rows_f32
// NAMED-SAME:    shfl.sync.bfly

func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<64xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {
      indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%max_init : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %full = tensor.empty() : tensor<64x256xf32>
  %e = linalg.generic {
      indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<64x256xf32>, tensor<64xf32>) outs(%full : tensor<64x256xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  %sum_init = linalg.fill ins(%zero : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<64x256xf32>) outs(%sum_init : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%full : tensor<64x256xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.divf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
