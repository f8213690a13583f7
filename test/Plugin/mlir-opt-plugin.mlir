// Debian's own mlir-opt loads SpaceFusion as a plugin and runs its passes.
// Plugin passes are registered after mlir-opt parses its flags, so they are
// named in --pass-pipeline rather than as --smap-* flags.
// RUN: mlir-opt --load-dialect-plugin=%spacefusion_plugin --load-pass-plugin=%spacefusion_plugin \
// RUN:   --pass-pipeline="builtin.module(spacefusion-pipeline{target=sm_80 lower-to-gpu=false})" %examples/attention_paper.mlir \
// RUN:   | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%spacefusion_plugin --load-pass-plugin=%spacefusion_plugin \
// RUN:   --pass-pipeline="builtin.module(smap-form-graphs,smap-dump-graph)" %examples/attention_paper.mlir -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=DUMP
// The dialect plugin alone lets mlir-opt parse smap IR.
// RUN: mlir-opt --load-dialect-plugin=%spacefusion_plugin %s | FileCheck %s --check-prefix=PARSE
// Without the plugin, mlir-opt does not know the dialect.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK: smap.graph
// CHECK-SAME: dims = [#smap.dim<"m", 512, parallel>, #smap.dim<"n", 64, parallel_recompute>, #smap.dim<"l", 512, temporal>, #smap.dim<"k", 64, temporal>]
// CHECK-SAME: target = #smap.target<name = "sm_80"

// DUMP: mappings: 6 o2a, 4 a2o

// PARSE-LABEL: func.func @parse
// PARSE: smap.graph(%{{.*}} = %{{.*}} : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4, parallel>]}
// NOPLUGIN: error: Dialect `smap' not found for custom op 'smap.graph'
func.func @parse(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4, parallel>]} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
