// RUN: spacefusion-opt %s --smap-form-graphs="max-group-size=1 exclude=linalg.matmul" \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs | FileCheck %s --check-prefix=DEFAULT

// Options: max-group-size splits the chain, exclude keeps ops out. Without
// them, the three ops form one graph.

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @options
// CHECK: linalg.matmul
// CHECK: %[[A:.*]] = smap.graph
// CHECK: smap.graph(%{{.*}} = %[[A]]
func.func @options(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @below {{'linalg.matmul' not grouped: excluded by the exclude option}}
  %mm = linalg.matmul ins(%x, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-remark @below {{formed smap.graph of 1 ops}}
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  // expected-remark @below {{'linalg.generic' starts a new group: the group would exceed max-group-size=1}}
  // expected-remark @below {{formed smap.graph of 1 ops}}
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = math.exp %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// DEFAULT-LABEL: func.func @options
// DEFAULT-NEXT: smap.graph
// DEFAULT-NOT: smap.graph
