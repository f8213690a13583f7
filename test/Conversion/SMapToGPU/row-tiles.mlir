// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs --smap-schedule --convert-smap-to-gpu | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs --smap-schedule \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: rm -rf %t && spacefusion-opt %S/Inputs/vocab-softmax.mlir -o /dev/null \
// RUN:   "--spacefusion-lower-gpu=format=isa dump-kernels-to=%t"
// RUN: FileCheck %s --check-prefix=VOCAB < %t/vocab_softmax_rows_f16.gpu.mlir
// RUN: FileCheck %s --check-prefix=VOCAB-RECORD < %t/vocab_softmax_rows_f16.json
// RUN: rm -rf %t.nocache && spacefusion-opt %S/Inputs/vocab-softmax.mlir -o /dev/null \
// RUN:   "--spacefusion-lower-gpu=format=isa row-cache=false dump-kernels-to=%t.nocache"
// RUN: FileCheck %s --check-prefix=NOCACHE < %t.nocache/vocab_softmax_rows_f16.json

// A row too long for the registers of a 512-thread block is streamed in
// tiles: one scf.for over the row's tiles per reduction, carrying the
// thread's partial, then the block's shuffles and shared slots once; one
// more loop computes and stores the outputs. Each loop reloads the inputs
// and recomputes the elements it needs; only row-uniform values (the max,
// the sum) cross loops.

// Softmax over 65536 f32 columns: 2 tiles of 512 threads x 16 vectors of 4,
// at the whole register file (one block per SM).
// REMARK: remark: [Passed] rows | Category:smap:schedule | Function=softmax | Remark="runs as a row kernel on sm_90a: 4 rows of 65536 ('n'): 512 threads per row, rows_per_block 1, 4-element vectors, 16 loads per thread and tile; 4 blocks x 512 threads, 128 B shared memory, the row streamed in 2 tiles of 32768 (too long for registers): one pass per reduction and one for the outputs, each element recomputed from the inputs in every pass, 128 registers per thread
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<4x65536xf32>
// CHECK-SAME: parts = {chunks = 16 : i64, regs_entry = 128 : i64, rows = 4 : i64, rows_per_block = 1 : i64, tiles = 2 : i64, vector = 4 : i64}
// CHECK:      %[[XF:.+]] = memref.collapse_shape %[[X]]
// CHECK:      gpu.launch
// The max: a loop over the tiles, its partial carried.
// CHECK:      %[[MAXP:.+]] = scf.for %[[T1:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC1:.+]] = %{{.+}}) -> (f32) {
// CHECK:        arith.muli %[[T1]], %c32768
// CHECK-COUNT-16: vector.load %[[XF]]
// CHECK:        %[[M:.+]] = arith.maximumf %[[ACC1]], %{{.+}} : f32
// CHECK-NEXT:   scf.yield %[[M]] : f32
// CHECK:      gpu.shuffle xor %[[MAXP]]
// CHECK:      gpu.barrier
// The sum of exp(x - max): the input reloaded, the max from outside.
// CHECK:      %[[SUMP:.+]] = scf.for %{{.+}} iter_args(%[[ACC2:.+]] = %{{.+}}) -> (f32) {
// CHECK-COUNT-16: vector.load %[[XF]]
// CHECK:        math.exp
// CHECK:        %[[S:.+]] = arith.addf %[[ACC2]], %{{.+}} : f32
// CHECK-NEXT:   scf.yield %[[S]] : f32
// CHECK:      gpu.shuffle xor %[[SUMP]]
// The outputs, tile by tile.
// CHECK:      scf.for
// CHECK-COUNT-16: vector.load %[[XF]]
// CHECK:        math.exp
// CHECK-COUNT-16: vector.store
// CHECK:      gpu.terminator
func.func @softmax(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  %c1 = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<4xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x65536xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %e5 = tensor.empty() : tensor<4x65536xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g4 : tensor<4x65536xf32>, tensor<4xf32>) outs(%e5 : tensor<4x65536xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x65536xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<4xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<4xf32>) -> tensor<4xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g6 : tensor<4x65536xf32>) outs(%f8 : tensor<4xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %e11 = tensor.empty() : tensor<4x65536xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g6, %g10 : tensor<4x65536xf32>, tensor<4xf32>) outs(%e11 : tensor<4x65536xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<4x65536xf32>
  return %g12 : tensor<4x65536xf32>
}

// In the vocabulary's kernel every chunk of every tile tests whether it is
// in the row (the last tile is partial): its index clamped for the load,
// its contribution the identity, its store skipped.
// The row (100514 bytes of f16) fits the shared memory: the first pass
// (the max) copies what it loads into a copy of the row, the sum and the
// outputs read the copy, not global memory. The partials and the copy are
// one dynamic shared memory of 100656 bytes.
// VOCAB-LABEL: gpu.func @vocab_softmax_rows_f16(
// VOCAB-SAME: %[[IN:[a-z0-9]+]]: memref<100514xf16>, %[[OUT:[a-z0-9]+]]: memref<100514xf16>)
// VOCAB:      %[[SHARED:.+]] = gpu.dynamic_shared_memory
// VOCAB-NEXT: %[[PARTIALS:.+]] = memref.view %[[SHARED]][%c0][] : {{.*}} to memref<32xf32, #gpu.address_space<workgroup>>
// VOCAB-NEXT: %[[ROW:.+]] = memref.view %[[SHARED]][%c128][] : {{.*}} to memref<50257xf16, #gpu.address_space<workgroup>>
// VOCAB:      scf.for %{{.+}} = %c0 to %c2 step %c1 iter_args(%{{.+}}) -> (f16) {
// VOCAB:        %[[VALID:.+]] = arith.cmpi ult, %[[POS:.+]], %c50257 : index
// VOCAB-NEXT:   %[[AT:.+]] = arith.minui %[[POS]], %c50256 : index
// VOCAB:        %[[X:.+]] = vector.load %[[IN]]
// VOCAB-NEXT:   vector.store %[[X]], %[[ROW]][%[[AT]]]
// VOCAB:        arith.select %[[VALID]]
// VOCAB:      scf.for %{{.+}} = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%{{.+}}) -> (f32) {
// VOCAB-NOT:    %[[IN]]
// VOCAB:        vector.load %[[ROW]]
// VOCAB-NOT:    %[[IN]]
// VOCAB:      memref.store %{{.+}}, %[[PARTIALS]]
// VOCAB:      scf.for %{{.+}} = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} {
// VOCAB:        %[[VALID2:.+]] = arith.cmpi ult
// VOCAB-NOT:    %[[IN]]
// VOCAB:        vector.load %[[ROW]]
// VOCAB-NOT:    %[[IN]]
// VOCAB:        scf.if %[[VALID2]] {
// VOCAB-NEXT:     vector.store %{{.+}}, %[[OUT]]
// VOCAB-RECORD: "chunks": 64,
// VOCAB-RECORD: "ragged": 1,
// VOCAB-RECORD: "regs_entry": 128,
// VOCAB-RECORD: "tiles": 2,
// VOCAB-RECORD: "vector": 1
// VOCAB-RECORD: "smem": 100656,
// NOCACHE: "regs_entry": 128,
// NOCACHE: "tiles": 2,
// NOCACHE: "smem": 128,
