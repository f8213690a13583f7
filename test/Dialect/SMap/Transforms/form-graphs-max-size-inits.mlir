// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_f16.mlir --smap-form-graphs="max-group-size=2" \
// RUN:   | FileCheck %s --strict-whitespace
// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_f16.mlir --smap-form-graphs \
// RUN:   | FileCheck %s --strict-whitespace

// With max-group-size, a contraction may join only one of its producers'
// groups; the fill of its accumulator then used to stay in a group of its
// own that computes nothing, outside every graph (and the GPU path rejects
// ops outside graphs). Every fill now sits in the graph of its reader:
// none is left at the function's level (4 spaces of indentation; graph
// bodies have 6).
// CHECK-LABEL: func.func @attention
// CHECK-NOT: {{^    }}%{{[^ ]*}} = linalg.fill
// CHECK: return
