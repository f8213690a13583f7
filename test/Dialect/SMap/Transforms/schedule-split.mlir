// RUN: spacefusion-opt %s --smap-form-graphs \
// RUN:   --smap-set-target=target=cpu --smap-analyze '--smap-schedule=split=l:4' \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs \
// RUN:   --smap-set-target=target=sm_90a --smap-analyze '--smap-schedule=one-wave=0 split-reductions=true' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO

// Split-KV (smap-schedule's split option): attention over 256 keys becomes
// a partial graph over 4 parts of 64 keys (K and V expanded outside it, the
// parts a new parallel dim; each part's max, sum and output are outputs)
// and a merge graph that combines them with the temporal slicer's updates:
// the max by max, the sum and the output moved to the merged max with
// exp(-(M - m_s)) (a part whose weight is 0 adds nothing), the output's
// division by its part's sum undone (times s_s) and applied once (/ S).

// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:.*]]: tensor<16x8xf32>, %[[K:.*]]: tensor<256x8xf32>, %[[V:.*]]: tensor<256x4xf32>)
// CHECK-DAG: %[[KP:.*]] = tensor.expand_shape %[[K]] {{\[}}[0, 1], [2]] output_shape [4, 64, 8]
// CHECK-DAG: %[[VP:.*]] = tensor.expand_shape %[[V]] {{\[}}[0, 1], [2]] output_shape [4, 64, 4]
// CHECK: %[[PARTS:.*]]:3 = smap.graph(%{{.*}} = %[[Q]] : tensor<16x8xf32>, %{{.*}} = %[[KP]] : tensor<4x64x8xf32>, %{{.*}} = %[[VP]] : tensor<4x64x4xf32>)
// CHECK-SAME: -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16x4xf32>)
// The part's max: the key loop of 64 and the parts a parallel loop.
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%{{.*}} : tensor<4x16x64xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK: arith.maximumf
// CHECK: smap.yield
// CHECK: %[[OUT:.*]] = smap.graph(%{{.*}} = %[[PARTS]]#0 : tensor<4x16xf32>, %{{.*}} = %[[PARTS]]#1 : tensor<4x16xf32>, %{{.*}} = %[[PARTS]]#2 : tensor<4x16x4xf32>) -> (tensor<16x4xf32>)
// The merged max.
// CHECK: %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// The merged sum: sum_s s_s exp(-(M - m_s)).
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[SP:.*]], %[[MP:.*]], %[[M]] :
// CHECK: ^bb0(%[[SS:.*]]: f32, %[[MS:.*]]: f32, %[[MM:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[D:.*]] = arith.subf %[[MM]], %[[MS]]
// CHECK: %[[N:.*]] = arith.negf %[[D]]
// CHECK: %[[E:.*]] = math.exp %[[N]]
// CHECK: %[[W:.*]] = arith.mulf %{{.*}}, %[[E]]
// CHECK: %[[T:.*]] = arith.mulf %[[SS]], %[[W]]
// CHECK: %[[Z:.*]] = arith.cmpf oeq, %[[W]]
// CHECK: %[[C:.*]] = arith.select %[[Z]], %{{.*}}, %[[T]]
// CHECK: arith.addf %[[ACC]], %[[C]]
// The merged output: sum_s O_s s_s exp(-(M - m_s)), then / S.
// CHECK: %[[O:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MP]], %[[M]], %[[SP]] :
// CHECK: ^bb0(%[[OS:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32, %[[SS2:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[T2:.*]] = arith.mulf %[[OS]], %{{.*}}
// CHECK: arith.mulf %[[T2]], %[[SS2]]
// CHECK: linalg.generic {{.*}} ins(%[[O]], %[[S]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK: return %[[OUT]]

// With split-reductions on a GPU target the split is priced: this graph's
// blocks leave SMs idle, but the parts are not predicted faster enough.
// AUTO: no-split | Category:smap:schedule | Function=attention
// AUTO-SAME: not split: {{[0-9]+}} blocks on 132 SMs predicted at
// AUTO-SAME: splits tried: l:2 {{.*}} us, l:4 {{.*}} us
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
