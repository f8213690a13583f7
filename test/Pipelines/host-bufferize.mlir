// A host compiler that stops at sliced smap IR (lower-to-gpu=false) and
// bufferizes itself converts the smap ops to scf first (convert-smap-to-scf),
// then runs upstream one-shot-bufferize: smap ops are a tensor-level
// description, bufferized through the scf loops they become (docs/Integration.md
// says why there is no BufferizableOpInterface on them). Running
// one-shot-bufferize on the smap ops directly names the op it cannot bufferize.
// RUN: spacefusion-opt %examples/attention.mlir --spacefusion-pipeline="target=sm_90a lower-to-gpu=false" \
// RUN:   | spacefusion-opt --convert-smap-to-scf \
// RUN:       --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt %examples/attention.mlir --spacefusion-pipeline="target=sm_90a lower-to-gpu=false" \
// RUN:   | not spacefusion-opt --one-shot-bufferize="bufferize-function-boundaries" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIRECT

// CHECK-LABEL: func.func @attention(
// CHECK-SAME:      %[[Q:.*]]: memref<2x8x512x64xf32>, %{{.*}}: memref<2x8x512x64xf32>, %{{.*}}: memref<2x8x512x64xf32>) -> memref<2x8x512x64xf32>
// CHECK:           memref.subview %[[Q]]
// The temporal loop over the keys carries the running max, sum and output in buffers.
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (memref<1x1x64xf32>, memref<1x1x64xf32>, memref<1x1x64x64xf32>)
// CHECK-NOT:     tensor<
// CHECK-NOT:     smap.temporal_slice
// CHECK:         return %{{.*}} : memref<2x8x512x64xf32>

// DIRECT: error: op was not bufferized
// DIRECT-NEXT: smap.temporal_slice
