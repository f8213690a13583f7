// A batched matmul as torch.bmm reaches linalg (named op, f16 throughout)
// with a reduction of 1000, which no 32-wide slice divides: the last slice
// is read at 1000 - 32 = 968 and its repeated elements are zeroed. Its
// tiles move along A's rows (k is A's last dim), and the clamped offset
// min(k, 968) is a multiple of 8 halves, so A's and B's tiles still arrive
// by cp.async in 16-byte chunks (three stages, planned by the schedule and
// built). It used to go without any pipeline (bench/results has the
// 8x1024x1000x1000 bmm's times). With a reduction of 1001 the offset 969 is
// not 16-byte aligned: no cp.async, and the register prefetch moves single
// halves.
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa spatial=b:1,m:64,n:64 temporal=k:32' | FileCheck %s
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa spatial=b:1,m:64,n:64 temporal=k:32' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: llvm.func @bmm(
// CHECK-SAME:    smap.kernels = [{blocks = 8 : i64, parts = {cp_async = 3 : i64, ldmatrix = 2 : i64, mma_sync = 1 : i64, prefetch = 1 : i64, register_acc = 1 : i64}, predicted = {{[{][^}]*}}stages = 3 : i64, strategy = "mma_sync"
// CHECK:       gpu.binary @bmm_mma_sync_64x64x32_f16
// CHECK-SAME:    cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// CHECK-SAME:    min.u64 {{[^;]*}}, 968;
// CHECK-SAME:    cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// CHECK-LABEL: llvm.func @bmm_odd(
// CHECK-SAME:    smap.kernels = [{blocks = 8 : i64, parts = {ldmatrix = 2 : i64, mma_sync = 1 : i64, prefetch = 1 : i64, register_acc = 1 : i64}
// CHECK:       gpu.binary @bmm_odd_mma_sync_64x64x32_f16
// CHECK-NOT:     cp.async
// CHECK-SAME:    min.u64 {{[^;]*}}, 969;

// The schedule prices what is built: the accumulator, the three stages of
// A's staged tile and B's masked copy (unpadded, the only tile of it),
// 35840 B; the odd reduction's one stage, 25600 B.
// REMARK: remark: [Passed] given | {{.*}}Function=bmm |{{.*}}strategy mma_sync, 8 blocks x 256 threads, 35840 B shared memory
// REMARK: remark: [Passed] given | {{.*}}Function=bmm_odd |{{.*}}strategy mma_sync, 8 blocks x 256 threads, 25600 B shared memory
// REMARK: remark: [Passed] block-kernel | {{.*}}Function=bmm |{{.*}}lowered to one kernel: strategy=mma_sync blocks=8 threads=256 smem=35840 
// REMARK: remark: [Passed] block-kernel | {{.*}}Function=bmm_odd |{{.*}}lowered to one kernel: strategy=mma_sync blocks=8 threads=256 smem=25600 

func.func @bmm(%a: tensor<2x128x1000xf16>, %b: tensor<2x1000x128xf16>) -> tensor<2x128x128xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x128x128xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2x128x128xf16>) -> tensor<2x128x128xf16>
  %c = linalg.batch_matmul ins(%a, %b : tensor<2x128x1000xf16>, tensor<2x1000x128xf16>) outs(%f : tensor<2x128x128xf16>) -> tensor<2x128x128xf16>
  return %c : tensor<2x128x128xf16>
}

func.func @bmm_odd(%a: tensor<2x128x1001xf16>, %b: tensor<2x1001x128xf16>) -> tensor<2x128x128xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x128x128xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2x128x128xf16>) -> tensor<2x128x128xf16>
  %c = linalg.batch_matmul ins(%a, %b : tensor<2x128x1001xf16>, tensor<2x1001x128xf16>) outs(%f : tensor<2x128x128xf16>) -> tensor<2x128x128xf16>
  return %c : tensor<2x128x128xf16>
}
