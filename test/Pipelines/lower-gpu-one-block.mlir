// RUN: spacefusion-opt %s -split-input-file --spacefusion-pipeline="target=sm_90a" \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: not spacefusion-opt %S/Inputs/gpu-index-tensor.mlir --spacefusion-pipeline="target=sm_90a" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INDEX

// An elementwise op and a flatten: every dim crosses the reshape, so no
// dim is sliced and the schedule is one block. The graph used to be inlined
// and then rejected as "outside every fusion graph" (30% of the fuzzer's
// graphs failed for sm_90a this way); it runs as one block of the
// schedule's threads.
// CHECK-LABEL: llvm.func @flat(
// CHECK-SAME: smap.kernels = [{blocks = 1 : i64{{.*}}strategy = "{{[a-z_]+}}", threads = 256 : i64
// CHECK: gpu.binary @flat_simt_f32
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Function=flat | Remark="scheduled for sm_90a: spatial [] temporal [], strategy simt, 1 blocks x 256 threads
// REMARK: remark: [Passed] block-kernel | Category:smap:distribute-blocks | Function=flat | Remark="lowered to one kernel: strategy=simt blocks=1 threads=256

// An op the SMG cannot describe (an index tensor read through a slice,
// which smap-store-indices-as-i64 leaves as written; one that only generics
// read is stored as i64: gpu-index-intermediate.mlir) stays outside every
// graph; on the GPU path it would run as a loop kernel, which has no fixed
// width for index elements: the error names the op and why.
// INDEX: error: 'linalg.generic' cannot be compiled for the GPU: it is outside every fusion graph and cannot run as a loop kernel: element type index (only integers, and floats of 16 bits or more)

// A function that only reshapes its argument: gpu-no-kernel.mlir.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @flat(%x: tensor<32x64xf32>) -> tensor<2048xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<32x64xf32>
  %f = tensor.collapse_shape %y [[0, 1]] : tensor<32x64xf32> into tensor<2048xf32>
  return %f : tensor<2048xf32>
}
