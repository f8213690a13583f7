// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics \
// RUN:   | spacefusion-opt -split-input-file --smap-analyze | FileCheck %s

// Named ops join a graph like their generic forms: elementwise (linalg.add,
// linalg.elementwise, linalg.map), linalg.reduce, and a matmul whose A operand
// is given transposed through its indexing maps. The dims are aligned across
// all of them: m and l are the rows and columns of every intermediate, k the
// matmul's reduction, and l is also the reduce's.

// CHECK-LABEL: func.func @named_ops
// CHECK: smap.graph
// CHECK-SAME: dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"l", 64, temporal>, #smap.dim<"k", 32, temporal>]
// CHECK: linalg.matmul
// CHECK-SAME: smap.space = #smap.space<"matmul0", ["m", "l", "k"], {{\[}}[#smap.mapping<"l", o2a>], [#smap.mapping<"m", o2a>]], [#smap.mapping<"k", a2o, add>]>
// CHECK: linalg.add {smap.space = #smap.space<"add1", ["m", "l"], {{\[\[}}], []], []>}
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<exp> {smap.space = #smap.space<"elementwise2", ["m", "l"], {{\[\[}}]], []>}
// CHECK: linalg.map
// CHECK-SAME: smap.space = #smap.space<"map3", ["m", "l"], {{\[\[}}]], []>
// CHECK: linalg.reduce
// CHECK-SAME: smap.space = #smap.space<"reduce4", ["m", "l"], {{\[\[}}]], [#smap.mapping<"l", a2o, add>]>
// CHECK: smap.yield
// CHECK-NOT: smap.graph
// CHECK: return
func.func @named_ops(%at: tensor<32x16xf32>, %b: tensor<32x64xf32>, %c: tensor<16x64xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  // expected-remark @below {{formed smap.graph of 7 ops (fill, matmul, add, elementwise, map, fill, reduce) with 3 inputs and 1 outputs}}
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%at, %b : tensor<32x16xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %add = linalg.add ins(%mm, %c : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ex = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%add : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %sq = linalg.map ins(%ex : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>)
    (%x: f32, %o: f32) {
      %s = arith.mulf %x, %x : f32
      linalg.yield %s : f32
    }
  %e1 = tensor.empty() : tensor<16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.reduce ins(%sq : tensor<16x64xf32>) outs(%f1 : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<16xf32>
}

// -----

// A batched matmul with B transposed ([b, n, k]), whose B is reshaped from a
// flat tensor and whose result is collapsed before a named elementwise op: the
// reshapes join the group and align the flat dims with b, n and m.

// CHECK-LABEL: func.func @reshapes
// CHECK-SAME: (%[[Q:.*]]: tensor<8x32x16xf32>, %[[KF:.*]]: tensor<256x16xf32>)
// CHECK: smap.graph(%[[GK:.*]] = %[[KF]] : tensor<256x16xf32>, %[[GQ:.*]] = %[[Q]] : tensor<8x32x16xf32>)
// CHECK-SAME: dims = [#smap.dim<"b", 8, parallel>, #smap.dim<"m", 32, parallel>, #smap.dim<"n", 32, parallel>, #smap.dim<"k", 16, temporal>]
// CHECK: %[[K:.*]] = tensor.expand_shape %[[GK]] {{.*}}smap.space = #smap.space<"expand_shape0", ["b", "n", "k"], {{\[\[}}]], []>
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-SAME: smap.space = #smap.space<"batch_matmul1", ["b", "m", "n", "k"], {{\[}}[#smap.mapping<"n", o2a>], [#smap.mapping<"m", o2a>]], [#smap.mapping<"k", a2o, add>]>
// CHECK-SAME: ins(%[[GQ]], %[[K]] :
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[S]] {{.*}}smap.space = #smap.space<"collapse_shape2", ["b", "m", "n"], {{\[\[}}]], []>
// CHECK: %[[N:.*]] = linalg.negf {smap.space = #smap.space<"negf3", ["b", "m", "n"], {{\[\[}}]], []>} ins(%[[C]] :
// CHECK: smap.yield %[[N]]
func.func @reshapes(%q: tensor<8x32x16xf32>, %kflat: tensor<256x16xf32>) -> tensor<256x32xf32> {
  %zero = arith.constant 0.0 : f32
  %k = tensor.expand_shape %kflat [[0, 1], [2]] output_shape [8, 32, 16] : tensor<256x16xf32> into tensor<8x32x16xf32>
  %e = tensor.empty() : tensor<8x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
  // expected-remark @below {{formed smap.graph of 5 ops (expand_shape, fill, batch_matmul, collapse_shape, negf) with 2 inputs and 1 outputs}}
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<8x32x16xf32>, tensor<8x32x16xf32>) outs(%f : tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
  %c = tensor.collapse_shape %s [[0, 1], [2]] : tensor<8x32x32xf32> into tensor<256x32xf32>
  %e2 = tensor.empty() : tensor<256x32xf32>
  %neg = linalg.negf ins(%c : tensor<256x32xf32>) outs(%e2 : tensor<256x32xf32>) -> tensor<256x32xf32>
  return %neg : tensor<256x32xf32>
}
