// A contraction whose [n, m] result the graph transposes to [m, n], returns
// and uses again (GPU fuzz seed 41139, bf16, after cse). The cost model
// offered row_fragments (rows n) and the lowering refused the schedule
// ("'linalg.generic' does not index its row buffers by one row dim"), for
// two reasons:
// - an output a later op reads was written to global memory and read back,
//   so the op reading it had no row tile at all; such an output now gets a
//   block buffer like a running one (privatizeRunningOutputs), kept in
//   registers and copied out at the end;
// - that buffer, [m, n], has the block's columns where the lowering puts
//   its rows (its first non-unit dim); the model now asks every tile kept
//   in the block to have the rows first, and this block takes mma_sync.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// The same graph without the transpose keeps its row fragments, the
// returned intermediate in registers (two register tiles):
// RUN: spacefusion-opt %S/Inputs/row-fragments-untransposed-tile.mlir --spacefusion-lower-gpu \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROWS

// CHECK: chosen | {{.*}}Remark="scheduled for sm_90a: spatial [m=16, n=16] temporal [], strategy mma_sync
// CHECK-NOT: error
// CHECK: lowered to one kernel: strategy=mma_sync blocks=56

// ROWS: chosen | {{.*}}Remark="scheduled for sm_90a: spatial [m=16, n=16] temporal [], strategy row_fragments
// ROWS-NOT: error
// ROWS: lowered to one kernel: strategy=row_fragments blocks=56 threads=128
// ROWS-SAME: register_tiles=2
#map0 = affine_map<(d0, d1, d2) -> (d2, d0)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @fuzz(%arg2: tensor<100x16xbf16>, %arg3: tensor<100x128xbf16>, %min2: tensor<128x16xbf16>) -> (tensor<100x128xbf16>, tensor<100x128xbf16>) {
  %cst4 = arith.constant 0.000000e+00 : f32
  %cst45 = arith.constant 1.250000e-01 : f32
  %init26 = tensor.empty() : tensor<128x100xf32>
  %fill27 = linalg.fill ins(%cst4 : f32) outs(%init26 : tensor<128x100xf32>) -> tensor<128x100xf32>
  %mm33 = linalg.generic {indexing_maps = [#map4, #map5, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%min2, %arg2 : tensor<128x16xbf16>, tensor<100x16xbf16>) outs(%fill27 : tensor<128x100xf32>) {
  ^bb0(%in27_0: bf16, %in27_1: bf16, %out27_0: f32):
    %v29 = arith.extf %in27_0 : bf16 to f32
    %v30 = arith.extf %in27_1 : bf16 to f32
    %v31 = arith.mulf %v29, %v30 : f32
    %v32 = arith.addf %out27_0, %v31 : f32
    linalg.yield %v32 : f32
  } -> tensor<128x100xf32>
  %init34 = tensor.empty() : tensor<128x100xbf16>
  %trunc37 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%mm33 : tensor<128x100xf32>) outs(%init34 : tensor<128x100xbf16>) {
  ^bb0(%in34_0: f32, %out34_0: bf16):
    %v36 = arith.truncf %in34_0 : f32 to bf16
    linalg.yield %v36 : bf16
  } -> tensor<128x100xbf16>
  %init38 = tensor.empty() : tensor<100x128xbf16>
  %tr39 = linalg.transpose ins(%trunc37 : tensor<128x100xbf16>) outs(%init38 : tensor<100x128xbf16>) permutation = [1, 0]
  %init40 = tensor.empty() : tensor<100x128xbf16>
  %ew48 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%tr39, %arg3 : tensor<100x128xbf16>, tensor<100x128xbf16>) outs(%init40 : tensor<100x128xbf16>) {
  ^bb0(%in40_0: bf16, %in40_1: bf16, %out40_0: bf16):
    %v42 = arith.extf %in40_0 : bf16 to f32
    %v43 = arith.extf %in40_1 : bf16 to f32
    %v44 = arith.subf %v42, %v43 : f32
    %v46 = arith.mulf %v44, %cst45 : f32
    %v47 = arith.truncf %v46 : f32 to bf16
    linalg.yield %v47 : bf16
  } -> tensor<100x128xbf16>
  return %ew48, %tr39 : tensor<100x128xbf16>, tensor<100x128xbf16>
}
