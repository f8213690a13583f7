// RUN: spacefusion-opt %s --smap-spatial-slice -verify-diagnostics -o /dev/null

// A dims attribute written by hand that calls a reduced dim parallel: the
// spatial slicer checks the schedule against the graph as it analyzes it,
// and refuses to slice the row sum's dim spatially (it trusted the
// attribute: every row summed to its tile, softmax-like rows summed to 4).

#mn = affine_map<(m, n) -> (m, n)>
#m = affine_map<(m, n) -> (m)>
func.func @lying_dims(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{smap-spatial-slice: the schedule does not fit the graph: dim 'n' is temporal and cannot be sliced spatially}}
  %0 = smap.graph(%ax = %x : tensor<4x64xf32>) -> (tensor<4x64xf32>) attributes {dims = [#smap.dim<"m", 4, parallel>, #smap.dim<"n", 64, parallel>], schedule = #smap.schedule<spatial = [n = 16], temporal = [], grid = [4], threads = 1, smem = 0, regs = 0>} {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %s = linalg.generic {indexing_maps = [#mn, #m], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<4x64xf32>) outs(%f : tensor<4xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %a = arith.addf %v, %acc : f32
      linalg.yield %a : f32
    } -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4x64xf32>
    %y = linalg.generic {indexing_maps = [#mn, #m, #mn], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %s : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
    ^bb0(%v: f32, %t: f32, %o: f32):
      %r = arith.divf %v, %t : f32
      linalg.yield %r : f32
    } -> tensor<4x64xf32>
    smap.yield %y : tensor<4x64xf32>
  }
  return %0 : tensor<4x64xf32>
}
