// A bf16 cross attention in the frontend form (16 queries against 1024
// keys, d128) split along the head dim k into 2 parts: the partial graph is
// a lone Q.K^T GEMM (both operands K-major) whose f32 partial scores are a
// graph output. The row-fragment lowering accumulates only into a row tile
// the block allocates, so the cost model must not predict row_fragments for
// it (it did, and smap-distribute-blocks refused the schedule).
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa split=k:2' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %s --cse --linalg-fuse-elementwise-ops \
// RUN:   | spacefusion-opt '--spacefusion-lower-gpu=format=isa split=k:2' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: error
// CHECK: split | Category:smap:schedule | Function=attention | Remark="split dim 'k' (128) into 2 parts
// CHECK-NOT: strategy=row_fragments
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=attention | Remark="lowered to one kernel: strategy={{[a-z_]+}} blocks=
// CHECK-NOT: strategy=row_fragments
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=attention | Remark="lowered to one kernel: strategy=
// CHECK-NOT: error
func.func @attention(%q: tensor<1x2x16x128xbf16>, %k: tensor<1x2x1024x128xbf16>, %v: tensor<1x2x1024x128xbf16>) -> tensor<1x2x16x128xbf16> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x16x1024xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x16x1024xf32>) -> tensor<1x2x16x1024xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x16x128xbf16>, tensor<1x2x1024x128xbf16>) outs(%f2 : tensor<1x2x16x1024xf32>) {
  ^bb0(%in0: bf16, %in1: bf16, %acc: f32):
    %x = arith.extf %in0 : bf16 to f32
    %w = arith.extf %in1 : bf16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x1024xf32>
  %c5 = arith.constant 8.838834765e-02 : f32
  %e6 = tensor.empty() : tensor<1x2x16x1024xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x16x1024xf32>) outs(%e6 : tensor<1x2x16x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x1024xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x16xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x16x1024xf32>) outs(%f9 : tensor<1x2x16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16xf32>
  %e12 = tensor.empty() : tensor<1x2x16x1024xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x16x1024xf32>, tensor<1x2x16xf32>) outs(%e12 : tensor<1x2x16x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x1024xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x16xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x16x1024xf32>) outs(%f15 : tensor<1x2x16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16xf32>
  %e18 = tensor.empty() : tensor<1x2x16x1024xbf16>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x16x1024xf32>, tensor<1x2x16xf32>) outs(%e18 : tensor<1x2x16x1024xbf16>) {
  ^bb0(%in0: f32, %in1: f32, %acc: bf16):
    %r = arith.divf %in0, %in1 : f32
    %y = arith.truncf %r : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<1x2x16x1024xbf16>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x16x128xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x16x128xf32>) -> tensor<1x2x16x128xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x16x1024xbf16>, tensor<1x2x1024x128xbf16>) outs(%f21 : tensor<1x2x16x128xf32>) {
  ^bb0(%in0: bf16, %in1: bf16, %acc: f32):
    %x = arith.extf %in0 : bf16 to f32
    %w = arith.extf %in1 : bf16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x128xf32>
  %e24 = tensor.empty() : tensor<1x2x16x128xbf16>
  %g25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g23 : tensor<1x2x16x128xf32>) outs(%e24 : tensor<1x2x16x128xbf16>) {
  ^bb0(%in0: f32, %acc: bf16):
    %y = arith.truncf %in0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<1x2x16x128xbf16>
  return %g25 : tensor<1x2x16x128xbf16>
}
