// --spacefusion-pipeline's grouping and analysis options take effect on the
// GPU path (before, it built smap-form-graphs and smap-analyze without
// them: --dump-pass-pipeline showed max-group-size=0 and allow-uta=true).
//
// RUN: echo "module {}" | spacefusion-opt --spacefusion-pipeline="target=sm_90a exclude=linalg.matmul max-group-size=3 allow-uta=false" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: smap-generalize-named-ops{exclude={linalg.matmul}}
// PIPELINE: smap-widen-accumulators{exclude={linalg.matmul}}
// PIPELINE: smap-fold-contraction-relayouts{exclude={linalg.matmul}}
// PIPELINE: smap-form-graphs{exclude={linalg.matmul} excluded-alone=true max-group-size=3}
// PIPELINE: smap-analyze{allow-uta=false}
//
// smap-schedule's model and partition options reach it through the
// pipeline too (partition was smap-schedule's alone).
// RUN: echo "module {}" | spacefusion-opt --spacefusion-pipeline="target=sm_90a partition=false waited-loads=false overlap-steps=true one-wave=1" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// SCHEDULE: smap-schedule{
// SCHEDULE-SAME: one-wave=1 overlap-steps=true partition=false
// SCHEDULE-SAME: waited-loads=false
//
// allow-uta=false: the key dim is not sliced with rescaled
// updates, in the graph or in the parts it is partitioned into (they
// inherit smap.no_uta); by default it is (online softmax).
// RUN: spacefusion-opt --spacefusion-pipeline="target=sm_90a allow-uta=false" %S/Inputs/attention_f16.mlir \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: spacefusion-opt --spacefusion-pipeline="target=sm_90a" %S/Inputs/attention_f16.mlir \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLINE
// STRICT: dim 'l' (1024) is not_sliceable: {{.*}}which is disabled (allow-uta=false)
// STRICT: partitioned before
// STRICT-NOT: rescaled
// ONLINE: dim 'l' sliced temporally by {{[0-9]+}}: reduce_max2 accumulated (max); reduce_add4 rescaled; contract6 rescaled
//
// max-group-size=2 cuts the attention into 7 graphs instead of one, and
// they compile. (Before, the fill of the scores' accumulator was left in a
// group of its own when the contraction joined another producer's group,
// so it stayed outside every graph and the GPU path rejected the function.)
// RUN: spacefusion-opt --spacefusion-pipeline="target=sm_90a max-group-size=2" %S/Inputs/attention_f16.mlir \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=GROUPS
// GROUPS-COUNT-7: formed smap.graph of
// GROUPS-NOT: formed smap.graph of
// GROUPS: llvm.func @attention(
//
// exclude: an excluded named matmul is neither widened nor generalized, and
// the GPU path, which compiles graphs only, runs it unfused in a graph of
// its own (with its fill), on CUDA cores as its f16 accumulation asks.
// Before, it stayed outside every graph and the function was rejected.
// RUN: spacefusion-opt --spacefusion-pipeline="target=sm_90a exclude=linalg.matmul" %S/lower-gpu-16bit-accumulation.mlir \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=EXCLUDED
// EXCLUDED: remark: [Missed] excluded | Category:smap:form-graphs | Function={{[a-z_0-9]+}} | Remark="'linalg.matmul' in a graph of its own: excluded by the exclude option"
// EXCLUDED: formed smap.graph of 2 ops (fill, matmul)
// EXCLUDED-LABEL: llvm.func @mm_f16(
// EXCLUDED-SAME: strategy = "simt"
//
// One option struct: --spacefusion-pipeline takes the GPU path's options
// (they used to exist only on --spacefusion-lower-gpu) and passes each to
// the pass it belongs to.
// RUN: echo "module {}" | spacefusion-opt --spacefusion-pipeline="target=sm_90a format=isa async-stages=2 tensor-cores=false rows-per-block=4 approx-math=false raster-group=8" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPUOPTS
// GPUOPTS: smap-schedule{async-stages=2 {{.*}}rows-per-block=4 {{.*}}tensor-cores=false
// GPUOPTS: convert-smap-to-gpu{approx-math=false
// GPUOPTS: convert-smap-to-scf{blocks-as-forall=true raster-group=8}
// GPUOPTS: smap-distribute-blocks{approx-math=false}
// GPUOPTS: gpu-module-to-binary{format=isa
//
// ... and --spacefusion-lower-gpu takes the grouping options (it rejected
// `exclude`), but not the pipeline's ways to stop early.
// RUN: echo "module {}" | spacefusion-opt --spacefusion-lower-gpu="exclude=linalg.matmul max-group-size=3" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWERGPU
// LOWERGPU: smap-form-graphs{exclude={linalg.matmul} excluded-alone=true max-group-size=3}
// RUN: not spacefusion-opt %S/Inputs/attention_f16.mlir --spacefusion-lower-gpu="lower-to-loops=true" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STOPS
// STOPS: error: spacefusion-lower-gpu: lower-to-loops and lower-to-gpu=false are --spacefusion-pipeline's ways to stop before the GPU lowering
//
// lower-to-gpu=false stops at the schedules the GPU path builds. ViT's 197
// tokens used to be scheduled on CUDA cores there (simt, m = 16) while the
// GPU path built row fragments on wgmma: the two paths ran different passes
// with different options.
// RUN: spacefusion-opt %S/Inputs/attention_vit_f16.mlir --spacefusion-pipeline="target=sm_90a lower-to-gpu=false" \
// RUN:   | FileCheck %s --check-prefix=SLICED
// RUN: spacefusion-opt %S/Inputs/attention_vit_f16.mlir --spacefusion-lower-gpu="format=isa" -o /dev/null \
// RUN:   --mlir-print-ir-before=smap-spatial-slice 2>&1 | FileCheck %s --check-prefix=SLICED
// SLICED: schedule = #smap.schedule<spatial = [b = 1, h = 1, m = 128], temporal = [l = 128], grid = [64, 12, 2], threads = 256, smem = 93184, regs = 128, strategy = row_fragments_wgmma, stages = 2, blocks_per_sm = 2>
