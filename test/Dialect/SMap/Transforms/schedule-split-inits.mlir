// Which inits the parts of a split reduction may start from: each part
// starts from the whole reduction's init, so a sum must start from 0; a max
// or min may start from any constant (it is idempotent) unless a rescaled
// sum shifts by it. The max from any constant runs against f64 in
// test/Execution/CPU/split-reduction.mlir.
//
// RUN: split-file %s %t
// RUN: spacefusion-opt %t/sum.mlir --smap-form-graphs --smap-set-target=target=cpu \
// RUN:   --smap-analyze '--smap-schedule=split=k:4' -verify-diagnostics -o /dev/null
// RUN: spacefusion-opt %t/softmax.mlir --smap-form-graphs --smap-set-target=target=cpu \
// RUN:   --smap-analyze '--smap-schedule=split=l:4' -verify-diagnostics -o /dev/null
// A split option naming a dim the graph lacks leaves it unsplit, with a remark:
// RUN: spacefusion-opt %t/sum.mlir --smap-form-graphs --smap-set-target=target=cpu \
// RUN:   --smap-analyze '--smap-schedule=split=q:4' --remarks-filter=smap -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING

// MISSING: remark: [Missed] no-split | Category:smap:schedule | Function=sum_from_one | Remark="not split: the graph has no dim 'q' (its dims are m k; dims of extent 1 are folded away)"

//--- sum.mlir
// A sum that starts from 1.0 (torch's `x.sum(-1) + 1` folded into the init):
// every part would add the 1.0, so the dim is not split. (A max or min may
// start from any constant: execution test split-reduction.mlir.)
func.func @sum_from_one(%x: tensor<8x256xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-error @below {{cannot split dim 'k' into 4 parts: reduce0 does not start from its combiner's identity (each part would add it)}}
  %sum = linalg.reduce ins(%x : tensor<8x256xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<8xf32>
}

//--- softmax.mlir
// A softmax denominator whose max starts from 0 (a clamped shift): the merge
// leaves a part out only when its shift is -inf (a masked part's 0 / 0), so
// a max that a rescaled sum shifts by must start from -inf.
#rn = affine_map<(r, n) -> (r, n)>
#r = affine_map<(r, n) -> (r)>
func.func @softmax_sum_clamped_max(%x: tensor<8x256xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %fm = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-error @below {{does not start from its combiner's identity}}
  %max = linalg.generic {indexing_maps = [#rn, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x256xf32>) outs(%fm : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e_rn = tensor.empty() : tensor<8x256xf32>
  %exp = linalg.generic {indexing_maps = [#rn, #r, #rn], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x256xf32>, tensor<8xf32>) outs(%e_rn : tensor<8x256xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %x1 = math.exp %d : f32
    linalg.yield %x1 : f32
  } -> tensor<8x256xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#rn, #r], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x256xf32>) outs(%fs : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}
