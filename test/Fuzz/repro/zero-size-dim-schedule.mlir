// Status: fixed by 67af758 (zero-size tensors stay outside every graph); a regression input.
// Fuzzer class: zero-size dim -> crash in smap-schedule.
// Minimized from fuzz seed 209 (also seeds 15, 86, 141, 247, 252: every zero-size-dim seed).
// Command: spacefusion-run zero-size-dim-schedule.mlir --reps=1
//   (also spacefusion-opt --spacefusion-pipeline=target=sm_90a zero-size-dim-schedule.mlir)
// Observed: "Floating point exception", exit 136 (SIGFPE): stack top
//   mlir::smap::estimateSchedule, from the smap-schedule pass. A tensor with a 0 extent
//   should be rejected with a diagnostic (or fused trivially), not divide by zero.
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @fuzz(%min2: tensor<0x16xf32>, %min3: tensor<16xf32>) -> (tensor<0x16xf32>) {
  %init18 = tensor.empty() : tensor<0x16xf32>
  %softmax21 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel"]} ins(%min2, %min3 : tensor<0x16xf32>, tensor<16xf32>) outs(%init18 : tensor<0x16xf32>) {
  ^bb0(%in18_0: f32, %in18_1: f32, %out18_0: f32):
    %v20 = arith.divf %in18_0, %in18_1 : f32
    linalg.yield %v20 : f32
  } -> tensor<0x16xf32>
  return %softmax21 : tensor<0x16xf32>
}
