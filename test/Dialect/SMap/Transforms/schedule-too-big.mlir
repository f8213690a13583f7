// RUN: spacefusion-opt %s --smap-schedule=partition=false -verify-diagnostics
// RUN: spacefusion-opt %s --smap-schedule --remarks-filter=smap \
// RUN:   --remark-format=emitRemark 2>&1 | FileCheck %s

// One op that does not fit cannot be partitioned further: its reduction is
// not a recognized combiner, so the 4096-wide row stays whole in a block.
// With partition=false that is an error. By default, on a GPU target, the
// graph is dissolved with a remark: its op runs as a loop kernel, unfused
// (GPU fuzz seeds 765 and 893, an elementwise op over a collapsed shape,
// used to fail this way).
// CHECK: remark: [Missed] unfused | Category:smap:schedule | Function=too_big | Remark="no schedule fits target 'tiny': the smallest candidate (spatial [m=1] temporal []) needs 16392 bytes of shared memory per block, the target has 1024; not fused: its ops run as loop kernels"
// CHECK-LABEL: func.func @too_big(
// CHECK-SAME:    %[[A:.*]]: tensor<64x4096xf32>, %[[C:.*]]: tensor<64xf32>)
// CHECK-NOT:     smap.graph
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<64x4096xf32>) outs(%[[C]] : tensor<64xf32>)
// CHECK:         return %[[R]]
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @too_big(%a: tensor<64x4096xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @below {{no schedule fits target 'tiny': the smallest candidate (spatial [m=1] temporal []) needs 16392 bytes of shared memory per block, the target has 1024}}
  %0 = smap.graph(%x = %a : tensor<64x4096xf32>, %z = %c : tensor<64xf32>) -> (tensor<64xf32>) attributes {target = #smap.target<name = "tiny", smem_per_block = 1024, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 4, max_threads = 256, bandwidth_gbps = 100, f16_gflops = 1000, f32_gflops = 1000, arch = 90>} {
    %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<64x4096xf32>) outs(%z : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.subf %acc, %in : f32
      linalg.yield %v : f32
    } -> tensor<64xf32>
    smap.yield %r : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}
