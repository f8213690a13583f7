// A reshape that merges every dim of its operand into groups of two or more
// (torch.flatten, or a collapse to [b*h, m*n]) leaves the slicers no dim to
// cut, so no block holds the graph. On a GPU its ops already ran unfused as
// loop kernels; on the CPU the pipeline failed ("no schedule fits target
// 'cpu'") on valid static IR. Now the graph is dissolved there too, with
// the remark, and its ops run as loops (found by an external-IR sweep).
//
// RUN: spacefusion-opt %s -split-input-file --spacefusion-pipeline=target=cpu \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s
// RUN: spacefusion-run %s --entry=flatten_exp | FileCheck %s --check-prefix=FLAT
// RUN: spacefusion-run %s --entry=collapse_sum | FileCheck %s --check-prefix=SUM

// CHECK: remark: [Missed] unfused | Category:smap:schedule | Function=flatten_exp | Remark="no schedule fits target 'cpu': the smallest candidate (spatial [] temporal []) needs {{[0-9]+}} bytes of shared memory per block, the target has 1048576; not fused: its ops run as loops"
// CHECK: remark: [Missed] unfused | Category:smap:schedule | Function=collapse_sum |
// CHECK-SAME: not fused: its ops run as loops
// CHECK-LABEL: func.func @flatten_exp(
// CHECK-SAME:    %[[X:.*]]: tensor<16x32x8x64xf32>)
// CHECK-NOT:     smap.graph
// CHECK:         %[[COLLAPSED:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2, 3]]
// CHECK:         %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[COLLAPSED]] : tensor<262144xf32>)
// CHECK:           math.exp
// CHECK:         return %[[EXP]]
// FLAT: max abs error {{.*}} over 262144 outputs {{.*}}: PASS
func.func @flatten_exp(%x: tensor<16x32x8x64xf32>) -> tensor<262144xf32> {
  %flat = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<16x32x8x64xf32> into tensor<262144xf32>
  %e = tensor.empty() : tensor<262144xf32>
  %exp = linalg.map { math.exp } ins(%flat : tensor<262144xf32>) outs(%e : tensor<262144xf32>)
  return %exp : tensor<262144xf32>
}

// -----

// CHECK-LABEL: func.func @collapse_sum(
// CHECK-NOT:     smap.graph
// CHECK:         tensor.collapse_shape {{.*}} {{\[}}[0, 1], [2, 3]]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// SUM: max abs error {{.*}} over 512 outputs {{.*}}: PASS
func.func @collapse_sum(%x: tensor<16x32x8x64xf32>) -> tensor<512xf32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %x [[0, 1], [2, 3]] : tensor<16x32x8x64xf32> into tensor<512x512xf32>
  %re = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%re : tensor<512xf32>) -> tensor<512xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<512x512xf32>) outs(%f : tensor<512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<512xf32>
  return %s : tensor<512xf32>
}
