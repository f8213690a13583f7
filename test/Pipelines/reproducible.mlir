// gpu-module-to-binary records its compile times in each #gpu.object, so the
// same input compiled twice gives different IR; `reproducible=true` drops
// them (smap-drop-binary-timings) and keeps every other property.
// RUN: spacefusion-opt %S/../../examples/layernorm.mlir '--spacefusion-lower-gpu=format=isa' \
// RUN:   | FileCheck %s --check-prefix=TIMED
// RUN: spacefusion-opt %S/../../examples/layernorm.mlir '--spacefusion-lower-gpu=format=isa reproducible=true' \
// RUN:   | FileCheck %s --check-prefix=REPRO
// RUN: spacefusion-opt %S/../../examples/layernorm.mlir '--spacefusion-pipeline=target=sm_90a format=isa reproducible=true' \
// RUN:   | FileCheck %s --check-prefix=REPRO
// TIMED: gpu.binary @layernorm_rows_f32
// TIMED-SAME: properties = {LLVMIRToISATimeInMs = {{[0-9]+}} : i64, O = 3 : i32}
// REPRO: gpu.binary @layernorm_rows_f32
// REPRO-SAME: properties = {O = 3 : i32}
// REPRO-NOT: TimeInMs
//
// The pass alone, on an object with timings only: `properties` goes too.
// RUN: spacefusion-opt %s --smap-drop-binary-timings | FileCheck %s --check-prefix=PASS
// PASS-LABEL: gpu.binary @timed
// PASS-SAME: [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "ptx">]
// PASS-LABEL: gpu.binary @other
// PASS-SAME: properties = {O = 3 : i32}
module attributes {gpu.container_module} {
  gpu.binary @timed [#gpu.object<#nvvm.target<chip = "sm_90a">, properties = {ISAToBinaryTimeInMs = 29 : i64, LLVMIRToISATimeInMs = 8 : i64}, assembly = "ptx">]
  gpu.binary @other [#gpu.object<#nvvm.target<chip = "sm_90a">, properties = {LLVMIRToISATimeInMs = 8 : i64, O = 3 : i32}, assembly = "ptx">]
}
