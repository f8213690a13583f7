// A masked softmax over a vocabulary as frontends write it: an i1 mask
// (torch's bool, a byte per element) selects the f16 scores, the softmax
// runs in f32. The row is streamed in tiles and cached in shared memory.
// - The mask is read one element at a time: a vector of i1 is packed bits,
//   so a vector load of the byte-per-element buffer read wrong lanes.
// - Only the f16 scores are cached (100656 bytes with the partials): the
//   i1 mask is not whole bytes in a vector; its copy used to be sized by
//   the plan as a byte per element but placed as none, over the scores'.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa \
// RUN:   --mlir-print-ir-after=convert-smap-to-gpu -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @masked_softmax(
// CHECK-SAME:    %[[MASK:[a-z0-9]+]]: memref<64x50257xi1>
// CHECK-SAME:    vector = 1 : i64
// CHECK-SAME:    smem = 100656 : i64
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[MASK]]
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %c100656_i32
// CHECK:           %[[SHARED:.*]] = gpu.dynamic_shared_memory
// CHECK:           memref.view %[[SHARED]][%c0][] : {{.*}} to memref<32xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.view %[[SHARED]][%c128][] : {{.*}} to memref<50257xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:       memref.view
// CHECK-NOT:       vector<{{[2-9]|1[0-9]}}xi1>
// CHECK:           vector.load %[[FLAT]][%{{.*}}] {{.*}} : memref<3216448xi1>, vector<1xi1>
// CHECK-NOT:       vector<{{[2-9]|1[0-9]}}xi1>
// CHECK:           gpu.terminator
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @masked_softmax(%mask: tensor<64x50257xi1>, %x: tensor<64x50257xf16>) -> tensor<64x50257xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x50257xf32>
  %xm = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%mask, %x : tensor<64x50257xi1>, tensor<64x50257xf16>) outs(%e : tensor<64x50257xf32>) {
  ^bb0(%m: i1, %inh: f16, %out: f32):
    %in = arith.extf %inh : f16 to f32
    %s = arith.select %m, %in, %ninf : f32
    linalg.yield %s : f32
  } -> tensor<64x50257xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #r], iterator_types = ["parallel", "reduction"]} ins(%xm : tensor<64x50257xf32>) outs(%fm : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #r, #id2], iterator_types = ["parallel", "parallel"]} ins(%xm, %mx : tensor<64x50257xf32>, tensor<64xf32>) outs(%e : tensor<64x50257xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<64x50257xf32>
  %fs = linalg.fill ins(%z : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #r], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<64x50257xf32>) outs(%fs : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a2 = arith.addf %in, %out : f32
    linalg.yield %a2 : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#id2, #r, #id2], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<64x50257xf32>, tensor<64xf32>) outs(%e : tensor<64x50257xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %d = arith.divf %in, %sm : f32
    linalg.yield %d : f32
  } -> tensor<64x50257xf32>
  return %o : tensor<64x50257xf32>
}
