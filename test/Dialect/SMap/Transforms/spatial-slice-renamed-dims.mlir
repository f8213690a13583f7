// A graph whose reshapes the normalizations did not fold (the passes of the
// pipeline before smap-generalize-named-ops and the early softmax
// decomposition): the heads collapsed into the batch in front of a
// linalg.softmax. A block of the softmax's graph names its dims anew through
// the collapse and no longer has the dim its schedule slices temporally: a
// clear error naming the dims, not the smap.graph verifier's.
// RUN: not spacefusion-opt %S/../../../Conformance/Inputs/attention_named.mlir \
// RUN:   --pass-pipeline='builtin.module(smap-specialize-fills,smap-widen-accumulators,smap-fold-contraction-relayouts,smap-split-contraction-operands,smap-form-graphs,smap-decompose-aggregates,smap-fuse-conversions,smap-set-target{target=sm_90a},smap-analyze,smap-schedule,smap-spatial-slice)' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: smap-spatial-slice: a block of this graph has no dim 'l' to slice temporally (its dims are b, h, n): a reshape inside the graph splits or merges it
// CHECK-NOT: op schedule temporally slices unknown dim
