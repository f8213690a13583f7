// An output that is rounding noise (found by the fuzzer, seed 585): the sum
// over a row of its LayerNorm, which cancels to a few 1e-6 (the mean uses an
// f32 1/7). The unfused program errs by up to 1.9e-6 on values of 3e-6; the
// fused one, temporally sliced along the softmax's dim, by as much at other
// elements. Against the unfused program's largest error in the output it
// passes; with the tolerance alone it fails, and so it did with a per-element
// allowance (2 of 16 elements).
// RUN: spacefusion-opt --cse %s | spacefusion-run - --reps=1 --temporal=m:8 | FileCheck %s
// RUN: spacefusion-opt --cse %s | not spacefusion-run - --reps=1 --temporal=m:8 --baseline-slack=0 | FileCheck %s --check-prefix=STRICT
// CHECK: unfused against the f64 reference: max abs error 1.9{{[0-9]}}E-06
// CHECK: each element may also err by 2.00 x the unfused program's largest error in the same output
// CHECK: out of tolerance: #0 0 of 16: PASS
// STRICT: out of tolerance: #0 {{[1-9][0-9]*}} of 16 first at {{.*}}: FAIL
// fuzz: seed=585 dtype=f32 cse=1 steps=softmax(named,dim=0);layernorm(dims=1);reduce(sum,dims=1) features=broadcast-copy
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
func.func @fuzz(%arg0: tensor<16x7xf32>) -> (tensor<16xf32>) {
  %cst4 = arith.constant 0.000000e+00 : f32
  %cst11 = arith.constant 1.428571e-01 : f32
  %cst32 = arith.constant 1.000000e-05 : f32
  %init1 = tensor.empty() : tensor<16x7xf32>
  %softmax2 = linalg.softmax dimension(0) ins(%arg0 : tensor<16x7xf32>) outs(%init1 : tensor<16x7xf32>) -> tensor<16x7xf32>
  %init3 = tensor.empty() : tensor<16xf32>
  %fill5 = linalg.fill ins(%cst4 : f32) outs(%init3 : tensor<16xf32>) -> tensor<16xf32>
  %red8 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction"]} ins(%softmax2 : tensor<16x7xf32>) outs(%fill5 : tensor<16xf32>) {
  ^bb0(%in5_0: f32, %out5_0: f32):
    %v7 = arith.addf %in5_0, %out5_0 : f32
    linalg.yield %v7 : f32
  } -> tensor<16xf32>
  %init9 = tensor.empty() : tensor<16xf32>
  %scale13 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%red8 : tensor<16xf32>) outs(%init9 : tensor<16xf32>) {
  ^bb0(%in9_0: f32, %out9_0: f32):
    %v12 = arith.mulf %in9_0, %cst11 : f32
    linalg.yield %v12 : f32
  } -> tensor<16xf32>
  %init14 = tensor.empty() : tensor<16x7xf32>
  %bcast15 = linalg.broadcast ins(%scale13 : tensor<16xf32>) outs(%init14 : tensor<16x7xf32>) dimensions = [1]
  %init16 = tensor.empty() : tensor<16x7xf32>
  %bc19 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel"]} ins(%softmax2, %bcast15 : tensor<16x7xf32>, tensor<16x7xf32>) outs(%init16 : tensor<16x7xf32>) {
  ^bb0(%in16_0: f32, %in16_1: f32, %out16_0: f32):
    %v18 = arith.subf %in16_0, %in16_1 : f32
    linalg.yield %v18 : f32
  } -> tensor<16x7xf32>
  %init20 = tensor.empty() : tensor<16xf32>
  %fill21 = linalg.fill ins(%cst4 : f32) outs(%init20 : tensor<16xf32>) -> tensor<16xf32>
  %red25 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction"]} ins(%bc19 : tensor<16x7xf32>) outs(%fill21 : tensor<16xf32>) {
  ^bb0(%in21_0: f32, %out21_0: f32):
    %v23 = arith.mulf %in21_0, %in21_0 : f32
    %v24 = arith.addf %v23, %out21_0 : f32
    linalg.yield %v24 : f32
  } -> tensor<16xf32>
  %init26 = tensor.empty() : tensor<16xf32>
  %scale29 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%red25 : tensor<16xf32>) outs(%init26 : tensor<16xf32>) {
  ^bb0(%in26_0: f32, %out26_0: f32):
    %v28 = arith.mulf %in26_0, %cst11 : f32
    linalg.yield %v28 : f32
  } -> tensor<16xf32>
  %init30 = tensor.empty() : tensor<16xf32>
  %rstd35 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%scale29 : tensor<16xf32>) outs(%init30 : tensor<16xf32>) {
  ^bb0(%in30_0: f32, %out30_0: f32):
    %v33 = arith.addf %in30_0, %cst32 : f32
    %v34 = math.rsqrt %v33 : f32
    linalg.yield %v34 : f32
  } -> tensor<16xf32>
  %init36 = tensor.empty() : tensor<16x7xf32>
  %bc39 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel"]} ins(%bc19, %rstd35 : tensor<16x7xf32>, tensor<16xf32>) outs(%init36 : tensor<16x7xf32>) {
  ^bb0(%in36_0: f32, %in36_1: f32, %out36_0: f32):
    %v38 = arith.mulf %in36_0, %in36_1 : f32
    linalg.yield %v38 : f32
  } -> tensor<16x7xf32>
  %init40 = tensor.empty() : tensor<16xf32>
  %fill41 = linalg.fill ins(%cst4 : f32) outs(%init40 : tensor<16xf32>) -> tensor<16xf32>
  %red44 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction"]} ins(%bc39 : tensor<16x7xf32>) outs(%fill41 : tensor<16xf32>) {
  ^bb0(%in41_0: f32, %out41_0: f32):
    %v43 = arith.addf %in41_0, %out41_0 : f32
    linalg.yield %v43 : f32
  } -> tensor<16xf32>
  return %red44 : tensor<16xf32>
}
