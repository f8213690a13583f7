// LayerNorm over BERT-base's hidden dim (8192 tokens x 768),
// decomposed as torch-mlir writes aten.native_layer_norm.
// Form: mixed precision: bf16 storage, f32 math, arith.extf / arith.truncf
// inside the bodies.
func.func @layernorm(%x: tensor<8192x768xbf16>, %gamma: tensor<768xbf16>, %beta: tensor<768xbf16>) -> tensor<8192x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %eps = arith.constant 1.000000e-05 : f32
  %e1 = tensor.empty() : tensor<8192xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8192xf32>) -> tensor<8192xf32>
  %sum3 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8192x768xbf16>) outs(%f2 : tensor<8192xf32>) {
  ^bb0(%in4: bf16, %out5: f32):
    %x6 = arith.extf %in4 : bf16 to f32
    %v7 = arith.addf %x6, %out5 : f32
    linalg.yield %v7 : f32
  } -> tensor<8192xf32>
  %e8 = tensor.empty() : tensor<8192xf32>
  %mean9 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sum3 : tensor<8192xf32>) outs(%e8 : tensor<8192xf32>) {
  ^bb0(%in10: f32, %out11: f32):
    %v12 = arith.divf %in10, %n : f32
    linalg.yield %v12 : f32
  } -> tensor<8192xf32>
  %e13 = tensor.empty() : tensor<8192x768xf32>
  %centered14 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean9 : tensor<8192x768xbf16>, tensor<8192xf32>) outs(%e13 : tensor<8192x768xf32>) {
  ^bb0(%in15: bf16, %in16: f32, %out17: f32):
    %x18 = arith.extf %in15 : bf16 to f32
    %v19 = arith.subf %x18, %in16 : f32
    linalg.yield %v19 : f32
  } -> tensor<8192x768xf32>
  %e20 = tensor.empty() : tensor<8192x768xf32>
  %sq21 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%centered14 : tensor<8192x768xf32>) outs(%e20 : tensor<8192x768xf32>) {
  ^bb0(%in22: f32, %out23: f32):
    %v24 = arith.mulf %in22, %in22 : f32
    linalg.yield %v24 : f32
  } -> tensor<8192x768xf32>
  %e25 = tensor.empty() : tensor<8192xf32>
  %f26 = linalg.fill ins(%zero : f32) outs(%e25 : tensor<8192xf32>) -> tensor<8192xf32>
  %sqsum27 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq21 : tensor<8192x768xf32>) outs(%f26 : tensor<8192xf32>) {
  ^bb0(%in28: f32, %out29: f32):
    %v30 = arith.addf %in28, %out29 : f32
    linalg.yield %v30 : f32
  } -> tensor<8192xf32>
  %e31 = tensor.empty() : tensor<8192xf32>
  %rstd32 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sqsum27 : tensor<8192xf32>) outs(%e31 : tensor<8192xf32>) {
  ^bb0(%in33: f32, %out34: f32):
    %v35 = arith.divf %in33, %n : f32
    %v36 = arith.addf %v35, %eps : f32
    %v37 = math.rsqrt %v36 : f32
    linalg.yield %v37 : f32
  } -> tensor<8192xf32>
  %e38 = tensor.empty() : tensor<8192x768xbf16>
  %y39 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%centered14, %rstd32, %gamma, %beta : tensor<8192x768xf32>, tensor<8192xf32>, tensor<768xbf16>, tensor<768xbf16>) outs(%e38 : tensor<8192x768xbf16>) {
  ^bb0(%in40: f32, %in41: f32, %in42: bf16, %in43: bf16, %out44: bf16):
    %x45 = arith.extf %in42 : bf16 to f32
    %x46 = arith.extf %in43 : bf16 to f32
    %v47 = arith.mulf %in40, %in41 : f32
    %v48 = arith.mulf %v47, %x45 : f32
    %v49 = arith.addf %v48, %x46 : f32
    %t50 = arith.truncf %v49 : f32 to bf16
    linalg.yield %t50 : bf16
  } -> tensor<8192x768xbf16>
  return %y39 : tensor<8192x768xbf16>
}
