// RUN: spacefusion-opt %s --split-input-file --smap-fold-broadcasts | FileCheck %s
// RUN: spacefusion-opt %s --split-input-file --smap-fold-broadcasts=exclude=linalg.generic | FileCheck %s --check-prefix=KEEP

// A LayerNorm's mean as linalg.broadcast writes it (generalized): the
// subtraction reads the row-indexed mean, and the copy goes.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @centered
// CHECK-SAME: (%[[X:.*]]: tensor<64x768xf32>, %[[MEAN:.*]]: tensor<64xf32>)
// CHECK-NOT: linalg.generic
// CHECK: %[[D:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK-SAME: ins(%[[X]], %[[MEAN]] : tensor<64x768xf32>, tensor<64xf32>)
// CHECK: arith.subf
// CHECK-NOT: linalg.generic
// CHECK: return %[[D]]
// KEEP-LABEL: func.func @centered
// KEEP-COUNT-2: linalg.generic
func.func @centered(%x: tensor<64x768xf32>, %mean: tensor<64xf32>) -> tensor<64x768xf32> {
  %e = tensor.empty() : tensor<64x768xf32>
  %mb = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%mean : tensor<64xf32>) outs(%e : tensor<64x768xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x768xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mb : tensor<64x768xf32>, tensor<64x768xf32>) outs(%e : tensor<64x768xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x768xf32>
  return %d : tensor<64x768xf32>
}

// -----

// A bias broadcast into a transposed output: the reader's map composes the
// copy's maps ((c, r) -> (r, c), then the bias by its column); the copy
// stays for the function's other result.
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @transposed_bias
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK: %[[COPY:.*]] = linalg.generic
// CHECK-SAME: ins(%[[B]] : tensor<16xf32>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[COL]], #{{.*}}]
// CHECK-SAME: ins(%[[X]], %[[B]] : tensor<8x16xf32>, tensor<16xf32>)
// CHECK: return %[[SUM]], %[[COPY]]
func.func @transposed_bias(%x: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16x8xf32>) {
  %et = tensor.empty() : tensor<16x8xf32>
  %bt = linalg.generic {indexing_maps = [affine_map<(c, r) -> (c)>, affine_map<(c, r) -> (c, r)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%et : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x8xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c, r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bt : tensor<8x16xf32>, tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %v = arith.addf %a, %c : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %s, %bt : tensor<8x16xf32>, tensor<16x8xf32>
}

// -----

// A sum over the broadcast dim: only the copy gives the reduced loop its
// extent, so the reader keeps it.
// CHECK-LABEL: func.func @sum_of_broadcast
// CHECK: %[[COPY:.*]] = linalg.generic
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[COPY]] : tensor<8x32xf32>)
func.func @sum_of_broadcast(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %xb = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%xb : tensor<8x32xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A broadcast that also converts (extf) is no copy: left to the
// conversion fusion.
// CHECK-LABEL: func.func @converting_broadcast
// CHECK-COUNT-2: linalg.generic
func.func @converting_broadcast(%x: tensor<8x16xf32>, %g: tensor<16xf16>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %gb = linalg.generic {indexing_maps = [affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<16xf16>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    linalg.yield %w : f32
  } -> tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %gb : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %v = arith.mulf %a, %c : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// -----

// A weight shared by every batch (linalg.broadcast before a
// batch_matmul): the contraction reads it without the batch dim.
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-LABEL: func.func @shared_weight
// CHECK-SAME: (%[[A:.*]]: tensor<4x32x64xf32>, %[[W0:.*]]: tensor<64x16xf32>)
// CHECK-NOT: linalg.generic {{.*}}ins(%[[W0]]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[W]], #{{.*}}]
// CHECK-SAME: ins(%[[A]], %[[W0]] : tensor<4x32x64xf32>, tensor<64x16xf32>)
func.func @shared_weight(%a: tensor<4x32x64xf32>, %w: tensor<64x16xf32>) -> tensor<4x32x16xf32> {
  %eb = tensor.empty() : tensor<4x64x16xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(b, k, n) -> (k, n)>, affine_map<(b, k, n) -> (b, k, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<64x16xf32>) outs(%eb : tensor<4x64x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x64x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %wb : tensor<4x32x64xf32>, tensor<4x64x16xf32>) outs(%z : tensor<4x32x16xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x32x16xf32>
  return %c : tensor<4x32x16xf32>
}
