// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics \
// RUN:   | FileCheck %s

// A row softmax: fills, reductions and elementwise ops become one graph; the
// constants and empties it uses are cloned into it.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK-NEXT: %[[G:.*]] = smap.graph(%[[IN:.*]] = %[[X]] : tensor<8x16xf32>) -> (tensor<8x16xf32>) {
// CHECK-DAG:    arith.constant 0xFF800000 : f32
// CHECK-DAG:    arith.constant 0.000000e+00 : f32
// CHECK:        %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[IN]] : tensor<8x16xf32>)
// CHECK:        %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[IN]], %[[MAX]] : tensor<8x16xf32>, tensor<8xf32>)
// CHECK:        %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<8x16xf32>)
// CHECK:        %[[DIV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<8x16xf32>, tensor<8xf32>)
// CHECK:        smap.yield %[[DIV]] : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[G]]
func.func @softmax(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @below {{formed smap.graph of 6 ops (fill, generic, generic, fill, generic, generic) with 1 inputs and 1 outputs}}
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%fmax : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x16xf32>, tensor<8xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<8x16xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x16xf32>) outs(%fsum : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %div = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x16xf32>, tensor<8xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  return %div : tensor<8x16xf32>
}

// -----

// A member's result used outside the group is a graph output; a scalar
// function argument is a graph input.

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @two_outputs
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[S:.*]]: f32)
// CHECK: %[[G:.*]]:2 = smap.graph(%[[IN:.*]] = %[[X]] : tensor<8xf32>, %[[SC:.*]] = %[[S]] : f32) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK: return %[[G]]#0, %[[G]]#1
func.func @two_outputs(%x: tensor<8xf32>, %s: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{formed smap.graph of 2 ops (generic, generic) with 2 inputs and 2 outputs}}
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// %c reads %a directly and through an op outside the SMG's scope: grouping
// %a with %c would make the graph both feed and consume that op.

#id = affine_map<(d0) -> (d0)>
func.func private @opaque(tensor<8xf32>) -> tensor<8xf32>
// CHECK-LABEL: func.func @no_cycle
// CHECK: %[[A:.*]] = smap.graph
// CHECK: %[[B:.*]] = call @opaque(%[[A]])
// CHECK: %[[C:.*]] = smap.graph(%{{.*}} = %[[A]] : tensor<8xf32>, %{{.*}} = %[[B]] : tensor<8xf32>)
// CHECK: return %[[C]]
func.func @no_cycle(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{formed smap.graph of 1 ops (generic) with 1 inputs and 1 outputs}}
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %b = func.call @opaque(%a) : (tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @below {{'linalg.generic' starts a new group: fusing would create a cycle through 'func.call'}}
  // expected-remark @below {{formed smap.graph of 1 ops (generic) with 2 inputs and 1 outputs}}
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// An op with side effects between two members would have to move above the
// graph: the group is not formed across it.

#id = affine_map<(d0) -> (d0)>
func.func private @effect() -> tensor<8xf32>
// CHECK-LABEL: func.func @no_reordering_of_effects
// CHECK: smap.graph
// CHECK: call @effect
// CHECK: smap.graph
func.func @no_reordering_of_effects(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{formed smap.graph of 1 ops}}
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %b = func.call @effect() : () -> tensor<8xf32>
  // expected-remark @below {{'linalg.generic' starts a new group: 'func.call' between the members has side effects and cannot move}}
  // expected-remark @below {{formed smap.graph of 1 ops}}
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// Ops outside the SMG's scope stay where they are, each with its reason.

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_then_relu
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: smap.graph
func.func @conv_then_relu(%x: tensor<1x10x10x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  // expected-remark @below {{'linalg.conv_2d_nhwc_hwcf' left outside any smap.graph: windowed indexing map (convolution or pooling), not a globally ranged mapping}}
  %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>)
      outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  // expected-remark @below {{formed smap.graph of 1 ops (generic)}}
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x8xf32>) outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gather
// CHECK-NOT: smap.graph
func.func @gather(%ids: tensor<4xi64>, %table: tensor<100x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{'linalg.generic' left outside any smap.graph: gathers with tensor.extract (data-dependent mapping)}}
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, #map], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<100x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-NOT: smap.graph
func.func @dynamic_rows(%x: tensor<?x16xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  // expected-remark @below {{'linalg.generic' left outside any smap.graph: dynamic shape}}
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x16xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %sum : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @buffers
// CHECK-NOT: smap.graph
func.func @buffers(%a: memref<8xf32>, %b: memref<8xf32>) {
  // expected-remark @below {{'linalg.copy' left outside any smap.graph: operates on buffers (side effects)}}
  linalg.copy ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  return
}

