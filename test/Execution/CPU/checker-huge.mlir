// Buffers beyond --max-buffer-gib are refused before anything is allocated
// or compiled (allocating 2^40 elements ended in "LLVM ERROR: out of
// memory" or a crash), for the arguments and results and for any one
// tensor of the body.

// RUN: not spacefusion-run %s --entry=huge_argument 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not spacefusion-run %s --entry=huge_argument --reference=native 2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: not spacefusion-run %s --entry=huge_temporary 2>&1 | FileCheck %s --check-prefix=BODY
// RUN: not spacefusion-run %s --entry=small --max-buffer-gib=1e-6 --reference=native 2>&1 | FileCheck %s --check-prefix=CAP

// Per element: the input as double, a pristine and a working copy in f64,
// three outputs (unfused, fused in f32, reference in f64): 24 + 16 bytes.
// ARG: spacefusion-run: @huge_argument needs 40960.0 GiB of buffers (inputs, outputs and their copies), more than the limit of 4.0 GiB (--max-buffer-gib); not running it
// ARG-NOT: fusion graph
// NATIVE: @huge_argument needs 24576.0 GiB of buffers
// BODY: error: spacefusion-run: this 'tensor<1048576x1048576xf32>' takes up to 8192.0 GiB, more than the limit of 4.0 GiB (--max-buffer-gib); not running it
// CAP: @small needs 96.0 KiB of buffers {{.*}} more than the limit of 1.0 KiB

#map = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @huge_argument(%x: tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32> {
  %init = tensor.empty() : tensor<1048576x1048576xf32>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1048576x1048576xf32>) outs(%init : tensor<1048576x1048576xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<1048576x1048576xf32>
  return %y : tensor<1048576x1048576xf32>
}

// A small signature, but a 2^40-element broadcast inside.
func.func @huge_temporary(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1048576x1048576xf32>
  %b = linalg.generic {indexing_maps = [#row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%init : tensor<1048576x1048576xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1048576x1048576xf32>
  %sinit = tensor.empty() : tensor<1048576xf32>
  %sfill = linalg.fill ins(%zero : f32) outs(%sinit : tensor<1048576xf32>) -> tensor<1048576xf32>
  %s = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<1048576x1048576xf32>) outs(%sfill : tensor<1048576xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1048576xf32>
  return %s : tensor<1048576xf32>
}

func.func @small(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  return %x : tensor<64x64xf32>
}
