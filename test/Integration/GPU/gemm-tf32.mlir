// f32 GEMMs with `tf32=true` end to end: mma.sync m16n8k8 .tf32 on operands
// rounded as they are loaded; A [m, k] by ldmatrix, B [k, n] element by
// element, and a linear layer's weight [n, k] by ldmatrix. The C driver
// compares each with the double-precision product of the inputs rounded to
// TF32 (so at f32's accumulation tolerance: a wrong register of the
// fragment layout is an error of order max|ref|); outputs are poisoned
// with NaN first.
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=bin tf32=true' -o %t.mlir
// RUN: FileCheck %s --check-prefix=KERNELS < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o %t.ll
// RUN: clang -O2 -shared -fPIC %t.ll -o %t.so %spacefusion_runtime_link
// RUN: clang -O2 %S/gemm-tf32-main.c -I%spacefusion_include %t.so %spacefusion_runtime_link -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
//
// scripts/gpu-tests.sh builds the test with its pipeline options:
// GPU-OPTIONS: tf32=true

// KERNELS-DAG: strategy = "mma_sync"
// CHECK: device found: yes
// CHECK: gemm 1024x512x768: max abs error {{[0-9.e-]+}} of max|ref| {{[0-9.e+-]+}}, within tolerance: yes
// CHECK: linear_bt 512x384x256: max abs error {{[0-9.e-]+}} of max|ref| {{[0-9.e+-]+}}, within tolerance: yes
// CHECK: runtime error code 0

func.func @gemm(%a: tensor<1024x768xf32>, %b: tensor<768x512xf32>) -> tensor<1024x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x768xf32>, tensor<768x512xf32>) outs(%c : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  return %r : tensor<1024x512xf32>
}

func.func @linear_bt(%x: tensor<512x256xf32>, %w: tensor<384x256xf32>) -> tensor<512x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<512x384xf32>) -> tensor<512x384xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<512x256xf32>, tensor<384x256xf32>) outs(%c : tensor<512x384xf32>) -> tensor<512x384xf32>
  return %r : tensor<512x384xf32>
}
