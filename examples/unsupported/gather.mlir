// UNSUPPORTED: data-dependent indexing (gather). Embedding lookup written as a
// linalg.generic that reads the table with tensor.extract, followed by an
// elementwise affine (LayerNorm-style scale and shift).
//   Ids   : tensor<512xi64>          token ids
//   Table : tensor<30522x256xf32>    embedding table [vocab, d]
//   gamma, beta : tensor<256xf32>
//   E = Table[Ids[t], d]             tensor<512x256xf32>
//   Y = E * gamma + beta             tensor<512x256xf32>
#map_ids = affine_map<(t, d) -> (t)>
#map_2d  = affine_map<(t, d) -> (t, d)>
#map_col = affine_map<(t, d) -> (d)>

func.func @gather(%ids: tensor<512xi64>, %table: tensor<30522x256xf32>,
                  %gamma: tensor<256xf32>, %beta: tensor<256xf32>) -> tensor<512x256xf32> {
  // E = Table[Ids]
  %e_init = tensor.empty() : tensor<512x256xf32>
  %e = linalg.generic {
      indexing_maps = [#map_ids, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<512xi64>) outs(%e_init : tensor<512x256xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<30522x256xf32>
    linalg.yield %v : f32
  } -> tensor<512x256xf32>

  // Y = E * gamma + beta
  %y_init = tensor.empty() : tensor<512x256xf32>
  %y = linalg.generic {
      indexing_maps = [#map_2d, #map_col, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%e, %gamma, %beta : tensor<512x256xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%y_init : tensor<512x256xf32>) {
  ^bb0(%in: f32, %g: f32, %b: f32, %out: f32):
    %t = arith.mulf %in, %g : f32
    %r = arith.addf %t, %b : f32
    linalg.yield %r : f32
  } -> tensor<512x256xf32>

  return %y : tensor<512x256xf32>
}
