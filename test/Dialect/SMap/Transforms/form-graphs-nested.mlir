// RUN: spacefusion-opt %s --smap-form-graphs | FileCheck %s
// Running the pass again forms no graph inside a graph.
// RUN: spacefusion-opt %s --smap-form-graphs --smap-form-graphs | FileCheck %s

#id = affine_map<(d0) -> (d0)>
// Ops in a loop body are grouped inside the loop.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK-NEXT: %[[G:.*]] = smap.graph
// CHECK-NOT: smap.graph
// CHECK: scf.yield %[[G]]
func.func @in_loop(%x: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%acc : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.negf %in : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
