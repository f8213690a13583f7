// Status: fixed by 67af758 (now a clean reject on sm_90a); a regression input.
// Fuzzer class: zero-size dim -> crash in the GPU lowering of a row reduction.
// Minimized from fuzz seed 252 (also seed 86).
// Command: spacefusion-opt zero-size-dim-gpu-shuffle.mlir --spacefusion-pipeline=target=sm_90a -o /dev/null
// Observed: Segmentation fault (exit 139), stack top mlir::gpu::ShuffleOp::build.
//   (spacefusion-run on it crashes earlier, in estimateSchedule: zero-size-dim-schedule.mlir.)
func.func @fuzz(%arg0: tensor<16x0xf32>) -> (tensor<16x0xf32>) {
  %init1 = tensor.empty() : tensor<16x0xf32>
  %softmax2 = linalg.softmax dimension(1) ins(%arg0 : tensor<16x0xf32>) outs(%init1 : tensor<16x0xf32>) -> tensor<16x0xf32>
  return %softmax2 : tensor<16x0xf32>
}
