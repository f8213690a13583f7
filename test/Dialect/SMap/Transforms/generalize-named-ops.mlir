// RUN: spacefusion-opt %s -split-input-file --smap-generalize-named-ops | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --smap-generalize-named-ops="exclude=linalg.matmul,linalg.reduce" | FileCheck %s --check-prefix=EXCLUDE
// RUN: spacefusion-opt %s -split-input-file --smap-generalize-named-ops="exclude=linalg.generic" | FileCheck %s --check-prefix=NONE

// A row sum and a linear layer as named ops (the conversion a linalg.map,
// the weight read transposed through the matmul's indexing_maps, the bias a
// linalg.broadcast and a linalg.elementwise add): each becomes the generic
// it stands for, with the same maps and body; the fills stay linalg.fill.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @named
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>, %[[W:.*]]: tensor<32x16xf16>, %[[B:.*]]: tensor<32xf32>)
// CHECK: %[[X32:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<8x16xf16>)
// CHECK: arith.extf
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[BT]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<8x16xf16>, tensor<32x16xf16>) outs(%[[Z]] : tensor<8x32xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[BB:.*]] = linalg.generic {indexing_maps = [#[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[B]] : tensor<32xf32>)
// CHECK: %[[YB:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[Y]], %[[BB]] : tensor<8x32xf32>, tensor<8x32xf32>)
// CHECK: arith.addf
// CHECK: %[[ZR:.*]] = linalg.fill
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X32]] : tensor<8x16xf32>) outs(%[[ZR]] : tensor<8xf32>)
// CHECK: arith.addf
// CHECK: return %[[YB]], %[[S]]

// The ops the user excludes from fusion stay as written (smap-form-graphs
// finds them by name); the others are generalized.
// EXCLUDE-LABEL: func.func @named
// EXCLUDE-NOT: linalg.map
// EXCLUDE: linalg.matmul
// EXCLUDE-NOT: linalg.broadcast
// EXCLUDE-NOT: linalg.elementwise
// EXCLUDE: linalg.reduce

// Excluding linalg.generic leaves every named op as written: generalized,
// they would fall under an exclusion written for other ops.
// NONE-LABEL: func.func @named
// NONE-NOT: linalg.generic
// NONE: linalg.map
// NONE: linalg.matmul
// NONE: linalg.broadcast
// NONE: linalg.elementwise
// NONE: linalg.reduce
func.func @named(%x: tensor<8x16xf16>, %w: tensor<32x16xf16>, %b: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %x32 = linalg.map { arith.extf } ins(%x : tensor<8x16xf16>) outs(%e : tensor<8x16xf32>)
  %eo = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<8x16xf16>, tensor<32x16xf16>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%eo : tensor<8x32xf32>) dimensions = [0]
  %yb = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%y, %bb : tensor<8x32xf32>, tensor<8x32xf32>) outs(%eo : tensor<8x32xf32>) -> tensor<8x32xf32>
  %er = tensor.empty() : tensor<8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce { arith.addf } ins(%x32 : tensor<8x16xf32>) outs(%zr : tensor<8xf32>) dimensions = [1]
  return %yb, %s : tensor<8x32xf32>, tensor<8xf32>
}

// -----

// A transpose becomes a copy generic whose input map is the permutation
// (the form smap-fold-contraction-relayouts folds into a contraction).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @transpose
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<2x8x4xf32>) outs(%{{.*}} : tensor<2x4x8xf32>)
// CHECK-NEXT: ^bb0(%[[IN_ARG:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN_ARG]] : f32
func.func @transpose(%k: tensor<2x8x4xf32>) -> tensor<2x4x8xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<2x8x4xf32>) outs(%e : tensor<2x4x8xf32>) permutation = [0, 2, 1]
  return %kt : tensor<2x4x8xf32>
}

// -----

// Left as written: linalg.copy and linalg.fill (the lowerings' own data
// movement and inits, matched by name), linalg.softmax (not a structured
// op: smap-decompose-aggregates expands it after grouping), a convolution
// (a windowed map no graph takes) and an op on buffers.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: linalg.generic
// CHECK: linalg.fill
// CHECK: linalg.copy
// CHECK: linalg.softmax
// CHECK: linalg.conv_2d
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x4xf32>, memref<4x4xf32>)
func.func @kept(%x: tensor<4x8xf32>, %img: tensor<6x6xf32>, %filt: tensor<3x3xf32>,
                %a: memref<4x4xf32>, %c: memref<4x4xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %cp = linalg.copy ins(%x : tensor<4x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sm = linalg.softmax dimension(1) ins(%cp : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %ec = tensor.empty() : tensor<4x4xf32>
  %conv = linalg.conv_2d ins(%img, %filt : tensor<6x6xf32>, tensor<3x3xf32>) outs(%ec : tensor<4x4xf32>) -> tensor<4x4xf32>
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return %sm, %conv : tensor<4x8xf32>, tensor<4x4xf32>
}
