// BERT output block: dense + bias + residual, then LayerNorm over hidden=768.
//   X : tensor<4096x3072xf32>, W : tensor<3072x768xf32>, bias : tensor<768xf32>
//   R : tensor<4096x768xf32> (residual), gamma/beta : tensor<768xf32>
//   Mm = X . W                    [4096, 768]  (linalg.matmul)
//   H  = Mm + bias + R            [4096, 768]
//   Y  = LayerNorm_768(H) with eps 1e-12 (decomposed as in layernorm.mlir)
#map_2d  = affine_map<(r, c) -> (r, c)>
#map_row = affine_map<(r, c) -> (r)>
#map_col = affine_map<(r, c) -> (c)>
#map_1d  = affine_map<(r) -> (r)>

func.func @bert_output(%x: tensor<4096x3072xf32>, %w: tensor<3072x768xf32>,
                       %bias: tensor<768xf32>, %res: tensor<4096x768xf32>,
                       %gamma: tensor<768xf32>, %beta: tensor<768xf32>) -> tensor<4096x768xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 7.680000e+02 : f32
  %eps = arith.constant 9.99999996E-13 : f32

  // Mm = X . W
  %mm_init = tensor.empty() : tensor<4096x768xf32>
  %mm_zero = linalg.fill ins(%zero : f32) outs(%mm_init : tensor<4096x768xf32>) -> tensor<4096x768xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4096x3072xf32>, tensor<3072x768xf32>)
      outs(%mm_zero : tensor<4096x768xf32>) -> tensor<4096x768xf32>

  // Hb = Mm + bias
  %hb_init = tensor.empty() : tensor<4096x768xf32>
  %hb = linalg.generic {
      indexing_maps = [#map_2d, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<4096x768xf32>, tensor<768xf32>) outs(%hb_init : tensor<4096x768xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %r = arith.addf %in, %b : f32
    linalg.yield %r : f32
  } -> tensor<4096x768xf32>

  // H = Hb + R
  %h_init = tensor.empty() : tensor<4096x768xf32>
  %h = linalg.generic {
      indexing_maps = [#map_2d, #map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%hb, %res : tensor<4096x768xf32>, tensor<4096x768xf32>) outs(%h_init : tensor<4096x768xf32>) {
  ^bb0(%in: f32, %r0: f32, %out: f32):
    %r = arith.addf %in, %r0 : f32
    linalg.yield %r : f32
  } -> tensor<4096x768xf32>

  // Sum = rowsum(X)
  %sum_init = tensor.empty() : tensor<4096xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<4096xf32>) -> tensor<4096xf32>
  %sum = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<4096x768xf32>) outs(%sum_fill : tensor<4096xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4096xf32>

  // Mean = Sum / N
  %mean_init = tensor.empty() : tensor<4096xf32>
  %mean = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%sum : tensor<4096xf32>) outs(%mean_init : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.divf %in, %n : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>

  // D = X - Mean
  %d_init = tensor.empty() : tensor<4096x768xf32>
  %d = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%h, %mean : tensor<4096x768xf32>, tensor<4096xf32>) outs(%d_init : tensor<4096x768xf32>) {
  ^bb0(%in: f32, %mu: f32, %out: f32):
    %r = arith.subf %in, %mu : f32
    linalg.yield %r : f32
  } -> tensor<4096x768xf32>

  // Sq = D * D
  %sq_init = tensor.empty() : tensor<4096x768xf32>
  %sq = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<4096x768xf32>) outs(%sq_init : tensor<4096x768xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<4096x768xf32>

  // SqSum = rowsum(Sq)
  %sqsum_init = tensor.empty() : tensor<4096xf32>
  %sqsum_fill = linalg.fill ins(%zero : f32) outs(%sqsum_init : tensor<4096xf32>) -> tensor<4096xf32>
  %sqsum = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<4096x768xf32>) outs(%sqsum_fill : tensor<4096xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4096xf32>

  // Var = SqSum / N
  %var_init = tensor.empty() : tensor<4096xf32>
  %var = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%sqsum : tensor<4096xf32>) outs(%var_init : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.divf %in, %n : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>

  // VarEps = Var + eps
  %vareps_init = tensor.empty() : tensor<4096xf32>
  %vareps = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%var : tensor<4096xf32>) outs(%vareps_init : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %eps : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>

  // Rstd = rsqrt(VarEps)
  %rstd_init = tensor.empty() : tensor<4096xf32>
  %rstd = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%vareps : tensor<4096xf32>) outs(%rstd_init : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.rsqrt %in : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>

  // Norm = D * Rstd
  %norm_init = tensor.empty() : tensor<4096x768xf32>
  %norm = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%d, %rstd : tensor<4096x768xf32>, tensor<4096xf32>) outs(%norm_init : tensor<4096x768xf32>) {
  ^bb0(%in: f32, %rs: f32, %out: f32):
    %r = arith.mulf %in, %rs : f32
    linalg.yield %r : f32
  } -> tensor<4096x768xf32>

  // Scaled = Norm * gamma
  %scaled_init = tensor.empty() : tensor<4096x768xf32>
  %scaled = linalg.generic {
      indexing_maps = [#map_2d, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%norm, %gamma : tensor<4096x768xf32>, tensor<768xf32>) outs(%scaled_init : tensor<4096x768xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %r = arith.mulf %in, %g : f32
    linalg.yield %r : f32
  } -> tensor<4096x768xf32>

  // Y = Scaled + beta
  %y_init = tensor.empty() : tensor<4096x768xf32>
  %y = linalg.generic {
      indexing_maps = [#map_2d, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%scaled, %beta : tensor<4096x768xf32>, tensor<768xf32>) outs(%y_init : tensor<4096x768xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %r = arith.addf %in, %b : f32
    linalg.yield %r : f32
  } -> tensor<4096x768xf32>

  return %y : tensor<4096x768xf32>
}
