// RUN: spacefusion-opt %s -split-input-file --smap-store-indices-as-i64 | FileCheck %s

// An iota of linalg.index read by a float op (the differential fuzzer's
// index-element-type programs): stored as i64, cast back in the reader.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @iota_scale
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x16xi64>
// CHECK: %[[IOTA:.*]] = linalg.generic
// CHECK-SAME: outs(%[[E]] : tensor<8x16xi64>)
// CHECK-NEXT: ^bb0(%{{.*}}: i64):
// CHECK: %[[S:.*]] = arith.addi
// CHECK: %[[W:.*]] = arith.index_cast %[[S]] : index to i64
// CHECK: linalg.yield %[[W]] : i64
// CHECK-NEXT: } -> tensor<8x16xi64>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[IOTA]] : tensor<8x16xf32>, tensor<8x16xi64>)
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %[[ARG:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[ARG]] : i64 to index
// CHECK-NEXT: arith.index_cast %[[I]] : index to i32
func.func @iota_scale(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xindex>
  %iota = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<8x16xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    linalg.yield %s : index
  } -> tensor<8x16xindex>
  %out = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %iota : tensor<8x16xf32>, tensor<8x16xindex>) outs(%out : tensor<8x16xf32>) {
  ^bb0(%a: f32, %i: index, %o: f32):
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %m = arith.mulf %a, %f : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Left as written: an index tensor the function returns, one another op
// reads, and one whose body reads its init's values.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: i64
// CHECK: return
func.func @left_alone(%seed: tensor<16xindex>) -> (tensor<16xindex>, index, tensor<16xindex>) {
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<16xindex>
  %returned = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<16xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    linalg.yield %i : index
  } -> tensor<16xindex>
  %extracted = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<16xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    linalg.yield %i : index
  } -> tensor<16xindex>
  %x = tensor.extract %extracted[%c3] : tensor<16xindex>
  %accumulated = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%seed : tensor<16xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %s = arith.addi %o, %i : index
    linalg.yield %s : index
  } -> tensor<16xindex>
  return %returned, %x, %accumulated : tensor<16xindex>, index, tensor<16xindex>
}
