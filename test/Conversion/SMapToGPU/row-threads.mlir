// RUN: spacefusion-opt %s --smap-form-graphs '--smap-schedule=row-threads=128' --convert-smap-to-gpu \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s
// RUN: not spacefusion-opt %s --smap-form-graphs '--smap-schedule=row-threads=96' --convert-smap-to-gpu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// row-threads=128 makes a block of 128 threads per row of 768 f16 (96
// 16-byte vectors): one chunk per thread, the last 32 threads masked, and
// the sums combined across the 4 warps through shared memory.

// CHECK: remark: [Passed] rows | Category:smap:schedule | Function={{[a-z_0-9]+}} | Remark="runs as a row kernel on sm_90a: 64 rows of 768 ('n'): 128 threads per row, rows_per_block 1, 8-element vectors, 1 loads per thread (the last one masked); 64 blocks x 128 threads, 128 B shared memory"
// CHECK: remark: [Passed] row-kernel | Category:smap:convert-smap-to-gpu | Function=row_sum_scale | Remark="lowered to one kernel: strategy=rows blocks=64 threads=128 smem=128 rows=64 rows_per_block=1 vector=8 chunks=1 ragged=1"
// CHECK-LABEL: func.func @row_sum_scale
// CHECK: gpu.launch
// CHECK-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c128
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[SMEM]]
// CHECK: gpu.barrier

// A thread count that is not a power of two is refused with the reason.
// BAD: error: smap-schedule: the row kernel cannot be built: row-threads=96 is not a power of two from 32 to 512 that leaves at most 64 elements of a row of 768 to each thread

func.func @row_sum_scale(%x: tensor<64x768xf16>) -> tensor<64x768xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x768xf16>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %w = arith.extf %in : f16 to f32
    %y = arith.addf %w, %acc : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x768xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x768xf16>, tensor<64xf32>) outs(%e2 : tensor<64x768xf16>) {
  ^bb0(%in: f16, %s: f32, %o: f16):
    %w = arith.extf %in : f16 to f32
    %y = arith.divf %w, %s : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x768xf16>
  return %out : tensor<64x768xf16>
}

// rows-per-block packs warps that each hold a row; with a block per row it
// has nothing to apply to, and saying both is an error, not a silent choice.
// RUN: not spacefusion-opt %s --smap-form-graphs '--smap-schedule=row-threads=128 rows-per-block=2' --convert-smap-to-gpu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOTH
// BOTH: error: smap-schedule: the row kernel cannot be built: rows-per-block applies to a warp per row; row-threads=128 makes a block per row
