// --spacefusion-pipeline's grouping and analysis options take effect on the
// GPU path (before, it built smap-form-graphs and smap-analyze without
// them: --dump-pass-pipeline showed max-group-size=0 and allow-uta=true).
//
// RUN: echo "module {}" | spacefusion-opt --spacefusion-pipeline="target=sm_90a exclude=linalg.matmul max-group-size=3 allow-online-softmax=false" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: smap-widen-accumulators{exclude={linalg.matmul}}
// PIPELINE: smap-fold-contraction-relayouts{exclude={linalg.matmul}}
// PIPELINE: smap-form-graphs{exclude={linalg.matmul} excluded-alone=true max-group-size=3}
// PIPELINE: smap-analyze{allow-uta=false}
//
// allow-online-softmax=false: the key dim is not sliced with rescaled
// updates, in the graph or in the parts it is partitioned into (they
// inherit smap.no_uta); by default it is (online softmax).
// RUN: spacefusion-opt --spacefusion-pipeline="target=sm_90a allow-online-softmax=false" %S/Inputs/attention_f16.mlir \
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
// EXCLUDED: remark: [Missed] excluded | Category:smap:form-graphs | Remark="'linalg.matmul' in a graph of its own: excluded by the exclude option"
// EXCLUDED: formed smap.graph of 2 ops (fill, matmul)
// EXCLUDED-LABEL: llvm.func @mm_f16(
// EXCLUDED-SAME: strategy = "simt"
