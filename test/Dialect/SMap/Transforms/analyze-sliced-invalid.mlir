// The SMG describes a graph before slicing. Analyzing (or scheduling) a
// graph that holds slice ops is a clear error at the graph, not a crash.
// RUN: spacefusion-opt %examples/attention.mlir --smap-form-graphs --smap-schedule \
// RUN:   --smap-spatial-slice --smap-temporal-slice \
// RUN:   | not spacefusion-opt --smap-analyze 2>&1 | FileCheck %s
// RUN: spacefusion-opt %examples/attention.mlir --smap-form-graphs --smap-schedule \
// RUN:   --smap-spatial-slice \
// RUN:   | not spacefusion-opt --smap-schedule 2>&1 | FileCheck %s

// CHECK: error: the graph is sliced already; its Space-Mapping Graph is built before smap-spatial-slice and smap-temporal-slice
// CHECK-NOT: PLEASE submit a bug report
