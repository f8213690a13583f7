// line-info=true keeps the input's locations in the kernels as line tables,
// so that a profiler's source view (Nsight Compute) shows the linalg lines
// each instruction came from: `.file` / `.loc` directives in the PTX (the
// target not marked `debug`, which ptxas would refuse to optimize), `!dbg`
// in the kernels' LLVM IR, and ptxas -lineinfo for the cubin. Off by
// default (the upstream NVVM pipeline strips locations; dump-kernels.mlir
// checks that no `.loc` is left then).
//
// RUN: rm -rf %t && spacefusion-opt %s -o /dev/null \
// RUN:   "--spacefusion-pipeline=one-wave=0 target=sm_90a format=isa line-info=true dump-kernels-to=%t"
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_relu_simt_f32.ptx
// RUN: FileCheck %s --check-prefix=LLVM < %t/gemm_relu_simt_f32.ll
// RUN: rm -rf %t.bin && spacefusion-opt %s -o /dev/null \
// RUN:   "--spacefusion-pipeline=one-wave=0 target=sm_90a format=bin line-info=true dump-kernels-to=%t.bin"
// RUN: ls %t.bin | FileCheck %s --check-prefix=CUBIN
// RUN: spacefusion-opt %s "--spacefusion-pipeline=target=sm_90a format=isa line-info=true" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// PTX:     .target sm_90a{{$}}
// The lines of the matmul and of the ReLU below (column 8), in this file.
// PTX-DAG: .loc [[FILE:[0-9]+]] [[@LINE+16]] 8
// PTX-DAG: .loc [[FILE]] [[@LINE+18]] 8
// PTX:     .file [[FILE]] "{{.*}}line-info.mlir"

// LLVM: define ptx_kernel void @gemm_relu_simt_f32({{.*}}!dbg
// LLVM: !DICompileUnit({{.*}}emissionKind: DebugDirectivesOnly

// CUBIN: gemm_relu_simt_f32.cubin

// PIPELINE:     ensure-debug-info-scope-on-llvm-func{emission-kind=DebugDirectivesOnly}
// PIPELINE:     gpu-module-to-binary{{.*}}opts=-lineinfo

func.func @gemm_relu(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
       outs(%acc : tensor<64x48xf32>) -> tensor<64x48xf32>
  %e2 = tensor.empty() : tensor<64x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
       ins(%c : tensor<64x48xf32>) outs(%e2 : tensor<64x48xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}
