// Status: fixed (09:00 build, 2026-12-01): 16-bit values are shuffled extended to f32 (test/Pipelines/lower-gpu-16bit-shuffle.mlir).
// Fuzzer class: the sm_90a row kernel of a 16-bit reduction shuffles a 16-bit value.
// Minimized from fuzz seed 526: one linalg.softmax over a 7-element bf16 vector.
// Command: spacefusion-opt 16bit-softmax-gpu-shuffle.mlir --spacefusion-pipeline=target=sm_90a -o /dev/null
// Observed: error: 'nvvm.shfl.sync' op operand #1 must be 32-bit signless integer or 32-bit
//   float, but got 'bf16': the verifier's, after a pass of the GPU lowering (the pipeline
//   goes through with --verify-each=0): invalid IR. The same module in f16 fails the same way ('f16').
//   The shuffle needs the value extended to f32 (or bitcast into an i32).
#map0 = affine_map<(d0) -> (d0)>
func.func @fuzz(%min2: tensor<7xbf16>) -> (tensor<7xbf16>) {
  %init18 = tensor.empty() : tensor<7xbf16>
  %softmax19 = linalg.softmax dimension(0) ins(%min2 : tensor<7xbf16>) outs(%init18 : tensor<7xbf16>) -> tensor<7xbf16>
  return %softmax19 : tensor<7xbf16>
}
