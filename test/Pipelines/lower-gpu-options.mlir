// Options no pass would reject before producing output are rejected up
// front, with an error and a failing exit status: an unknown binary format
// (gpu-module-to-binary reported it and still exited 0 with a module),
// a row-threads no row kernel can use (the kernel fell back silently), a
// chip without the instructions the tensor-core strategies emit.
// RUN: not spacefusion-opt %s --spacefusion-lower-gpu=format=bogus -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not spacefusion-opt %s --spacefusion-lower-gpu=row-threads=7 -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not spacefusion-opt %s --spacefusion-lower-gpu=row-threads=1024 -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS1024
// RUN: spacefusion-opt %s "--spacefusion-lower-gpu=row-threads=64 format=isa" | FileCheck %s --check-prefix=OK
// A chip before sm_80 with the tensor-core strategies allowed (LLVM crashed
// selecting mma.sync m16n8k16 for sm_75); without them it compiles.
// RUN: not spacefusion-opt %s --spacefusion-lower-gpu=chip=sm_75 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLDCHIP
// RUN: spacefusion-opt %s "--spacefusion-lower-gpu=chip=sm_75 tensor-cores=false format=isa" | FileCheck %s --check-prefix=OK
// OLDCHIP: error: spacefusion-lower-gpu: chip=sm_75 has no mma.sync m16n8k16, which the tensor-core strategies emit: compile for sm_80 or later, or pass tensor-cores=false
// FORMAT: error: spacefusion-lower-gpu: format=bogus is not one of auto, bin, isa, fatbin
// THREADS: error: spacefusion-lower-gpu: row-threads=7 is neither 0 (automatic) nor a power of two from 32 to 512
// THREADS1024: error: spacefusion-lower-gpu: row-threads=1024 is neither 0 (automatic) nor a power of two from 32 to 512
// OK: gpu.binary @rows_rows_f32

#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @rows(%x: tensor<64x1024xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}
