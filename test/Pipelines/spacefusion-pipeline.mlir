// The pipeline forms the groups, attaches the target, classifies dims,
// schedules and slices; its options reach the passes.
// RUN: spacefusion-opt '--spacefusion-pipeline=lower-to-gpu=false' %examples/attention_paper.mlir | FileCheck %s --check-prefix=DEFAULT
// RUN: spacefusion-opt --spacefusion-pipeline="target=sm_80 allow-uta=false lower-to-gpu=false" %examples/attention_paper.mlir \
// RUN:   | FileCheck %s --check-prefix=NOUTA
// RUN: spacefusion-opt --spacefusion-pipeline="max-group-size=2 exclude=linalg.fill lower-to-gpu=false" %examples/softmax_last.mlir \
// RUN:   | FileCheck %s --check-prefix=SPLIT
// The same pipeline, spelled as passes.
// RUN: spacefusion-opt --pass-pipeline="builtin.module(smap-form-graphs,smap-set-target{target=sm_90a},smap-analyze)" \
// RUN:   %examples/attention_paper.mlir | FileCheck %s --check-prefix=DEFAULT

// DEFAULT: smap.graph
// DEFAULT-SAME: dims = [#smap.dim<"m", 512, parallel>, #smap.dim<"n", 64, parallel_recompute>, #smap.dim<"l", 512, temporal>, #smap.dim<"k", 64, temporal>]
// DEFAULT-SAME: target = #smap.target<name = "sm_90a"

// NOUTA: smap.graph
// NOUTA-SAME: #smap.dim<"l", 512, not_sliceable>
// NOUTA-SAME: smap.not_sliceable = {l = "reduced by max(reduce_max1) -> add(reduce_add3) -> add(contract5); not sliceable: the chain needs Update-then-Aggregate, which is disabled (allow-uta=false)"}
// NOUTA-SAME: target = #smap.target<name = "sm_80"

// The fills stay outside; the four compute ops form two groups of two.
// SPLIT-LABEL: func.func @softmax_last
// SPLIT: linalg.fill
// SPLIT: %[[G:.*]] = smap.graph
// SPLIT: linalg.fill
// SPLIT: smap.graph(%{{.*}} = %[[G]]
// SPLIT-NOT: smap.graph(%{{[^ ]*}} = %{{[^ ]*}} : tensor<4096x1024xf32>

// With UTA disabled, the SMG blocks keep l unsliced too.
// RUN: spacefusion-opt --spacefusion-pipeline="target=sm_80 allow-uta=false lower-to-gpu=false" %examples/attention_paper.mlir \
// RUN:   | FileCheck %s --check-prefix=NOUTA-BLOCK
// NOUTA-BLOCK: smap.spatial_slice
// NOUTA-BLOCK: smap.graph
// NOUTA-BLOCK-SAME: #smap.dim<"l", 512, not_sliceable>
// NOUTA-BLOCK-NOT: smap.temporal_slice #smap.dim<"l"

// The CPU path ends in loops on tensors.
// RUN: spacefusion-opt --spacefusion-pipeline="target=cpu lower-to-loops=true" %examples/softmax_last.mlir \
// RUN:   | FileCheck %s --check-prefix=LOOPS
// LOOPS-LABEL: func.func @softmax_last
// LOOPS: scf.for
// LOOPS-NOT: smap.{{graph|spatial_slice|temporal_slice}}

// The LSTM cell on the H200: partitioned into its two GEMMs (with their
// sum) and the gates, which read the sum through windows of l; each part's
// blocks slice only dims all its outputs have.
// RUN: spacefusion-opt --spacefusion-pipeline="one-wave=0 target=sm_90a lower-to-gpu=false" %examples/lstm_cell.mlir \
// RUN:   | FileCheck %s --check-prefix=LSTM
// LSTM: smap.spatial_slice [#smap.dim<"l", 1024, parallel>] tiles [8]
// LSTM: smap.spatial_slice [#smap.dim<"m", 64, parallel>] tiles [1]

// A dim named after another (l1) keeps its name inside unit-row blocks,
// where its temporal slice is materialized.
// RUN: spacefusion-opt --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=m:1 temporal=l1:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   %examples/gemm_chain.mlir | FileCheck %s --check-prefix=UNITROWS
// UNITROWS: smap.spatial_slice [#smap.dim<"m", 1024, parallel>] tiles [1]
// UNITROWS: smap.temporal_slice #smap.dim<"l1", 256, temporal> step 32
