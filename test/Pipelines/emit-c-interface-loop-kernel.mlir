// A function carrying llvm.emit_c_interface (as upstream's runner tests
// write them) whose only computation runs as a loop kernel (an integer sum
// forms no fusion graph). smap-distribute-blocks used to take the
// attribute for the mark of a row kernel's finished host function and skip
// it: the sum stayed on the host, reading device buffers, and the compile
// succeeded. Finished row-kernel functions now carry smap.row_kernel_host.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @integer_sum(
// CHECK-SAME:    %[[X:.*]]: memref<16x8x40xi32>, %[[OUT:.*]]: memref<16x40xi32>)
// CHECK-SAME:    llvm.emit_c_interface
// CHECK-SAME:    smap.kernels = [{blocks = 3 : i64, smem = 0 : i64, strategy = "loops", threads = 256 : i64}]
// CHECK-NOT:     smap.row_kernel_host
// CHECK:         gpu.launch blocks
// CHECK-SAME:      function(@integer_sum_loops_i32)
// CHECK:           memref.load %[[X]]
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK:         return
func.func @integer_sum(%x: tensor<16x8x40xi32>) -> tensor<16x40xi32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x40xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<16x40xi32>) -> tensor<16x40xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<16x8x40xi32>) outs(%f : tensor<16x40xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %s = arith.addi %v, %acc : i32
    linalg.yield %s : i32
  } -> tensor<16x40xi32>
  return %r : tensor<16x40xi32>
}

// A whole-function row kernel: its host function is marked and left alone.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:    smap.row_kernel_host
// CHECK:         gpu.launch_func
func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}
