// A reduction that starts from a graph input (a bias as its computed init)
// and is a graph result: bufferization copies the input into a block
// buffer before accumulating, so the simt block's shared memory counts that
// buffer too. The schedule predicted 400 bytes (the tanh tile only) and
// smap-distribute-blocks refused the 416 it placed (fuzz seed 1004, through
// a split's merge graph).
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: error
// CHECK: chosen | Category:smap:schedule | Function=tanh_dot_into_bias | Remark="scheduled for sm_90a: spatial [m=1] temporal [], strategy simt, 128 blocks x 32 threads, [[SMEM:[0-9]+]] B shared memory
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=tanh_dot_into_bias | Remark="lowered to one kernel: strategy=simt blocks=128 threads=32 smem=[[SMEM]]
// CHECK-NOT: error
#ml = affine_map<(m, l) -> (m, l)>
#l = affine_map<(m, l) -> (l)>
#m = affine_map<(m, l) -> (m)>
func.func @tanh_dot_into_bias(%x: tensor<128x100xf32>, %w: tensor<100xf32>, %bias: tensor<128xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128x100xf32>
  %t = linalg.generic {indexing_maps = [#ml, #ml], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x100xf32>) outs(%e : tensor<128x100xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<128x100xf32>
  %r = linalg.generic {indexing_maps = [#ml, #l, #m], iterator_types = ["parallel", "reduction"]}
      ins(%t, %w : tensor<128x100xf32>, tensor<100xf32>) outs(%bias : tensor<128xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
