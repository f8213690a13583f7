// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa | FileCheck %s
// RUN: spacefusion-run %s --reps=1 | FileCheck %s --check-prefix=CPU

// An intermediate of index element type (an iota of linalg.index read by a
// float op, as the differential fuzzer writes it) compiles for the GPU:
// smap-store-indices-as-i64 stores it as i64, which the fusion graph takes,
// and both ops run in one kernel. Before, the iota was outside every graph
// and no loop kernel takes index elements: "element type index" (fuzz seeds
// 3000-3300, four GPU-stage rejections).
// CHECK-LABEL: llvm.func @iota_scale(
// CHECK-SAME: smap.kernels = [{blocks = {{[0-9]+}} : i64, {{.*}}strategy = "simt"
// CHECK-NOT: }, {
// CHECK-SAME: }]
// CHECK: gpu.binary
// CHECK-NOT: gpu.binary
// CPU: @iota_scale on cpu
// CPU: over 128 outputs against the f64 reference {{.*}}: PASS
#id = affine_map<(d0, d1) -> (d0, d1)>
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
