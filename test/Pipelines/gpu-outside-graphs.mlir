// RUN: spacefusion-opt %s -split-input-file --spacefusion-pipeline="target=sm_90a" \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// What the fusion graphs leave out still compiles for the GPU (the H200
// differential run refused seeds 190 and 233: "runs no kernel ... no device
// copy"; 15, 86, 141, 209, 247, 252, 345 and 387: "zero-size tensor"; 42,
// 309 and 395: "integer reduction").

// A result that reshapes an argument is a device-to-device copy into the
// out-parameter (not a host copy of device memory).
// CHECK-LABEL: llvm.func @reshape(
// CHECK-SAME: %[[IN:[a-z0-9]+]]: !llvm.ptr, %[[IN_ALIGNED:[a-z0-9]+]]: !llvm.ptr,
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: !llvm.ptr, %[[OUT_ALIGNED:[a-z0-9]+]]: !llvm.ptr,
// CHECK-SAME: smap.kernels = []
// CHECK: llvm.call @mgpuMemcpy(%[[OUT_ALIGNED]], %[[IN_ALIGNED]],
// CHECK-NOT: gpu.binary
// CHECK: llvm.func @_mlir_ciface_reshape(
func.func @reshape(%x: tensor<128x16xf32>) -> tensor<128x2x8xf32> {
  %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [128, 2, 8] : tensor<128x16xf32> into tensor<128x2x8xf32>
  return %r : tensor<128x2x8xf32>
}

// -----

// A softmax over an empty batch: every op iterates over nothing
// (smap-fold-empty-domains), and the function returns at once.
// CHECK-LABEL: llvm.func @empty_batch(
// CHECK-SAME: smap.kernels = []
// CHECK-NOT: llvm.call @mgpu
// CHECK: llvm.func @_mlir_ciface_empty_batch(
func.func @empty_batch(%x: tensor<0x257xf32>) -> tensor<0x257xf32> {
  %e = tensor.empty() : tensor<0x257xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<0x257xf32>) outs(%e : tensor<0x257xf32>) -> tensor<0x257xf32>
  return %s : tensor<0x257xf32>
}

// -----

// A sum over an empty dim is its init, a constant (what the unfused program
// returns): a device memset of the out-parameter, 16 bits at a time for
// bf16, 32 for f32.
// CHECK-LABEL: llvm.func @sum_of_nothing(
// CHECK-SAME: %[[OUT_ALIGNED:arg8]]: !llvm.ptr, %{{.*}}: i64, %[[COUNT:arg10]]: i64,
// CHECK-SAME: smap.kernels = []
// CHECK: llvm.call @mgpuMemset32(%[[OUT_ALIGNED]], %{{.*}}, %[[COUNT]],
// CHECK-NOT: gpu.binary
func.func @sum_of_nothing(%x: tensor<0x257xf32>) -> tensor<257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<257xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<257xf32>) -> tensor<257xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<0x257xf32>) outs(%f : tensor<257xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<257xf32>
  return %s : tensor<257xf32>
}

// -----

// CHECK-LABEL: llvm.func @max_of_nothing_bf16(
// CHECK: %[[ONE:.*]] = llvm.bitcast %{{.*}} : bf16 to i16
// CHECK: llvm.call @mgpuMemset16(%{{.*}}, %[[ONE]],
func.func @max_of_nothing_bf16(%x: tensor<16x0xbf16>) -> tensor<16xbf16> {
  %one = arith.constant 1.0 : bf16
  %e = tensor.empty() : tensor<16xbf16>
  %f = linalg.fill ins(%one : bf16) outs(%e : tensor<16xbf16>) -> tensor<16xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x0xbf16>) outs(%f : tensor<16xbf16>) {
  ^bb0(%v: bf16, %acc: bf16):
    %a = arith.maximumf %v, %acc : bf16
    linalg.yield %a : bf16
  } -> tensor<16xbf16>
  return %s : tensor<16xbf16>
}

// -----

// A constant of 64-bit elements has no device memset: a loop kernel fills it.
// CHECK-LABEL: llvm.func @sum_of_nothing_f64(
// CHECK-SAME: smap.kernels = [{blocks = 2 : i64, smem = 0 : i64, strategy = "loops", threads = 256 : i64}]
// CHECK: gpu.binary @sum_of_nothing_f64_loops_f64
func.func @sum_of_nothing_f64(%x: tensor<0x257xf64>) -> tensor<257xf64> {
  %one = arith.constant 1.0 : f64
  %e = tensor.empty() : tensor<257xf64>
  %f = linalg.fill ins(%one : f64) outs(%e : tensor<257xf64>) -> tensor<257xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<0x257xf64>) outs(%f : tensor<257xf64>) {
  ^bb0(%v: f64, %acc: f64):
    %a = arith.addf %v, %acc : f64
    linalg.yield %a : f64
  } -> tensor<257xf64>
  return %s : tensor<257xf64>
}

// -----

// An integer reduction (the SMG takes float reductions only) after a fused
// elementwise graph: the graph's row kernel (built in place, outlined
// first), the init's memset, then the reduction's loop kernel, in program
// order, the loop kernel named by position.
// CHECK-LABEL: llvm.func @integer_sum(
// CHECK-SAME: smap.kernels = [{blocks = 32 : i64, {{.*}}strategy = "rows"{{.*}}}, {blocks = 1 : i64, smem = 0 : i64, strategy = "loops", threads = 64 : i64}]
// CHECK: gpu.launch_func @integer_sum_rows_i32::@integer_sum_rows_i32
// CHECK: llvm.call @mgpuMemset32
// CHECK: gpu.launch_func @integer_sum_1_loops_i32::@integer_sum_1_loops_i32
// CHECK: gpu.binary @integer_sum_1_loops_i32
// CHECK: gpu.binary @integer_sum_rows_i32
// REMARK: [[@LINE+13]]:8: remark: [Passed] loop-kernel | Category:smap:distribute-blocks | Function=integer_sum | Remark="outside every fusion graph (see the smap-form-graphs remarks): lowered to a loop kernel: strategy=loops blocks=1 threads=64 smem=0"
func.func @integer_sum(%a: tensor<64x32xi32>, %b: tensor<64x32xi32>) -> tensor<64xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x32xi32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x32xi32>, tensor<64x32xi32>) outs(%e : tensor<64x32xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.maxsi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<64x32xi32>
  %e2 = tensor.empty() : tensor<64xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e2 : tensor<64xi32>) -> tensor<64xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<64x32xi32>) outs(%f : tensor<64xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %r = arith.addi %x, %acc : i32
    linalg.yield %r : i32
  } -> tensor<64xi32>
  return %s : tensor<64xi32>
}
