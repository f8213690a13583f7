// Functions in the forms other projects' lowerings emit, written for this
// test after reading them (the file each imitates is named in its part):
// torch-mlir's TorchToLinalg (convolution, embedding, argmax, reductions),
// IREE's GlobalOptimization / DispatchCreation inputs and upstream MLIR's
// linalg tests (pads, named maps and reduces, transposes and broadcasts).
// Each is run fused and unfused on the CPU against the f64 reference, and
// compiled through the whole GPU lowering to PTX (no crash, no invalid IR).
// Found by an external-IR sweep of 40 such cases (all passed; the one
// failure, a reshape merging every dim, is test/Pipelines/cpu-unfused-merged-dims.mlir).
//
// RUN: split-file %s %t
// RUN: spacefusion-run %t/conv2d_nhwc_relu.mlir | FileCheck %s --check-prefix=CONV2D-NHWC-RELU
// RUN: spacefusion-opt %t/conv2d_nhwc_relu.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/pad_then_add.mlir | FileCheck %s --check-prefix=PAD-THEN-ADD
// RUN: spacefusion-opt %t/pad_then_add.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/embedding_gather.mlir | FileCheck %s --check-prefix=EMBEDDING-GATHER
// RUN: spacefusion-opt %t/embedding_gather.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/argmax_index.mlir | FileCheck %s --check-prefix=ARGMAX-INDEX
// RUN: spacefusion-opt %t/argmax_index.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/sum_all_0d.mlir | FileCheck %s --check-prefix=SUM-ALL-0D
// RUN: spacefusion-opt %t/sum_all_0d.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/col_reduce_mean.mlir | FileCheck %s --check-prefix=COL-REDUCE-MEAN
// RUN: spacefusion-opt %t/col_reduce_mean.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/two_output_moments.mlir | FileCheck %s --check-prefix=TWO-OUTPUT-MOMENTS
// RUN: spacefusion-opt %t/two_output_moments.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/matvec.mlir | FileCheck %s --check-prefix=MATVEC
// RUN: spacefusion-opt %t/matvec.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/elementwise_transpose_broadcast.mlir | FileCheck %s --check-prefix=ELEMENTWISE-TRANSPOSE-BROADCAST
// RUN: spacefusion-opt %t/elementwise_transpose_broadcast.mlir --spacefusion-lower-gpu=format=isa -o /dev/null
// RUN: spacefusion-run %t/softmax_reduce_map.mlir | FileCheck %s --check-prefix=SOFTMAX-REDUCE-MAP
// RUN: spacefusion-opt %t/softmax_reduce_map.mlir --spacefusion-lower-gpu=format=isa -o /dev/null

// CONV2D-NHWC-RELU: @conv2d_nhwc_relu on cpu, 1 fusion graph(s):
// CONV2D-NHWC-RELU: out of tolerance: {{.*}}: PASS
// PAD-THEN-ADD: @pad_then_add on cpu, 1 fusion graph(s):
// PAD-THEN-ADD: out of tolerance: {{.*}}: PASS
// EMBEDDING-GATHER: @embedding_gather on cpu, 0 fusion graph(s):
// EMBEDDING-GATHER: out of tolerance: {{.*}}: PASS
// ARGMAX-INDEX: @argmax_index on cpu, 0 fusion graph(s):
// ARGMAX-INDEX: out of tolerance: {{.*}}: PASS
// SUM-ALL-0D: @sum_all_0d on cpu, 1 fusion graph(s):
// SUM-ALL-0D: out of tolerance: {{.*}}: PASS
// COL-REDUCE-MEAN: @col_reduce_mean on cpu, 1 fusion graph(s):
// COL-REDUCE-MEAN: out of tolerance: {{.*}}: PASS
// TWO-OUTPUT-MOMENTS: @two_output_moments on cpu, 1 fusion graph(s):
// TWO-OUTPUT-MOMENTS: out of tolerance: {{.*}}: PASS
// MATVEC: @matvec on cpu, 1 fusion graph(s):
// MATVEC: out of tolerance: {{.*}}: PASS
// ELEMENTWISE-TRANSPOSE-BROADCAST: @elementwise_transpose_broadcast on cpu, 1 fusion graph(s):
// ELEMENTWISE-TRANSPOSE-BROADCAST: out of tolerance: {{.*}}: PASS
// SOFTMAX-REDUCE-MAP: @softmax_reduce_map on cpu, 1 fusion graph(s):
// SOFTMAX-REDUCE-MAP: out of tolerance: {{.*}}: PASS

//--- conv2d_nhwc_relu.mlir
// Inspired by: llvm/torch-mlir test/Conversion/TorchToLinalg/convolution.mlir (conv as linalg.conv_2d_nhwc_hwcf, then relu)
#m4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @conv2d_nhwc_relu(%x: tensor<1x34x34x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x34x34x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  %r = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x32x32x32xf32>) outs(%e : tensor<1x32x32x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.maximumf %v, %zero : f32
    linalg.yield %y : f32
  } -> tensor<1x32x32x32xf32>
  return %r : tensor<1x32x32x32xf32>
}

//--- pad_then_add.mlir
// Inspired by: llvm/torch-mlir TorchToLinalg datamovement.mlir (aten.constant_pad_nd as tensor.pad) followed by an elementwise generic
#m2 = affine_map<(i, j) -> (i, j)>
func.func @pad_then_add(%x: tensor<60x120xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[2, 4] high[2, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<60x120xf32> to tensor<64x128xf32>
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%p, %y : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

//--- embedding_gather.mlir
// Inspired by: llvm/torch-mlir TorchToLinalg (aten.embedding: generic with tensor.extract on the table at an index read from the ids)
#m2 = affine_map<(i, j) -> (i)>
#mo = affine_map<(i, j) -> (i, j)>
func.func @embedding_gather(%table: tensor<1000x64xf32>, %ids: tensor<128xi64>) -> tensor<128x64xf32> {
  %e = tensor.empty() : tensor<128x64xf32>
  %r = linalg.generic {indexing_maps = [#m2, #mo], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<128xi64>) outs(%e : tensor<128x64xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%row, %j] : tensor<1000x64xf32>
    linalg.yield %v : f32
  } -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

//--- argmax_index.mlir
// Inspired by: llvm/torch-mlir test/Conversion/TorchToLinalg/reduction.mlir (aten.argmax / max.dim: two-result reduction with linalg.index and select)
#m2 = affine_map<(i, j) -> (i, j)>
#mr = affine_map<(i, j) -> (i)>
func.func @argmax_index(%x: tensor<256x1000xf32>) -> (tensor<256xf32>, tensor<256xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %re = tensor.empty() : tensor<256xf32>
  %ri = tensor.empty() : tensor<256xi64>
  %mf = linalg.fill ins(%ninf : f32) outs(%re : tensor<256xf32>) -> tensor<256xf32>
  %if = linalg.fill ins(%c0 : i64) outs(%ri : tensor<256xi64>) -> tensor<256xi64>
  %r:2 = linalg.generic {indexing_maps = [#m2, #mr, #mr], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x1000xf32>) outs(%mf, %if : tensor<256xf32>, tensor<256xi64>) {
  ^bb0(%a: f32, %m: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ji, %idx : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<256xf32>, tensor<256xi64>)
  return %r#0, %r#1 : tensor<256xf32>, tensor<256xi64>
}

//--- sum_all_0d.mlir
// Inspired by: llvm/torch-mlir test/Conversion/TorchToLinalg/reduction.mlir (aten.sum with no dims: reduction into a 0-d tensor)
func.func @sum_all_0d(%x: tensor<128x256xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<128x256xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

//--- col_reduce_mean.mlir
// Inspired by: llvm/torch-mlir TorchToLinalg reduction (aten.mean over dim 0: reduction on the outer dim, output indexed by the inner dim)
#m2 = affine_map<(i, j) -> (i, j)>
#mc = affine_map<(i, j) -> (j)>
func.func @col_reduce_mean(%x: tensor<1024x96xf32>) -> tensor<96xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %re = tensor.empty() : tensor<96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%re : tensor<96xf32>) -> tensor<96xf32>
  %s = linalg.generic {indexing_maps = [#m2, #mc], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<1024x96xf32>) outs(%f : tensor<96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<96xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<96xf32>) outs(%re : tensor<96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<96xf32>
  return %m : tensor<96xf32>
}

//--- two_output_moments.mlir
// Inspired by: iree-org/iree DispatchCreation tests (multi-result reduction generic computing sum and sum of squares in one op)
#m2 = affine_map<(i, j) -> (i, j)>
#mr = affine_map<(i, j) -> (i)>
func.func @two_output_moments(%x: tensor<384x768xf32>) -> (tensor<384xf32>, tensor<384xf32>) {
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : tensor<384xf32>
  %f = linalg.fill ins(%zero : f32) outs(%re : tensor<384xf32>) -> tensor<384xf32>
  %r:2 = linalg.generic {indexing_maps = [#m2, #mr, #mr], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<384x768xf32>) outs(%f, %f : tensor<384xf32>, tensor<384xf32>) {
  ^bb0(%a: f32, %s: f32, %q: f32):
    %s1 = arith.addf %a, %s : f32
    %a2 = arith.mulf %a, %a : f32
    %q1 = arith.addf %a2, %q : f32
    linalg.yield %s1, %q1 : f32, f32
  } -> (tensor<384xf32>, tensor<384xf32>)
  return %r#0, %r#1 : tensor<384xf32>, tensor<384xf32>
}

//--- matvec.mlir
// Inspired by: iree-org/iree Codegen/SPIRV/test/generalize_named_ops.mlir (@matvec: fill + linalg.matvec)
func.func @matvec(%a: tensor<2048x512xf32>, %x: tensor<512xf32>) -> tensor<2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2048xf32>) -> tensor<2048xf32>
  %r = linalg.matvec ins(%a, %x : tensor<2048x512xf32>, tensor<512xf32>) outs(%f : tensor<2048xf32>) -> tensor<2048xf32>
  return %r : tensor<2048xf32>
}

//--- elementwise_transpose_broadcast.mlir
// Inspired by: llvm/llvm-project mlir/test/Dialect/Linalg/elementwise/generalize-named-ops.mlir (@unary_transpose_broadcast_tanh, @binary_transpose_a_broadcast_b)
func.func @elementwise_transpose_broadcast(%a: tensor<96x48xf32>, %b: tensor<48xf32>) -> tensor<16x48x96xf32> {
  %e = tensor.empty() : tensor<48x96xf32>
  %s = linalg.elementwise kind=#linalg.elementwise_kind<add>
       indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>]
       ins(%a, %b : tensor<96x48xf32>, tensor<48xf32>) outs(%e : tensor<48x96xf32>) -> tensor<48x96xf32>
  %e2 = tensor.empty() : tensor<16x48x96xf32>
  %t = linalg.elementwise kind=#linalg.elementwise_kind<tanh>
       indexing_maps = [affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>]
       ins(%s : tensor<48x96xf32>) outs(%e2 : tensor<16x48x96xf32>) -> tensor<16x48x96xf32>
  return %t : tensor<16x48x96xf32>
}

//--- softmax_reduce_map.mlir
// Inspired by: bytedance/byteir test/Conversion/ToLinalg/LinalgExtToLinalg.mlir (softmax as linalg.reduce + broadcasting generics)
#m2 = affine_map<(i, j) -> (i, j)>
#mr = affine_map<(i, j) -> (i)>
func.func @softmax_reduce_map(%x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : tensor<256xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%re : tensor<256xf32>) -> tensor<256xf32>
  %mx = linalg.reduce ins(%x : tensor<256x512xf32>) outs(%mf : tensor<256xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %m = arith.maximumf %in, %init : f32
      linalg.yield %m : f32
    }
  %e = tensor.empty() : tensor<256x512xf32>
  %ex = linalg.generic {indexing_maps = [#m2, #mr, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<256x512xf32>, tensor<256xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    %v = math.exp %s : f32
    linalg.yield %v : f32
  } -> tensor<256x512xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%re : tensor<256xf32>) -> tensor<256xf32>
  %sm = linalg.reduce ins(%ex : tensor<256x512xf32>) outs(%sf : tensor<256xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %y = linalg.generic {indexing_maps = [#m2, #mr, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm : tensor<256x512xf32>, tensor<256xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<256x512xf32>
  return %y : tensor<256x512xf32>
}
