// The reference computes in f64. LayerNorm of inputs near 100 in f32: the
// unfused program's row sums of 1024 values near 100 lose about 1e-4 of
// the output; the fused one, sliced along n with Chan's combination, sums
// 128 at a time and is several times closer to the exact result. Against
// the f32 reference the fused program was called wrong; against f64 it
// passes, and the unfused program's own error is printed.

// RUN: spacefusion-run %s --reps=1 --temporal=n:128 | FileCheck %s
// RUN: not spacefusion-run %s --reps=1 --temporal=n:128 --reference=native | FileCheck %s --check-prefix=NATIVE

// CHECK: @layernorm_offset on cpu
// CHECK: temporally sliced
// CHECK: unfused against the f64 reference: max abs error 1.{{[0-9]+}}E-04
// CHECK: max abs error {{[1-5]\.[0-9]+}}E-05, {{.*}} against the f64 reference (f32: atol 2.0E-05 x max|ref|, rtol 1.0E-04), out of tolerance: #0 0 of 16384: PASS

// NATIVE: max abs error 1.{{[0-9]+}}E-04, {{.*}} against the native reference (f32: atol 2.0E-05 x max|ref|, rtol 1.0E-04), out of tolerance: #0 {{[1-9][0-9]*}} of 16384 first at [{{[0-9]+}}, {{[0-9]+}}]: FAIL

// LayerNorm of X + 100 (the offset added in the function).
//   X     : tensor<16x1024xf32>  [r, c]
//   gamma : tensor<1024xf32>, beta : tensor<1024xf32>
//   mean = sum_c(X) / 1024            [r]
//   D    = X - mean                   [r, c]
//   var  = sum_c(D * D) / 1024        [r]
//   rstd = rsqrt(var + 1e-5)          [r]
//   Y    = D * rstd * gamma + beta    [r, c]
#map_2d  = affine_map<(r, c) -> (r, c)>
#map_row = affine_map<(r, c) -> (r)>
#map_col = affine_map<(r, c) -> (c)>
#map_1d  = affine_map<(r) -> (r)>

func.func @layernorm_offset(%x: tensor<16x1024xf32>, %gamma: tensor<1024xf32>,
                     %beta: tensor<1024xf32>) -> tensor<16x1024xf32> {
  %off = arith.constant 1.0e+02 : f32
  %xo_init = tensor.empty() : tensor<16x1024xf32>
  %xo = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x1024xf32>) outs(%xo_init : tensor<16x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %off : f32
    linalg.yield %r : f32
  } -> tensor<16x1024xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 1.024000e+03 : f32
  %eps = arith.constant 9.99999974E-6 : f32

  // Sum = rowsum(X)
  %sum_init = tensor.empty() : tensor<16xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%xo : tensor<16x1024xf32>) outs(%sum_fill : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>

  // Mean = Sum / N
  %mean_init = tensor.empty() : tensor<16xf32>
  %mean = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%mean_init : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.divf %in, %n : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>

  // D = X - Mean
  %d_init = tensor.empty() : tensor<16x1024xf32>
  %d = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%xo, %mean : tensor<16x1024xf32>, tensor<16xf32>) outs(%d_init : tensor<16x1024xf32>) {
  ^bb0(%in: f32, %mu: f32, %out: f32):
    %r = arith.subf %in, %mu : f32
    linalg.yield %r : f32
  } -> tensor<16x1024xf32>

  // Sq = D * D
  %sq_init = tensor.empty() : tensor<16x1024xf32>
  %sq = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<16x1024xf32>) outs(%sq_init : tensor<16x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<16x1024xf32>

  // SqSum = rowsum(Sq)
  %sqsum_init = tensor.empty() : tensor<16xf32>
  %sqsum_fill = linalg.fill ins(%zero : f32) outs(%sqsum_init : tensor<16xf32>) -> tensor<16xf32>
  %sqsum = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x1024xf32>) outs(%sqsum_fill : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>

  // Var = SqSum / N
  %var_init = tensor.empty() : tensor<16xf32>
  %var = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%sqsum : tensor<16xf32>) outs(%var_init : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.divf %in, %n : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>

  // VarEps = Var + eps
  %vareps_init = tensor.empty() : tensor<16xf32>
  %vareps = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%var : tensor<16xf32>) outs(%vareps_init : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %eps : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>

  // Rstd = rsqrt(VarEps)
  %rstd_init = tensor.empty() : tensor<16xf32>
  %rstd = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%vareps : tensor<16xf32>) outs(%rstd_init : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.rsqrt %in : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>

  // Norm = D * Rstd
  %norm_init = tensor.empty() : tensor<16x1024xf32>
  %norm = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%d, %rstd : tensor<16x1024xf32>, tensor<16xf32>) outs(%norm_init : tensor<16x1024xf32>) {
  ^bb0(%in: f32, %rs: f32, %out: f32):
    %r = arith.mulf %in, %rs : f32
    linalg.yield %r : f32
  } -> tensor<16x1024xf32>

  // Scaled = Norm * gamma
  %scaled_init = tensor.empty() : tensor<16x1024xf32>
  %scaled = linalg.generic {
      indexing_maps = [#map_2d, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%norm, %gamma : tensor<16x1024xf32>, tensor<1024xf32>) outs(%scaled_init : tensor<16x1024xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %r = arith.mulf %in, %g : f32
    linalg.yield %r : f32
  } -> tensor<16x1024xf32>

  // Y = Scaled + beta
  %y_init = tensor.empty() : tensor<16x1024xf32>
  %y = linalg.generic {
      indexing_maps = [#map_2d, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%scaled, %beta : tensor<16x1024xf32>, tensor<1024xf32>) outs(%y_init : tensor<16x1024xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %r = arith.addf %in, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x1024xf32>

  return %y : tensor<16x1024xf32>
}

