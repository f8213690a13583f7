// RUN: spacefusion-opt %s --smap-temporal-slice | FileCheck %s

// A slice size that does not divide its dim: 40 keys in slices of 16 make
// three slices at nominal offsets 0, 16 and 32. Every slice is read with the
// slice's static shape, the last one at 40 - 16 = 24, so its first 8 keys
// (local index below 32 - 24) are ones the second slice combined: the sum
// adds 0 for them, and the probabilities the second contraction reads are
// zeroed there (its other operand, V, is a graph input and stays as it is).
// The max needs nothing: a key seen twice does not change it. The nominal
// offset still goes to the update (the first-slice test, element counts).

// CHECK-LABEL: func.func @attention_ragged
// CHECK: smap.temporal_slice #smap.dim<"l", 40, temporal> step 16
// CHECK-NEXT: ^bb0(%[[OFF:.*]]: index,
// CHECK: %[[AT:.*]] = arith.minui %[[OFF]], %c24
// CHECK: %[[FIRST:.*]] = arith.subi %[[OFF]], %[[AT]] : index
// CHECK: tensor.extract_slice %{{.*}}[%[[AT]], 0] [16, 8] [1, 1] : tensor<40x8xf32> to tensor<16x8xf32>
// CHECK: arith.maximumf
// CHECK-NOT: arith.cmpi uge
// CHECK: math.exp
// The sum combines 0 for the repeated keys.
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[ID:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpi uge, %[[J]], %[[FIRST]] : index
// CHECK-NEXT: %[[C:.*]] = arith.select %[[KEEP]], %[[X]], %[[ID]] : f32
// CHECK-NEXT: arith.addf %[[C]], %[[ACC]] : f32
// The second contraction reads zeroed probabilities there.
// CHECK: %[[MASKED:.*]] = linalg.generic {{.*}}ins(%{{[0-9a-z_]+}} : tensor<16x16xf32>) outs
// CHECK: %[[J2:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[KEEP2:.*]] = arith.cmpi uge, %[[J2]], %[[FIRST]] : index
// CHECK-NEXT: arith.select %[[KEEP2]]
// CHECK: linalg.matmul ins(%[[MASKED]], %{{.*}} : tensor<16x16xf32>, tensor<16x4xf32>)
// CHECK: smap.yield %[[OFF]],
// CHECK: } update {
#mk = affine_map<(m, l, k) -> (m, k)>
#lk = affine_map<(m, l, k) -> (l, k)>
#ml3 = affine_map<(m, l, k) -> (m, l)>
#ml = affine_map<(m, l) -> (m, l)>
#m = affine_map<(m, l) -> (m)>
func.func @attention_ragged(%q: tensor<16x8xf32>, %k: tensor<40x8xf32>, %v: tensor<40x4xf32>) -> tensor<16x4xf32> {
  %0 = smap.graph(%aq = %q : tensor<16x8xf32>, %ak = %k : tensor<40x8xf32>, %av = %v : tensor<40x4xf32>) -> (tensor<16x4xf32>) attributes {
      dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"n", 4, parallel_recompute>, #smap.dim<"l", 40, temporal>, #smap.dim<"k", 8, temporal>],
      schedule = #smap.schedule<spatial = [], temporal = [l = 16], grid = [], threads = 1, smem = 0, regs = 0>} {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e_ml = tensor.empty() : tensor<16x40xf32>
    %e_m = tensor.empty() : tensor<16xf32>
    %e_mn = tensor.empty() : tensor<16x4xf32>
    %f_qk = linalg.fill ins(%zero : f32) outs(%e_ml : tensor<16x40xf32>) -> tensor<16x40xf32>
    %qk = linalg.matmul indexing_maps = [#mk, #lk, #ml3]
        ins(%aq, %ak : tensor<16x8xf32>, tensor<40x8xf32>) outs(%f_qk : tensor<16x40xf32>) -> tensor<16x40xf32>
    %f_max = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
    %max = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
        ins(%qk : tensor<16x40xf32>) outs(%f_max : tensor<16xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<16xf32>
    %exp = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
        ins(%qk, %max : tensor<16x40xf32>, tensor<16xf32>) outs(%e_ml : tensor<16x40xf32>) {
    ^bb0(%in: f32, %mx: f32, %out: f32):
      %d = arith.subf %in, %mx : f32
      %r = math.exp %d : f32
      linalg.yield %r : f32
    } -> tensor<16x40xf32>
    %f_sum = linalg.fill ins(%zero : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
    %sum = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
        ins(%exp : tensor<16x40xf32>) outs(%f_sum : tensor<16xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<16xf32>
    %p = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
        ins(%exp, %sum : tensor<16x40xf32>, tensor<16xf32>) outs(%e_ml : tensor<16x40xf32>) {
    ^bb0(%in: f32, %s: f32, %out: f32):
      %r = arith.divf %in, %s : f32
      linalg.yield %r : f32
    } -> tensor<16x40xf32>
    %f_out = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<16x4xf32>) -> tensor<16x4xf32>
    %out = linalg.matmul ins(%p, %av : tensor<16x40xf32>, tensor<40x4xf32>) outs(%f_out : tensor<16x4xf32>) -> tensor<16x4xf32>
    smap.yield %out : tensor<16x4xf32>
  }
  return %0 : tensor<16x4xf32>
}

