// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule --convert-smap-to-gpu | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule '--convert-smap-to-gpu=cache-hints=false' \
// RUN:   | FileCheck %s --check-prefix=PLAIN
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=chip=sm_90a format=isa' \
// RUN:   | FileCheck %s --check-prefix=PTX
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=chip=sm_75 tensor-cores=false format=isa' \
// RUN:   | FileCheck %s --check-prefix=OLDCHIP

// Every row reads the per-column parameters (gamma, beta) while the rows
// stream past once: their loads keep their lines in L1 and L2 with
// evict_last hints (one createpolicy per kernel, at its start), through
// inline PTX on the buffer's global address. The rows themselves are plain
// vector loads.

// CHECK-LABEL: func.func @layernorm(
// CHECK-SAME:      %[[X:.*]]: memref<16x1024xf16>, %[[G:.*]]: memref<1024xf16>, %[[B:.*]]: memref<1024xf16>
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[POLICY:.*]] = llvm.inline_asm "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"  : () -> i64
// CHECK:           %{{.*}}, %[[OFFSET:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[G]]
// CHECK:           %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[G]]
// CHECK:           %[[ELEMENT:.*]] = arith.addi %[[OFFSET]], %{{.*}} : index
// CHECK:           %[[BYTES:.*]] = arith.muli %[[ELEMENT]], %{{.*}} : index
// CHECK:           %[[ADDR:.*]] = arith.addi %[[BASE]], %[[BYTES]] : index
// CHECK:           %[[INT:.*]] = arith.index_castui %[[ADDR]] : index to i64
// CHECK:           %[[PTR:.*]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr
// CHECK:           %[[GLOBAL:.*]] = llvm.addrspacecast %[[PTR]] : !llvm.ptr to !llvm.ptr<1>
// CHECK:           %[[LOADED:.*]] = llvm.inline_asm "{\0A.reg .b32 w<4>;\0Ald.global.L1::evict_last.L2::cache_hint.v4.b32 {w0, w1, w2, w3}, [$8], $9;\0Amov.b32 {$0, $1}, w0;\0Amov.b32 {$2, $3}, w1;\0Amov.b32 {$4, $5}, w2;\0Amov.b32 {$6, $7}, w3;\0A}", "=h,=h,=h,=h,=h,=h,=h,=h,l,l" %[[GLOBAL]], %[[POLICY]] : (!llvm.ptr<1>, i64) -> !llvm.struct<(i16, i16, i16, i16, i16, i16, i16, i16)>
// CHECK:           %[[E0:.*]] = llvm.extractvalue %[[LOADED]][0]
// CHECK-NEXT:      arith.bitcast %[[E0]] : i16 to f16
// Four vectors of gamma and four of beta in all, then the row's.
// CHECK-COUNT-7:   llvm.inline_asm "{\0A.reg .b32 w<4>;\0Ald.global.L1::evict_last.L2::cache_hint.v4.b32
// CHECK-NOT:       llvm.inline_asm
// CHECK:           vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<16384xf16>, vector<8xf16>
// CHECK-NOT:       llvm.inline_asm
// CHECK:           vector.store

// PLAIN-LABEL: func.func @layernorm(
// PLAIN-NOT:     llvm.inline_asm
// PLAIN:         vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1024xf16>, vector<8xf16>
// PLAIN-LABEL: func.func @rms_ragged(
// PLAIN-NOT:     llvm.inline_asm

// PTX-LABEL: gpu.binary @layernorm_rows_f16
// PTX:         createpolicy.fractional.L2::evict_last.b64 [[POL:%rd[0-9]+]], 1.0;
// PTX:         ld.global.L1::evict_last.L2::cache_hint.v4.b32 {w0, w1, w2, w3}, [%rd{{[0-9]+}}], [[POL]];
// PTX-SAME:    \0Amov.b32 {%rs{{[0-9]+}}, %rs{{[0-9]+}}}, w0;
// PTX:         ld.global.v4.b32
// PTX-LABEL: gpu.binary @rms_ragged_rows_f16
// PTX:         ld.global.L1::evict_last.L2::cache_hint.v2.b32 {w0, w1}, [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// PTX-LABEL: gpu.binary @rms_f32_rows_f32
// PTX:         ld.global.L1::evict_last.L2::cache_hint.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], %rd{{[0-9]+}};

// f32 parameters load straight into their registers, one per element.
// CHECK-LABEL: func.func @rms_f32(
// CHECK:         %[[F32:.*]] = llvm.inline_asm "{\0Ald.global.L1::evict_last.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [$4], $5;\0A}", "=r,=r,=r,=r,l,l"
// CHECK:         %[[F0:.*]] = llvm.extractvalue %[[F32]][0]
// CHECK-NEXT:    arith.bitcast %[[F0]] : i32 to f32

// Chips before sm_80 have no createpolicy: plain loads.
// OLDCHIP-NOT: createpolicy
// OLDCHIP-NOT: cache_hint
// OLDCHIP:     gpu.binary @rms_ragged_rows_f16

func.func @layernorm(%x: tensor<16x1024xf16>, %gamma: tensor<1024xf16>, %beta: tensor<1024xf16>) -> tensor<16x1024xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x1024xf16>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %var = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<16x1024xf16>, tensor<16xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f16, %s: f32, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %v, %mean : f32
    %sq = arith.mulf %d, %d : f32
    %a = arith.addf %sq, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x1024xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (k)>, affine_map<(m, k) -> (k)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %var, %gamma, %beta : tensor<16x1024xf16>, tensor<16xf32>, tensor<16xf32>, tensor<1024xf16>, tensor<1024xf16>) outs(%e2 : tensor<16x1024xf16>) {
  ^bb0(%in: f16, %s: f32, %q: f32, %g: f16, %b: f16, %o: f16):
    %v = arith.extf %in : f16 to f32
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %v, %mean : f32
    %vq = arith.divf %q, %n : f32
    %ve = arith.addf %vq, %eps : f32
    %r = math.rsqrt %ve : f32
    %nrm = arith.mulf %d, %r : f32
    %gf = arith.extf %g : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %sc = arith.mulf %nrm, %gf : f32
    %t = arith.addf %sc, %bf : f32
    %t16 = arith.truncf %t : f32 to f16
    linalg.yield %t16 : f16
  } -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}

// Rows of 100 f16: 8-byte vectors (4 f16), so gamma's hinted loads are two
// 32-bit words.
func.func @rms_ragged(%x: tensor<8x100xf16>, %gamma: tensor<100xf16>) -> tensor<8x100xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x100xf16>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %sq = arith.mulf %v, %v : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x100xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %gamma : tensor<8x100xf16>, tensor<8xf32>, tensor<100xf16>) outs(%e2 : tensor<8x100xf16>) {
  ^bb0(%in: f16, %s: f32, %g: f16, %o: f16):
    %v = arith.extf %in : f16 to f32
    %r = math.rsqrt %s : f32
    %y = arith.mulf %v, %r : f32
    %gf = arith.extf %g : f16 to f32
    %z = arith.mulf %y, %gf : f32
    %z16 = arith.truncf %z : f32 to f16
    linalg.yield %z16 : f16
  } -> tensor<8x100xf16>
  return %out : tensor<8x100xf16>
}

func.func @rms_f32(%x: tensor<16x256xf32>, %gamma: tensor<256xf32>) -> tensor<16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x256xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x256xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %gamma : tensor<16x256xf32>, tensor<16xf32>, tensor<256xf32>) outs(%e2 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %s: f32, %g: f32, %o: f32):
    %r = math.rsqrt %s : f32
    %y = arith.mulf %in, %r : f32
    %z = arith.mulf %y, %g : f32
    linalg.yield %z : f32
  } -> tensor<16x256xf32>
  return %out : tensor<16x256xf32>
}
