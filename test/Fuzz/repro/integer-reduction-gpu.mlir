// Status: fixed by 67af758 (integer reductions stay outside graphs; now a clean reject on sm_90a).
// Fuzzer class: integer reduction on the GPU path -> crash.
// Minimized from fuzz seed 309 (also 395; outside CTest's seed range 0-299).
// Command: spacefusion-opt integer-reduction-gpu.mlir --spacefusion-pipeline=target=sm_90a -o /dev/null
// Observed: Segmentation fault (exit 139): mlir::FloatType::getFloatSemantics called from
//   mlir::smap::getCombinerIdentity: the identity of an arith.addi sum is built as a float.
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @fuzz(%min1: tensor<3x100xi32>) -> (tensor<3xi32>) {
  %cst6 = arith.constant 0 : i32
  %init5 = tensor.empty() : tensor<3xi32>
  %fill7 = linalg.fill ins(%cst6 : i32) outs(%init5 : tensor<3xi32>) -> tensor<3xi32>
  %ired10 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction"]} ins(%min1 : tensor<3x100xi32>) outs(%fill7 : tensor<3xi32>) {
  ^bb0(%in7_0: i32, %out7_0: i32):
    %v9 = arith.addi %in7_0, %out7_0 : i32
    linalg.yield %v9 : i32
  } -> tensor<3xi32>
  return %ired10 : tensor<3xi32>
}
