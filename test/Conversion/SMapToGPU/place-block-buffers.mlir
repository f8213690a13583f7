// RUN: spacefusion-opt %s --split-input-file --smap-place-block-buffers | FileCheck %s

// A softmax block after cse: the exponentials, their scaled values, the
// shifted exponentials and the normalized values write one empty tensor,
// the row maximum and the row sum another. The reductions' fills get empty
// tensors of their own; each elementwise op overwrites its input of its
// type, which nothing reads after it (the maximum read the scaled values
// before the shifted exponentials overwrite them, the sum read those before
// the normalization does).

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @softmax_block
// CHECK:         scf.forall
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<16x256xf32>
// CHECK:           %[[S:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<16x256xf32>)
// CHECK:           %[[T:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<16x256xf32>) outs(%[[S]] : tensor<16x256xf32>)
// CHECK:           %[[RE:.*]] = tensor.empty() : tensor<16xf32>
// CHECK:           %[[RE2:.*]] = tensor.empty() : tensor<16xf32>
// CHECK:           %[[MF:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[RE2]] : tensor<16xf32>)
// CHECK:           %[[M:.*]] = linalg.generic {{.*}} ins(%[[T]] : tensor<16x256xf32>) outs(%[[MF]] : tensor<16xf32>)
// CHECK:           %[[X:.*]] = linalg.generic {{.*}} ins(%[[T]], %[[M]] : tensor<16x256xf32>, tensor<16xf32>) outs(%[[T]] : tensor<16x256xf32>)
// CHECK:           %[[SF:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[RE]] : tensor<16xf32>)
// CHECK:           %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<16x256xf32>) outs(%[[SF]] : tensor<16xf32>)
// CHECK:           %[[N:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[SUM]] : tensor<16x256xf32>, tensor<16xf32>) outs(%[[X]] : tensor<16x256xf32>)
// CHECK:           tensor.parallel_insert_slice %[[N]]
func.func @softmax_block(%in: tensor<32x256xf32>, %out: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.125 : f32
  %r = scf.forall (%b) in (2) shared_outs(%o = %out) -> (tensor<32x256xf32>) {
    %row = arith.muli %b, %b : index
    %x = tensor.extract_slice %in[%row, 0] [16, 256] [1, 1] : tensor<32x256xf32> to tensor<16x256xf32>
    %e = tensor.empty() : tensor<16x256xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = arith.mulf %a, %scale : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    %re = tensor.empty() : tensor<16xf32>
    %mf = linalg.fill ins(%ninf : f32) outs(%re : tensor<16xf32>) -> tensor<16xf32>
    %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%t : tensor<16x256xf32>) outs(%mf : tensor<16xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = arith.maximumf %a, %acc : f32
      linalg.yield %v : f32
    } -> tensor<16xf32>
    %xe = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t, %m : tensor<16x256xf32>, tensor<16xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %mx: f32, %acc: f32):
      %d = arith.subf %a, %mx : f32
      %v = math.exp %d : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    %sf = linalg.fill ins(%zero : f32) outs(%re : tensor<16xf32>) -> tensor<16xf32>
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xe : tensor<16x256xf32>) outs(%sf : tensor<16xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = arith.addf %a, %acc : f32
      linalg.yield %v : f32
    } -> tensor<16xf32>
    %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xe, %sum : tensor<16x256xf32>, tensor<16xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %s2: f32, %acc: f32):
      %v = arith.divf %a, %s2 : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %n into %o[%row, 0] [16, 256] [1, 1] : tensor<16x256xf32> into tensor<32x256xf32>
    }
  } {smap.schedule = #smap.schedule<spatial = [m = 16], temporal = [], grid = [2], threads = 256, smem = 0, regs = 32, strategy = simt>}
  return %r : tensor<32x256xf32>
}

// -----

// Not in place: the input is read after the op (by the last op), or made
// outside the loop that writes over it on every iteration (the buffer of a
// value read on the next one). An empty tensor two writers share is still
// split.

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @read_after_and_loop
// CHECK:         scf.forall
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<16x256xf32>
// CHECK:           %[[S:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<16x256xf32>)
// CHECK:           %[[E2:.*]] = tensor.empty() : tensor<16x256xf32>
// CHECK:           %[[T:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<16x256xf32>) outs(%[[E2]] : tensor<16x256xf32>)
// CHECK:           scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[T]])
// CHECK:             %[[E3:.*]] = tensor.empty() : tensor<16x256xf32>
// CHECK:             linalg.generic {{.*}} ins(%[[S]] : tensor<16x256xf32>) outs(%[[E3]] : tensor<16x256xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[S]] : tensor<16x256xf32>, tensor<16x256xf32>) outs(%{{.*}} : tensor<16x256xf32>)
func.func @read_after_and_loop(%in: tensor<32x256xf32>, %out: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.forall (%b) in (2) shared_outs(%o = %out) -> (tensor<32x256xf32>) {
    %row = arith.muli %b, %b : index
    %x = tensor.extract_slice %in[%row, 0] [16, 256] [1, 1] : tensor<32x256xf32> to tensor<16x256xf32>
    %e = tensor.empty() : tensor<16x256xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = math.tanh %a : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc0 = %t) -> (tensor<16x256xf32>) {
      %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%s : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %v = math.sin %a : f32
        linalg.yield %v : f32
      } -> tensor<16x256xf32>
      scf.yield %u : tensor<16x256xf32>
    }
    %n = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%l, %s : tensor<16x256xf32>, tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %b2: f32, %acc: f32):
      %v = arith.addf %a, %b2 : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %n into %o[%row, 0] [16, 256] [1, 1] : tensor<16x256xf32> into tensor<32x256xf32>
    }
  } {smap.schedule = #smap.schedule<spatial = [m = 16], temporal = [], grid = [2], threads = 256, smem = 0, regs = 32, strategy = mma_sync>}
  return %r : tensor<32x256xf32>
}

// -----

// Blocks of the other strategies place their buffers by rules of their own:
// untouched.

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @row_fragments_untouched
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<16x256xf32>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<16x256xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<16x256xf32>) outs(%[[E]] : tensor<16x256xf32>)
func.func @row_fragments_untouched(%in: tensor<32x256xf32>, %out: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %r = scf.forall (%b) in (2) shared_outs(%o = %out) -> (tensor<32x256xf32>) {
    %row = arith.muli %b, %b : index
    %x = tensor.extract_slice %in[%row, 0] [16, 256] [1, 1] : tensor<32x256xf32> to tensor<16x256xf32>
    %e = tensor.empty() : tensor<16x256xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = math.tanh %a : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%row, 0] [16, 256] [1, 1] : tensor<16x256xf32> into tensor<32x256xf32>
    }
  } {smap.schedule = #smap.schedule<spatial = [m = 16], temporal = [], grid = [2], threads = 64, smem = 0, regs = 32, strategy = row_fragments, stages = 1>}
  return %r : tensor<32x256xf32>
}

// -----

// A reshape of the input the block returns is read after the op (by the
// block's insert): the input's buffer stays live, so the op writes one of
// its own (fuzz seed 230: a GEMM result returned and used by an
// elementwise op).

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @returned_through_a_reshape
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK:         tensor.collapse_shape %[[S]]
// CHECK-NOT:     outs(%[[S]] :
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<16x256xf32>) outs(%{{.*}} : tensor<16x256xf32>)
// CHECK-NOT:     outs(%[[S]] :
// CHECK:         tensor.parallel_insert_slice
func.func @returned_through_a_reshape(%in: tensor<32x256xf32>, %out: tensor<32x256xf32>, %out2: tensor<8192xf32>) -> (tensor<32x256xf32>, tensor<8192xf32>) {
  %r:2 = scf.forall (%b) in (2) shared_outs(%o = %out, %o2 = %out2) -> (tensor<32x256xf32>, tensor<8192xf32>) {
    %row = arith.muli %b, %b : index
    %flat = arith.muli %row, %row : index
    %x = tensor.extract_slice %in[%row, 0] [16, 256] [1, 1] : tensor<32x256xf32> to tensor<16x256xf32>
    %e = tensor.empty() : tensor<16x256xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    %c = tensor.collapse_shape %s [[0, 1]] : tensor<16x256xf32> into tensor<4096xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = math.tanh %a : f32
      linalg.yield %v : f32
    } -> tensor<16x256xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%row, 0] [16, 256] [1, 1] : tensor<16x256xf32> into tensor<32x256xf32>
      tensor.parallel_insert_slice %c into %o2[%flat] [4096] [1] : tensor<4096xf32> into tensor<8192xf32>
    }
  } {smap.schedule = #smap.schedule<spatial = [m = 16], temporal = [], grid = [2], threads = 256, smem = 0, regs = 32, strategy = simt>}
  return %r#0, %r#1 : tensor<32x256xf32>, tensor<8192xf32>
}

// -----

// A block with a temporal loop (what smap-temporal-slice leaves): inside the
// loop the scale overwrites the exponentials, which nothing reads after it;
// an input the payload never reads (a factor applied after the loop) is
// dropped, so it takes no buffer; after the loop the normalization takes
// over the state the loop carried out, which nothing reads after it.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#r1 = affine_map<(i) -> (i)>
// CHECK-LABEL: func.func @temporal_block
// CHECK:         %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16xf32>)
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<16x64xf32>
// CHECK-NOT:       tensor<16xf32>
// CHECK:           %[[X:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<16x64xf32>) outs(%[[E]] : tensor<16x64xf32>)
// CHECK:           %[[S:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<16x64xf32>) outs(%[[X]] : tensor<16x64xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[S]] : tensor<16x64xf32>) outs(%[[ACC]] : tensor<16xf32>)
// CHECK:         %[[N:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<16xf32>) outs(%[[SUM]] : tensor<16xf32>)
// CHECK:         tensor.parallel_insert_slice %[[N]]
func.func @temporal_block(%in: tensor<32x256xf32>, %out: tensor<32xf32>) -> tensor<32xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %r = scf.forall (%b) in (2) shared_outs(%o = %out) -> (tensor<32xf32>) {
    %row = arith.muli %b, %b : index
    %e16 = tensor.empty() : tensor<16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
    %sum = scf.for %l = %c0 to %c256 step %c64 iter_args(%acc = %init) -> (tensor<16xf32>) {
      %x = tensor.extract_slice %in[%row, %l] [16, 64] [1, 1] : tensor<32x256xf32> to tensor<16x64xf32>
      %e = tensor.empty() : tensor<16x64xf32>
      %unread = tensor.empty() : tensor<16xf32>
      %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
          ins(%x, %unread : tensor<16x64xf32>, tensor<16xf32>) outs(%e : tensor<16x64xf32>) {
      ^bb0(%a: f32, %f: f32, %_: f32):
        %v = math.exp %a : f32
        linalg.yield %v : f32
      } -> tensor<16x64xf32>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%ex : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
      ^bb0(%a: f32, %_: f32):
        %v = arith.mulf %a, %scale : f32
        linalg.yield %v : f32
      } -> tensor<16x64xf32>
      %next = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%s : tensor<16x64xf32>) outs(%acc : tensor<16xf32>) {
      ^bb0(%a: f32, %c: f32):
        %v = arith.addf %a, %c : f32
        linalg.yield %v : f32
      } -> tensor<16xf32>
      scf.yield %next : tensor<16xf32>
    }
    %e2 = tensor.empty() : tensor<16xf32>
    %n = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
        ins(%sum : tensor<16xf32>) outs(%e2 : tensor<16xf32>) {
    ^bb0(%a: f32, %_: f32):
      %v = math.sqrt %a : f32
      linalg.yield %v : f32
    } -> tensor<16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %n into %o[%row] [16] [1] : tensor<16xf32> into tensor<32xf32>
    }
  } {smap.schedule = #smap.schedule<spatial = [m = 16], temporal = [l = 64], grid = [2], threads = 256, smem = 0, regs = 32, strategy = simt>}
  return %r : tensor<32xf32>
}
