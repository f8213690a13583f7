// The passes share one SMG per graph through the analysis manager
// (SpaceMappingGraphAnalysis): smap-analyze, smap-schedule (when it
// partitions nothing) and smap-dump-graph preserve it,
// every other pass (upstream ones included) drops it. A held SMG must never
// be used for a graph it no longer describes.
//
// A second smap-analyze with allow-uta=false drops the SMG the first one
// left (held, it would still slice 'l' with Update-then-Aggregate).
// RUN: spacefusion-opt %S/../../../../examples/attention.mlir --smap-form-graphs --smap-set-target=target=cpu \
// RUN:   --smap-analyze '--smap-analyze=allow-uta=false' --smap-schedule | FileCheck %s --check-prefix=STRICT
// STRICT: smap.graph
// STRICT-SAME: schedule = #smap.schedule<spatial = [b = 1, h = 1, m = 16], temporal = [], grid = [2, 8, 32]
// STRICT-NOT: rewritten by Update-then-Aggregate
// STRICT-SAME: smap.not_sliceable = {l = "reduced by max(reduce_max2) -> add(reduce_add4) -> add(contract6); not sliceable: the chain needs Update-then-Aggregate, which is disabled (allow-uta=false)"}

