// Status: fixed in the 08:24 build (smap-analyze passes); a regression input.
// Fuzzer class: a graph all of whose dims have extent 1 -> crash in smap-analyze.
// Minimized from fuzz seed 239 (also seeds 42, 84, 289 with the 07:53 build).
// Command: spacefusion-opt --cse all-unit-dims.mlir | spacefusion-opt - --smap-form-graphs
//            --smap-set-target=target=cpu --smap-analyze
// Observed (07:53 build): SIGSEGV in llvm::hashing::detail::hash_combine_range_impl, from
//   mlir::smap::SpaceMappingGraph::getSpaceAttr (annotateGraph): a StringAttr built from a
//   dangling or empty dim name.
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @fuzz(%min1: tensor<1x1xf32>) -> (tensor<1x1xf32>) {
  %cst10 = arith.constant 0x7F800000 : f32
  %init9 = tensor.empty() : tensor<1xf32>
  %fill11 = linalg.fill ins(%cst10 : f32) outs(%init9 : tensor<1xf32>) -> tensor<1xf32>
  %red14 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction"]} ins(%min1 : tensor<1x1xf32>) outs(%fill11 : tensor<1xf32>) {
  ^bb0(%in11_0: f32, %out11_0: f32):
    %v13 = arith.minimumf %in11_0, %out11_0 : f32
    linalg.yield %v13 : f32
  } -> tensor<1xf32>
  %init15 = tensor.empty() : tensor<1x1xf32>
  %bc18 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel"]} ins(%min1, %red14 : tensor<1x1xf32>, tensor<1xf32>) outs(%init15 : tensor<1x1xf32>) {
  ^bb0(%in15_0: f32, %in15_1: f32, %out15_0: f32):
    %v17 = arith.subf %in15_0, %in15_1 : f32
    linalg.yield %v17 : f32
  } -> tensor<1x1xf32>
  return %bc18 : tensor<1x1xf32>
}
