#map0 = affine_map<(d0, d1) -> (d0, d1)>
func.func @index_tensor(%x: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %ei = tensor.empty() : tensor<16x8xindex>
  %wide = linalg.generic {indexing_maps = [#map0], iterator_types = ["parallel", "parallel"]}
      outs(%ei : tensor<16x8xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    linalg.yield %k : index
  } -> tensor<16x8xindex>
  // Read through a slice (not by a generic): left an index tensor.
  %iota = tensor.extract_slice %wide[0, 0] [16, 4] [1, 2] : tensor<16x8xindex> to tensor<16x4xindex>
  %e = tensor.empty() : tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel"]}
      ins(%x, %iota : tensor<16x4xf32>, tensor<16x4xindex>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%v: f32, %i: index, %o: f32):
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %m = arith.mulf %v, %f : f32
    linalg.yield %m : f32
  } -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}
