// Named ops the pipeline rewrites before grouping (a matmul generalized, a
// softmax decomposed into fills and generics) keep the op the user wrote in
// their diagnostics: a dynamic shape, which neither a graph nor a loop
// kernel takes, is reported at the op's line naming it, not only the
// internal op that carries it (the GPU path named 'linalg.fill' for a
// softmax).
//
// RUN: not spacefusion-opt %s -split-input-file '--spacefusion-lower-gpu=format=isa' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: spacefusion-opt %s -split-input-file '--spacefusion-pipeline=target=cpu' -o /dev/null \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=REMARK

// GPU: dynamic-named-ops.mlir:[[@LINE+6]]:8: error: 'linalg.fill' (from 'linalg.softmax') cannot be compiled for the GPU: it is outside every fusion graph and cannot run as a loop kernel: dynamic shape
// REMARK: dynamic-named-ops.mlir:[[@LINE+5]]:8: remark: [Missed] unsupported | Category:smap:form-graphs | Function=softmax | Remark="'linalg.fill' (from 'linalg.softmax') left outside any smap.graph: dynamic shape"
func.func @softmax(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d0) : tensor<?x128xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<?x128xf32>) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %s : tensor<?x128xf32>
}

// -----

// GPU: dynamic-named-ops.mlir:[[@LINE+3]]:8: error: 'linalg.generic' (from 'linalg.matmul') cannot be compiled for the GPU: it is outside every fusion graph and cannot run as a loop kernel: dynamic shape
// REMARK: dynamic-named-ops.mlir:[[@LINE+2]]:8: remark: [Missed] unsupported | Category:smap:form-graphs | Function=matmul | Remark="'linalg.generic' (from 'linalg.matmul') left outside any smap.graph: dynamic shape"
func.func @matmul(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>, %c: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x32xf32>) outs(%c : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}
