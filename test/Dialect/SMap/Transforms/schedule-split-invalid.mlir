// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs \
// RUN:   --smap-set-target=target=cpu --smap-analyze '--smap-schedule=split=n:4' \
// RUN:   -verify-diagnostics -o /dev/null
// RUN: not spacefusion-opt %s -split-input-file --smap-form-graphs \
// RUN:   --smap-set-target=target=cpu --smap-analyze '--smap-schedule=split=l:3' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARTS
// RUN: not spacefusion-opt %s -split-input-file --smap-form-graphs \
// RUN:   --smap-set-target=target=cpu --smap-analyze '--smap-schedule=split=l:4,k:2' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=ENTRIES

// PARTS: error: smap-schedule: cannot split dim 'l' into 3 parts: dim 'l' (256) is not a multiple of 3 parts
// ENTRIES: error: smap-schedule: split takes one dim:parts entry

// Splits the graph cannot take are errors that say why.

// Attention's head dim n is not reduced: there is nothing to split.
#mk = affine_map<(m, l, k) -> (m, k)>
#lk = affine_map<(m, l, k) -> (l, k)>
#ml3 = affine_map<(m, l, k) -> (m, l)>
#ml = affine_map<(m, l) -> (m, l)>
#m = affine_map<(m, l) -> (m)>
func.func @attention(%q: tensor<16x8xf32>, %k: tensor<256x8xf32>, %v: tensor<256x4xf32>) -> tensor<16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e_ml = tensor.empty() : tensor<16x256xf32>
  %e_m = tensor.empty() : tensor<16xf32>
  %e_mn = tensor.empty() : tensor<16x4xf32>
  %f_qk = linalg.fill ins(%zero : f32) outs(%e_ml : tensor<16x256xf32>) -> tensor<16x256xf32>
  // expected-error @below {{cannot split dim 'n': it is parallel_recompute}}
  %qk = linalg.matmul indexing_maps = [#mk, #lk, #ml3]
      ins(%q, %k : tensor<16x8xf32>, tensor<256x8xf32>) outs(%f_qk : tensor<16x256xf32>) -> tensor<16x256xf32>
  %f_max = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
  %max = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
      ins(%qk : tensor<16x256xf32>) outs(%f_max : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %exp = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
      ins(%qk, %max : tensor<16x256xf32>, tensor<16xf32>) outs(%e_ml : tensor<16x256xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<16x256xf32>
  %f_sum = linalg.fill ins(%zero : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<16x256xf32>) outs(%f_sum : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %p = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<16x256xf32>, tensor<16xf32>) outs(%e_ml : tensor<16x256xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.divf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<16x256xf32>
  %f_out = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<16x4xf32>) -> tensor<16x4xf32>
  %out = linalg.matmul ins(%p, %v : tensor<16x256xf32>, tensor<256x4xf32>) outs(%f_out : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %out : tensor<16x4xf32>
}

// -----

// A LayerNorm's output is indexed by the dim its statistics reduce: no part
// can finish it, so the dim is not split (the error names the op).
#rn = affine_map<(r, n) -> (r, n)>
#r = affine_map<(r, n) -> (r)>
func.func @layernorm(%x: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 3.906250e-03 : f32
  %e_r = tensor.empty() : tensor<8xf32>
  %e_rn = tensor.empty() : tensor<8x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e_r : tensor<8xf32>) -> tensor<8xf32>
  // expected-error @below {{cannot split dim 'n' into 4 parts: subf1 is a graph output indexed by t}}
  %sum = linalg.generic {indexing_maps = [#rn, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x256xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %c = linalg.generic {indexing_maps = [#rn, #r, #rn], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<8x256xf32>, tensor<8xf32>) outs(%e_rn : tensor<8x256xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.mulf %s, %inv : f32
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<8x256xf32>
  return %c : tensor<8x256xf32>
}
