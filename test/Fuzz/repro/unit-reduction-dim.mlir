// Status: fixed by 73cd641 (a reduction over a unit-extent loop reduces along no dim); now a
//   clean reject: "dim 'b' is parallel and cannot be sliced temporally". A regression input.
// Fuzzer class: a reduction over a dim of extent 1 -> the graph's first dim recorded as the
//   reduced one (temporal), and a forced temporal slice of it emits invalid IR.
// Minimized from fuzz seed 9 (also seeds 26, 36, 53, 113, 140, 168 with the 07:53 build: every
//   GEMM with k = 1 or norm over a unit dim; linalg.generic, linalg.matmul, linalg.batch_matmul).
// Command: spacefusion-opt --cse unit-reduction-dim.mlir | spacefusion-run - --reps=1 --temporal=b:8
// Observed (07:53 build): error: 'linalg.generic' op expected type of operand #1
//   ('tensor<128x1xf32>') to match type of corresponding result ('tensor<8x1xf32>'): the
//   verifier's, after smap-temporal-slice (gone with --verify-each=0): invalid IR.
#map0 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0)>
func.func @fuzz(%min1: tensor<128x1x1xf32>) -> (tensor<128x1x1xf32>) {
  %cst4 = arith.constant 0.000000e+00 : f32
  %init3 = tensor.empty() : tensor<128x1xf32>
  %fill5 = linalg.fill ins(%cst4 : f32) outs(%init3 : tensor<128x1xf32>) -> tensor<128x1xf32>
  %red9 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%min1 : tensor<128x1x1xf32>) outs(%fill5 : tensor<128x1xf32>) {
  ^bb0(%in5_0: f32, %out5_0: f32):
    %v7 = arith.mulf %in5_0, %in5_0 : f32
    %v8 = arith.addf %v7, %out5_0 : f32
    linalg.yield %v8 : f32
  } -> tensor<128x1xf32>
  %init21 = tensor.empty() : tensor<128x1x1xf32>
  %bc24 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel"]} ins(%min1, %red9 : tensor<128x1x1xf32>, tensor<128x1xf32>) outs(%init21 : tensor<128x1x1xf32>) {
  ^bb0(%in21_0: f32, %in21_1: f32, %out21_0: f32):
    %v23 = arith.mulf %in21_0, %in21_1 : f32
    linalg.yield %v23 : f32
  } -> tensor<128x1x1xf32>
  return %bc24 : tensor<128x1x1xf32>
}
