// The schedule's remark carries its numbers as arguments (strategy, blocks,
// threads, smem, registers, predicted time, runner-up) and the function it is
// in, so tools read them from the YAML remarks instead of parsing the text.
// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_f16.mlir --smap-form-graphs --smap-schedule \
// RUN:   --remarks-filter=smap --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null
// RUN: FileCheck %s < %t.yaml
// CHECK: Name: chosen
// CHECK: Function: attention
// CHECK-NEXT: Args:
// CHECK-NEXT: - Remark: 'scheduled for sm_90a: spatial [b=1, h=1, m=32] temporal [l=64], strategy simt
// CHECK-NEXT: - strategy: simt
// CHECK-NEXT: - blocks: '256'
// CHECK-NEXT: - threads: '256'
// CHECK-NEXT: - smem: '82176'
// CHECK-NEXT: - registers: '41'
// CHECK-NEXT: - predicted_us: '{{[0-9.e+]+}}'
// CHECK-NEXT: - runner_up: 'spatial [b=1, h=1, m=16] temporal [l=32]'
// CHECK-NEXT: - runner_up_us: '{{[0-9.e+]+}}'
