// RUN: spacefusion-opt %s --pass-pipeline='builtin.module(func.func(smap-read-only-arguments))' | FileCheck %s

// Tensor arguments of a public function become read-only; scalars and
// memrefs are left alone, and a caller's explicit choice is kept.
// CHECK-LABEL: func.func @public(
// CHECK-SAME:    %{{.*}}: tensor<64xf32> {bufferization.writable = false},
// CHECK-SAME:    %{{.*}}: f32,
// CHECK-SAME:    %{{.*}}: tensor<64xf32> {bufferization.writable = true},
// CHECK-SAME:    %{{.*}}: memref<4xf32>)
func.func @public(%x: tensor<64xf32>, %s: f32,
                  %cache: tensor<64xf32> {bufferization.writable = true},
                  %m: memref<4xf32>) -> tensor<64xf32> {
  return %x : tensor<64xf32>
}

// Private functions are left to bufferization's call analysis.
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME:    %{{.*}}: tensor<64xf32>)
// CHECK-NOT:     bufferization.writable
func.func private @helper(%x: tensor<64xf32>) -> tensor<64xf32> {
  return %x : tensor<64xf32>
}
