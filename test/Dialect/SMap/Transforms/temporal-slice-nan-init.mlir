// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=m:1 temporal=n:256' --smap-spatial-slice --smap-temporal-slice \
// RUN:   | FileCheck %s

// A softmax as upstream's linalg.softmax decomposition writes it: the row
// max is maxnumf starting from NaN (NaN is maxnumf's identity). Sliced
// temporally, the running max must start from -inf instead, since the update
// combines with maximumf and rescales the sum by exp(old - new).

// CHECK-LABEL: func.func @softmax_nan_init
// CHECK:       %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:       %[[START:.*]] = linalg.fill ins(%[[NINF]] : f32)
// CHECK:       smap.temporal_slice #smap.dim<"n", 1024, temporal> step 256 inits(%[[START]], %{{.*}}) :
// CHECK-NOT:   smap.temporal_slice {{.*}} inits(%{{.*}}0xFFC00000
func.func @softmax_nan_init(%x: tensor<128x1024xf32>) -> tensor<128x1024xf32> {
  %e = tensor.empty() : tensor<128x1024xf32>
  %er = tensor.empty() : tensor<128xf32>
  %nan = arith.constant 0xFFC00000 : f32
  %zero = arith.constant 0.0 : f32
  %fmax = linalg.fill ins(%nan : f32) outs(%er : tensor<128xf32>) -> tensor<128xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x1024xf32>) outs(%fmax : tensor<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<128xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<128x1024xf32>, tensor<128xf32>) outs(%e : tensor<128x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<128x1024xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%er : tensor<128xf32>) -> tensor<128xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<128x1024xf32>) outs(%fsum : tensor<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<128x1024xf32>, tensor<128xf32>) outs(%e : tensor<128x1024xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %y = arith.divf %in, %s : f32
    linalg.yield %y : f32
  } -> tensor<128x1024xf32>
  return %out : tensor<128x1024xf32>
}
