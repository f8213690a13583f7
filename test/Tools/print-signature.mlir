// spacefusion-run --print-signature: the entry function's tensors as JSON,
// what the Python package reads instead of parsing MLIR text.
// RUN: spacefusion-run --print-signature %s | FileCheck %s
// RUN: spacefusion-run --print-signature --entry=second %s | FileCheck %s --check-prefix=SECOND
// RUN: not spacefusion-run --print-signature --entry=dynamic %s 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not spacefusion-run --print-signature --entry=missing %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not spacefusion-run --print-signature --entry=bytes %s 2>&1 | FileCheck %s --check-prefix=BYTES

// CHECK: {"inputs":[{"dtype":"f16","shape":[4,8]},{"dtype":"bf16","shape":[8]}],"name":"first","outputs":[{"dtype":"f32","shape":[4,8]},{"dtype":"i32","shape":[4]}]}
// SECOND: {"inputs":[{"dtype":"f64","shape":[2,3,5]}],"name":"second","outputs":[{"dtype":"f64","shape":[2,3,5]}]}
// DYNAMIC: spacefusion-run: @dynamic must take and return static f16, bf16, f32, f64, i1, i32 or i64 tensors, got tensor<?xf32>
// BYTES: spacefusion-run: @bytes must take and return static f16, bf16, f32, f64, i1, i32 or i64 tensors, got tensor<4xi8>
// MISSING: spacefusion-run: no function @missing

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

func.func @first(%a: tensor<4x8xf16>, %b: tensor<8xbf16>) -> (tensor<4x8xf32>, tensor<4xi32>) {
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = tensor.empty() : tensor<4xi32>
  return %0, %1 : tensor<4x8xf32>, tensor<4xi32>
}

func.func @second(%a: tensor<2x3x5xf64>) -> tensor<2x3x5xf64> {
  return %a : tensor<2x3x5xf64>
}

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

func.func @bytes(%a: tensor<4xi8>) -> tensor<4xi8> {
  return %a : tensor<4xi8>
}
