// The schedule's remark carries its numbers as arguments (strategy, blocks,
// threads, smem, registers, predicted time, the fraction of the temporal
// slices a block visits, runner-up) and the function it is in, so tools
// read them from the YAML remarks instead of parsing the text. Causal
// attention (s1024, blocks of 64 queries, slices of 128 keys) visits
// (1 + 1 + 2 + 2 + ... + 8 + 8) / (16 x 8) = 56.25% of its key slices:
// the model counts the work and traffic of the slices smap-temporal-slice
// skips as none.
// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_f16.mlir --smap-form-graphs --smap-schedule \
// RUN:   --remarks-filter=smap --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null
// RUN: FileCheck %s < %t.yaml
// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_causal_frontend_bf16.mlir --smap-form-graphs \
// RUN:   --smap-schedule --remarks-filter=smap --remark-format=yaml --remarks-output-file=%t.causal.yaml -o /dev/null
// RUN: FileCheck %s --check-prefix=CAUSAL < %t.causal.yaml
// CHECK: Name: chosen
// CHECK: Function: attention
// CHECK-NEXT: Args:
// CHECK-NEXT: - Remark: 'scheduled for sm_90a: spatial [b=1, h=1, m=64] temporal [l=64], strategy simt
// CHECK-NEXT: - strategy: simt
// CHECK-NEXT: - blocks: '128'
// CHECK-NEXT: - threads: '256'
// CHECK-NEXT: - smem: '99584'
// CHECK-NEXT: - registers: '49'
// CHECK-NEXT: - predicted_us: '{{[0-9.e+]+}}'
// CHECK-NEXT: - visited_slices: '1.000000e+00'
// CHECK-NEXT: - runner_up: 'spatial [h=1, m=32] temporal [l=64]'
// CHECK-NEXT: - runner_up_us: '{{[0-9.e+]+}}'

// CAUSAL: Name: chosen
// CAUSAL: Function: attention_causal
// CAUSAL-NEXT: Args:
// CAUSAL-NEXT: - Remark: 'scheduled for sm_90a: spatial [h=1, m=64, n=64] temporal [l=128], strategy row_fragments_wgmma,
// CAUSAL-SAME: 56.2% of the temporal slices visited (a mask skips the rest)
// CAUSAL: - visited_slices: '5.625000e-01'
