// A graph smap-schedule has not seen is left as it is, with a remark saying
// so (the slicers never skip a graph silently).
// RUN: spacefusion-opt %examples/softmax_last.mlir --smap-form-graphs --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s
// RUN: spacefusion-opt %examples/softmax_last.mlir --smap-form-graphs --smap-spatial-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=SPATIAL

// CHECK: softmax_last.mlir:[[LINE:[0-9]+]]:{{[0-9]+}}: remark: [Passed] formed
// CHECK: softmax_last.mlir:[[LINE]]:{{[0-9]+}}: remark: [Missed] unscheduled | Category:smap:temporal-slice | Function=softmax_last | Remark="graph has no schedule; run smap-schedule first"
// CHECK-LABEL: func.func @softmax_last
// CHECK: smap.graph
// CHECK-NOT: smap.temporal_slice

// SPATIAL: remark: [Missed] unscheduled | Category:smap:spatial-slice | Function=softmax_last | Remark="graph has no schedule; run smap-schedule first"
