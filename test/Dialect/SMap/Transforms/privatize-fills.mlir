// RUN: spacefusion-opt %s --smap-privatize-fills | FileCheck %s

// What `cse` leaves after the temporal slicer: the fill that starts the
// loop's state is also the init of each slice's partial. Each writer gets a
// fill of its own (the one inside the loop inside it); the shared fill is
// erased.
// CHECK-LABEL: func.func @state_and_partial
// CHECK-SAME:    (%[[X:.*]]: tensor<4x64xf32>)
// CHECK:         %[[INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NOT:     linalg.fill
// CHECK:         %[[F0:.*]] = linalg.fill ins(%[[INF]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:    scf.for {{.*}} iter_args(%[[S:.*]] = %[[F0]])
// CHECK:           %[[E1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:      %[[F1:.*]] = linalg.fill ins(%[[INF]] : f32) outs(%[[E1]] : tensor<4xf32>)
// CHECK-NEXT:      %[[P:.*]] = linalg.generic
// CHECK-SAME:        outs(%[[F1]] : tensor<4xf32>)
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%[[S]], %[[P]] : tensor<4xf32>, tensor<4xf32>)
func.func @state_and_partial(%x: tensor<4x64xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %inf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%inf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%s = %f) -> (tensor<4xf32>) {
    %slice = tensor.extract_slice %x[0, %i] [4, 16] [1, 1] : tensor<4x64xf32> to tensor<4x16xf32>
    %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%slice : tensor<4x16xf32>) outs(%f : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %out : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%s, %p : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %m = arith.maximumf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// A fill that only one op writes, and that others read, stays as it is.
// CHECK-LABEL: func.func @one_writer
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT:     linalg.fill
func.func @one_writer(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x, %f : tensor<4xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %z: f32, %out: f32):
    %s = arith.addf %in, %z : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %a, %f : tensor<4xf32>, tensor<4xf32>
}

// Two GEMMs in one block that start from one zero fill (an LSTM cell's
// input and hidden products, or two outputs of a block): the second gets a
// fill of its own. Left shared, empty-tensor elimination put the fill in
// the first one's output, bufferization computed the second there and
// copied it out after the first's copy had overwritten it (GPU fuzz seed
// 1934, test/Pipelines/shared-fill-two-outputs.mlir).
// CHECK-LABEL: func.func @writers_in_one_block
// CHECK:         %[[Z:.*]] = linalg.fill
// CHECK-NEXT:    %[[X:.*]] = linalg.matmul {{.*}} outs(%[[Z]] : tensor<4x4xf32>)
// CHECK-NEXT:    %[[E2:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT:    %[[Z2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<4x4xf32>)
// CHECK-NEXT:    %[[Y:.*]] = linalg.matmul {{.*}} outs(%[[Z2]] : tensor<4x4xf32>)
// CHECK-NEXT:    return %[[X]], %[[Y]]
func.func @writers_in_one_block(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %x, %y : tensor<4x4xf32>, tensor<4x4xf32>
}
