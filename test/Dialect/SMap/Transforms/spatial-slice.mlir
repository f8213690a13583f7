// RUN: spacefusion-opt %s -split-input-file --smap-spatial-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics | FileCheck %s

// Rows sliced by 16: each block extracts its tile of the input and runs the
// nested SMG block, which keeps the temporal part of the schedule;
// linalg.index on the sliced loop is shifted by the block's offset.

// CHECK-LABEL: func.func @rows
// CHECK: %[[R:.*]] = smap.spatial_slice [#smap.dim<"m", 64, parallel>] tiles [16] results {{\[}}["m", "n"]] : tensor<64x32xf32> {
// CHECK-NEXT: ^bb0(%[[OFF:.*]]: index):
// CHECK-NEXT: %[[TILE:.*]] = tensor.extract_slice %{{.*}}[%[[OFF]], 0] [16, 32] [1, 1] : tensor<64x32xf32> to tensor<16x32xf32>
// CHECK-NEXT: %[[BLOCK:.*]] = smap.graph(%[[IN:.*]] = %[[TILE]] : tensor<16x32xf32>, %[[O:.*]] = %[[OFF]] : index) -> (tensor<16x32xf32>)
// CHECK-SAME: dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"n", 32, temporal>]
// CHECK-SAME: schedule = #smap.schedule<spatial = [], temporal = [n = 8], grid = [], threads = 1, smem = 0, regs = 0>
// CHECK: linalg.generic {{.*}} ins(%[[IN]] : tensor<16x32xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT: arith.addi %[[I]], %[[O]] : index
// CHECK: smap.yield %[[BLOCK]] : tensor<16x32xf32>
// CHECK: smap.yield %[[R]] : tensor<64x32xf32>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @rows(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-remark @below {{sliced into 4 blocks of m=16}}
  %0 = smap.graph(%ax = %x : tensor<64x32xf32>) -> (tensor<64x32xf32>) attributes {
      dims = [#smap.dim<"m", 64, parallel>, #smap.dim<"n", 32, temporal>],
      schedule = #smap.schedule<spatial = [m = 16], temporal = [n = 8], grid = [4], threads = 1, smem = 0, regs = 0>} {
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<64x32xf32>) outs(%f : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<64xf32>
    // Adds the row index: linalg.index must count from the block's origin.
    %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %sum : tensor<64x32xf32>, tensor<64xf32>) outs(%e2 : tensor<64x32xf32>) {
    ^bb0(%in: f32, %s: f32, %out: f32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %d = arith.divf %in, %s : f32
      %r = arith.addf %d, %fi : f32
      linalg.yield %r : f32
    } -> tensor<64x32xf32>
    smap.yield %y : tensor<64x32xf32>
  }
  return %0 : tensor<64x32xf32>
}

// -----

// A graph without a schedule is left alone, with a remark.
// CHECK-LABEL: func.func @unscheduled
// CHECK-NOT: smap.spatial_slice
func.func @unscheduled(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @below {{graph has no schedule; run smap-schedule first}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A tile that does not divide its dim: three blocks of 24 (the lowering puts
// the last one at 40, overlapping the second); every tile is static.
// CHECK-LABEL: func.func @ragged
// CHECK: smap.spatial_slice [#smap.dim<"m", 64, parallel>] tiles [24] results {{\[}}["m"]] : tensor<64xf32> {
// CHECK-NEXT: ^bb0(%[[OFF:.*]]: index):
// CHECK-NEXT: tensor.extract_slice %{{.*}}[%[[OFF]]] [24] [1] : tensor<64xf32> to tensor<24xf32>
// CHECK: smap.yield %{{.*}} : tensor<24xf32>
func.func @ragged(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-remark @below {{sliced into 3 blocks of m=24}}
  %0 = smap.graph(%a = %x : tensor<64xf32>) -> (tensor<64xf32>) attributes {dims = [#smap.dim<"m", 64, parallel>], schedule = #smap.schedule<spatial = [m = 24], temporal = [], grid = [3], threads = 1, smem = 0, regs = 0>} {
    %e = tensor.empty() : tensor<64xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
        ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<64xf32>
    smap.yield %r : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}
