// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a \
// RUN:   --smap-analyze '--smap-schedule=spatial=m:64,n:64 temporal=k:32' \
// RUN:   --smap-spatial-slice --smap-temporal-slice \
// RUN:   --convert-smap-to-scf=blocks-as-forall --smap-stage-block-operands | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a \
// RUN:   --smap-analyze '--smap-schedule=spatial=m:64,n:64 temporal=k:32 tensor-cores=false' \
// RUN:   --smap-spatial-slice --smap-temporal-slice \
// RUN:   --convert-smap-to-scf=blocks-as-forall --smap-stage-block-operands | FileCheck %s --check-prefix=SIMT

// A contraction of an f32 operand (here a function argument; in a
// partitioned graph, the intermediate the previous kernel wrote) with an
// f16 one, whose tile fits mma.sync: the tensor cores read the f32 operand
// rounded to f16, so its tile is staged rounded (the same numbers, half the
// bytes, readable by ldmatrix) into a padded f16 buffer, and the payload
// extends it. The f16 operand is staged by a plain copy.

// The staging follows the schedule's strategy: on CUDA cores (simt) the f32
// operand keeps its precision: it is staged by a plain copy into an f32
// buffer whose rows are padded by 16 bytes (4 elements), as the f16 one is
// (8 elements).
// SIMT-LABEL: func.func @mixed_gemm
// SIMT-NOT:     arith.truncf
// SIMT:         %[[ABUF:.*]] = tensor.empty() {smap.staged = 0 : i64} : tensor<64x36xf32>
// SIMT:         %[[ATILE:.*]] = tensor.extract_slice %[[ABUF]][0, 0] [64, 32] [1, 1] : tensor<64x36xf32> to tensor<64x32xf32>
// SIMT:         linalg.copy ins(%{{.*}} : tensor<64x32xf32>) outs(%[[ATILE]] : tensor<64x32xf32>)
// SIMT:         tensor.empty() {smap.staged = 1 : i64} : tensor<32x72xf16>
// SIMT-NOT:     arith.truncf
// SIMT:         strategy = simt

// CHECK-LABEL: func.func @mixed_gemm
// CHECK:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32>)
// CHECK:         %[[A:.*]] = tensor.extract_slice %{{.*}}[0, %[[K]]] [64, 32] [1, 1] : tensor<64x256xf32> to tensor<64x32xf32>
// CHECK:         %[[ABUF:.*]] = tensor.empty() {smap.staged = 0 : i64} : tensor<64x40xf16>
// CHECK:         %[[ATILE:.*]] = tensor.extract_slice %[[ABUF]][0, 0] [64, 32] [1, 1] : tensor<64x40xf16> to tensor<64x32xf16>
// CHECK:         %[[AH:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<64x32xf32>) outs(%[[ATILE]] : tensor<64x32xf16>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[X]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[H]] : f16
// CHECK:         %[[BBUF:.*]] = tensor.empty() {smap.staged = 1 : i64} : tensor<32x72xf16>
// CHECK:         %[[BH:.*]] = linalg.copy
// CHECK:         linalg.generic {{.*}} ins(%[[AH]], %[[BH]] : tensor<64x32xf16>, tensor<32x64xf16>) outs(%[[ACC]] : tensor<64x64xf32>)
// CHECK-NEXT:    ^bb0(%[[P:.*]]: f16, %[[Q:.*]]: f16, %[[O:.*]]: f32):
// CHECK-NEXT:      %[[PE:.*]] = arith.extf %[[P]] : f16 to f32
// CHECK-NEXT:      %[[QE:.*]] = arith.extf %[[Q]] : f16 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[PE]], %[[QE]] : f32

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @mixed_gemm(%a: tensor<128x256xf32>, %b: tensor<256x128xf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<128x256xf32>, tensor<256x128xf16>) outs(%f : tensor<128x128xf32>) {
  ^bb0(%x: f32, %y: f16, %acc: f32):
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %x, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}
