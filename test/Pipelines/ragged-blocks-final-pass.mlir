// A softmax over 1000 rows of 4096 f32 scheduled as simt blocks of 3 rows
// (1000 is no multiple: the last block is moved back over its neighbour's
// rows) with a temporal slice of 128 columns: the outputs are written in a
// final pass, a loop inserting one slice of exp(x - max) / sum per
// iteration into a fresh tile. Each element is written once, so the tile
// goes straight into the output, as the cost model predicted; it used to be
// copied out of a 48 KB block buffer the schedule did not count, and
// smap-distribute-blocks failed (52304 bytes built, 3200 predicted).
//
// RUN: spacefusion-opt %s "--spacefusion-pipeline=target=sm_90a lower-to-gpu=false row-kernels=false spatial=m:3 temporal=n:128" \
// RUN:   | spacefusion-opt --convert-smap-to-scf=blocks-as-forall | FileCheck %s
// RUN: spacefusion-opt %s "--spacefusion-lower-gpu=format=isa row-kernels=false spatial=m:3 temporal=n:128" \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS

// CHECK-LABEL: func.func @softmax
// CHECK:         scf.forall (%{{.*}}) in (334) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           arith.minui %{{.*}}, %c997 : index
// CHECK:           %[[EMPTY:.*]] = tensor.empty() : tensor<3x4096xf32>
// CHECK:           %[[PASS:.*]] = scf.for {{.*}} iter_args(%[[TILE:.*]] = %[[EMPTY]]) -> (tensor<3x4096xf32>)
// CHECK:             tensor.insert_slice %{{.*}} into %[[TILE]]
// CHECK-NOT:       smap.overlapped_tile
// CHECK:           tensor.parallel_insert_slice %[[PASS]] into %[[OUT]]

// BLOCKS-LABEL: func.func @softmax(
// BLOCKS-SAME:    predicted = {blocks = 334 : i64, regs = 33 : i64, smem = 3232 : i64, stages = 0 : i64, strategy = "simt", threads = 256 : i64}, smem = 3152 : i64
func.func @softmax(%x: tensor<1000x4096xf32>) -> tensor<1000x4096xf32> {
  %c1 = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<1000xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1000xf32>) -> tensor<1000xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1000x4096xf32>) outs(%f2 : tensor<1000xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1000xf32>
  %e5 = tensor.empty() : tensor<1000x4096xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g4 : tensor<1000x4096xf32>, tensor<1000xf32>) outs(%e5 : tensor<1000x4096xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1000x4096xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<1000xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<1000xf32>) -> tensor<1000xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g6 : tensor<1000x4096xf32>) outs(%f8 : tensor<1000xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1000xf32>
  %e11 = tensor.empty() : tensor<1000x4096xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g6, %g10 : tensor<1000x4096xf32>, tensor<1000xf32>) outs(%e11 : tensor<1000x4096xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1000x4096xf32>
  return %g12 : tensor<1000x4096xf32>
}

