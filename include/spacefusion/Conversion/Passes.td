//===- Passes.td - SpaceFusion conversion passes -----------*- tablegen -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_CONVERSION_PASSES_TD
#define SPACEFUSION_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// convert-smap-to-scf
//===----------------------------------------------------------------------===//

def ConvertSMapToSCFPass : Pass<"convert-smap-to-scf"> {
  let summary = "Lower sliced smap ops to scf loops on tensors";
  let description = [{
    The CPU path: turns the slicing ops into serial loops and dissolves the
    graphs, leaving linalg, tensor and scf on tensors that upstream
    bufferization and lowering take to LLVM.

    * `smap.spatial_slice` becomes a nest of `scf.for` over the grid (one
      loop per sliced dim, stepping by the tile) that inserts each block's
      tiles into the results with `tensor.insert_slice`;
    * `smap.temporal_slice` becomes an `scf.for` over the slices whose
      iteration arguments are the carried state: each iteration runs the
      `slice` region, then the `update` region;
    * `smap.graph` is replaced by its body.

    With `blocks-as-forall` (the GPU path), each spatial slice becomes one
    `scf.forall` over its blocks instead, carrying the graph's schedule and
    target (`smap.schedule`, `smap.target`): a slice of a filled tensor
    becomes a fill of the slice, and every state value is updated in its
    iteration argument. (Staging operand tiles for the GPU is
    `smap-stage-block-operands`'s job.) A state
    `g(state, ...) + X`, where X accumulates from a zero fill (a GEMM's
    running sum, online softmax's rescaled sum and accumulator), becomes X
    accumulating directly into `g(state, ...)` computed in place: no zero
    tile, no second pass (FlashAttention's structure); other states are
    copied into their iteration argument at the end of the step.

    ```mlir
    // Before
    %r = smap.temporal_slice #smap.dim<"l", 512> step 64 inits(%s0) : ... {
      ...
    }
    // After
    %r = scf.for %off = %c0 to %c512 step %c64 iter_args(%s = %s0) -> ... {
      ... // slice, then update
      scf.yield %s_new : ...
    }
    ```
  }];
  let options = [
    Option<"blocksAsForall", "blocks-as-forall", "bool", /*default=*/"false",
           "The GPU path: each `smap.spatial_slice` becomes one "
           "`scf.forall` over its blocks, linearized and mapped to "
           "`#gpu.block<x>` (offsets recovered by delinearization), with "
           "`tensor.parallel_insert_slice` of each block's tiles; "
           "`smap-distribute-blocks` later turns it into a `gpu.launch`">,
    Option<"rasterGroup", "raster-group", "int64_t", /*default=*/"0",
           "With blocks-as-forall, when exactly two dims are sliced into "
           "several blocks (a multiple of this many along the first, at "
           "least 32 along the second), number the blocks in groups of this "
           "many rows of the first (column-major within a group) so that "
           "the blocks running at once share operand tiles in L2; 0 keeps "
           "row-major order">
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect"
  ];
}

//===----------------------------------------------------------------------===//
// smap-stage-block-operands
//===----------------------------------------------------------------------===//

def SMapStageBlockOperandsPass : Pass<"smap-stage-block-operands"> {
  let summary = "Stage the contraction operands of GPU blocks in tiles of their own";
  let description = [{
    On each block `scf.forall` that `convert-smap-to-scf{blocks-as-forall}`
    made (it carries `smap.schedule`), the 16-bit operand tiles of
    contractions are copied into tiles of their own (`linalg.copy` into a
    `tensor.empty` tagged `smap.staged`), which bufferization makes block
    buffers (shared memory): the copy reads global memory once, coalesced,
    instead of once per warp that needs an element, and the tensor cores'
    fragments then load from shared memory. Rows are padded by 16 bytes so
    that the 8 rows an ldmatrix phase reads fall in distinct banks. A tile
    invariant in the temporal loop is staged once, before it. In a block
    whose strategy uses tensor cores (not `simt`), an f32 operand tile of a
    contraction with an f16 operand that fits mma.sync (the block
    lowering's rule) is staged rounded to f16 (`arith.truncf`; the tensor
    cores round it so anyway) and the payload extends it. In a `simt`
    block, an f32 operand of a multiply-accumulate is staged as it is
    (rows padded by 16 bytes, 4 elements), so that its threads read global
    memory once and their register micro-tiles read shared memory. The
    cost model prices exactly these tiles (`getStagedTileType`, the one
    rule both use).

    ```mlir
    // Before
    %a = tensor.extract_slice %A[%m, %k] [64, 64] [1, 1] : ... to tensor<64x64xf16>
    %c = linalg.generic ... ins(%a, %b : ...) outs(%acc : ...)
    // After
    %a = tensor.extract_slice %A[%m, %k] [64, 64] [1, 1] : ... to tensor<64x64xf16>
    %buf = tensor.empty() {smap.staged = 0 : i64} : tensor<64x72xf16>
    %t = tensor.extract_slice %buf[0, 0] [64, 64] [1, 1] : ... to tensor<64x64xf16>
    %s = linalg.copy ins(%a : tensor<64x64xf16>) outs(%t : tensor<64x64xf16>)
    %c = linalg.generic ... ins(%s, %b' : ...) outs(%acc : ...)
    ```
  }];
  let dependentDialects = [
    "::mlir::smap::SMapDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect"
  ];
}

//===----------------------------------------------------------------------===//
// smap-place-block-buffers
//===----------------------------------------------------------------------===//

def SMapPlaceBlockBuffersPass : Pass<"smap-place-block-buffers"> {
  let summary = "Decide which intermediates of shared-memory blocks share a buffer";
  let description = [{
    On each block `scf.forall` whose schedule's strategy is `simt` or
    `mma_sync` (the blocks whose intermediates bufferization places in
    shared memory), right before bufferization: operands a linalg op's
    payload never reads are dropped (the temporal slicer leaves one behind
    where it applies a factor after the loop), every op that writes an
    empty tensor other ops write too (`cse` merges equal ones) gets one of
    its own, and an elementwise op writes over the input whose buffer it
    takes over (`getInPlaceInput`: an input of its result's type, read at
    the element written, made in the same block by a linalg op or by the
    temporal loop (its state), that nothing reads after it). So every other
    intermediate has a buffer of its own, and the block's shared memory is
    what smap-schedule priced with the same rule on the graph (`smem` of
    `#smap.schedule`), not whatever sharing bufferization found among merged
    empty tensors. Inside a temporal loop and after it the rule holds on
    the sliced IR as on the graph: the slicer keeps each member's readers
    in order and forwards, instead of copying, a value whose factors it
    applies after the loop. The schedule's `smem` stays an upper bound only
    for a block with a final pass, a loop of a single slice (which
    canonicalization folds, letting bufferization share the online
    softmax's buffers), and a loop updating a centered sum of squares (the
    update's own buffers are not listed; every member is priced a buffer
    of its own there).

    ```mlir
    // Before: %s and %t write one empty tensor (cse merged theirs).
    %e = tensor.empty() : tensor<16x256xf32>
    %s = linalg.generic ... ins(%x : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
    %t = linalg.generic ... ins(%s : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
    // After: %t, the only reader of %s, overwrites it.
    %e = tensor.empty() : tensor<16x256xf32>
    %s = linalg.generic ... ins(%x : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
    %t = linalg.generic ... ins(%s : tensor<16x256xf32>) outs(%s : tensor<16x256xf32>) -> tensor<16x256xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::smap::SMapDialect", "::mlir::tensor::TensorDialect",
    "::mlir::linalg::LinalgDialect"
  ];
}

//===----------------------------------------------------------------------===//
// smap-decompose-aggregates
//===----------------------------------------------------------------------===//

def SMapDecomposeAggregatesPass : Pass<"smap-decompose-aggregates"> {
  let summary = "Decompose aggregated linalg ops (linalg.softmax) for lowering";
  let description = [{
    Replaces every op implementing `linalg::AggregatedOpInterface` (today
    `linalg.softmax`) by the sequence of `linalg.generic` / `linalg.fill`
    ops its interface produces, so that `convert-linalg-to-loops` can lower
    it. Both pipelines run it first, among the normalizations before
    grouping (unless `linalg.softmax` is excluded from fusion; the GPU path
    then runs it again on the graphs, for the excluded softmax run alone);
    the CPU path runs it on the unfused reference. The upstream
    decomposition takes its row maximum with `arith.maxnumf` from NaN (NaN is
    maxnumf's identity); run before `smap-form-graphs`, it also makes a
    softmax temporally sliceable: `smap-temporal-slice` starts a running max
    or min whose init is NaN from -inf (+inf) instead.

    ```mlir
    // Before
    %y = linalg.softmax dimension(1) ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
    // After: fill, max-reduce, sub+exp, sum-reduce, div generics
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// convert-smap-to-gpu
//===----------------------------------------------------------------------===//

def ConvertSMapToGPUPass : Pass<"convert-smap-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Build the row kernels smap-schedule chose";
  let description = [{
    The row-kernel lowering. A graph that `smap-schedule` gave the strategy
    `rows` (a graph reducing along a single dim `n`, innermost in every
    tensor, parallel in all others: softmax, LayerNorm, RMSNorm, elementwise
    chains; f16/bf16 inputs computed in f32) becomes one kernel. A graph
    that is the whole of its function (its one graph, fed by its arguments,
    its results returned) turns the function into one on memrefs (inputs,
    then one out-parameter per result, `llvm.emit_c_interface`) that
    launches the kernel. Any other row graph (one of several in a function,
    fed by another graph, next to ops outside every graph) is replaced in
    place by its launch: its inputs read through `bufferization.to_buffer`
    (`read_only`), its results written to new `memref.alloc` buffers given
    back by `bufferization.to_tensor` (`restrict`, `writable`), which the
    bufferization of the rest of the function joins up; the launch is
    outlined at once (`--spacefusion-lower-gpu`), and its record leads the
    function's `smap.kernels` in launch order. The kernel has the
    schedule's layout: `threads / rows_per_block` threads per row, a warp
    per row when several rows share a block (reductions are shuffles only),
    a block of up to 512 threads otherwise (with one shared-memory step
    across warps). Rows that the threads do not split evenly (n = 1000)
    mask their last chunk: clamped loads, the combiner's identity in
    reductions, no store. Threads load the row with 16-byte vector loads
    into registers, evaluate the members in order, reduce along `n` with
    warp shuffles (`gpu.shuffle xor`) and store with 16-byte vector stores.
    Nothing intermediate goes through global memory. What was built is the
    `smap.kernels` record of the host function and a `convert-smap-to-gpu` remark;
    it matches the schedule (launch, threads, shared memory).

    The legality and the layout rules are `Analysis/RowKernelPlan.h`'s, the
    ones smap-schedule decided with; this pass checks the recorded layout
    and builds it, or fails naming why. It never chooses.

    Example: `spacefusion-opt --smap-form-graphs --smap-schedule
    --convert-smap-to-gpu softmax.mlir` on a `196608x512xf16` softmax gives
    one `gpu.launch` of 98304 blocks x 64 threads, the record
    `{strategy = "rows", blocks = 98304, threads = 64, parts = {rows =
    196608, rows_per_block = 2, vector = 8, chunks = 2}}`.

    A graph with another strategy (a contraction such as a GEMM or
    attention, several reduced dims, rows too long for registers:
    smap-schedule's remark says why), or a function with no graph, is an
    error, or, with `other-graphs`, is left unchanged for the general
    lowering (`smap-distribute-blocks`), as `--spacefusion-lower-gpu` does.

    Follow with `gpu-lower-to-nvvm-pipeline` for PTX/cubin and host code
    calling the `mgpu*` runtime (`libspacefusion_cuda_runtime.so`), or use
    `--spacefusion-lower-gpu`, which does both.
  }];
  let options = [
    Option<"approxMath", "approx-math", "bool", /*default=*/"true",
           "f32 exp through the fast hardware exp2 (ex2.approx, as Triton "
           "and torch.compile do); false keeps libdevice's exact-range expf">,
    Option<"hoistColumnLoads", "hoist-column-loads", "bool",
           /*default=*/"true",
           "In kernels with a warp per row, load per-column parameters "
           "(gamma, beta) at the start, overlapping their latency with the "
           "row's reductions, as Triton does (LayerNorm 16384x768 +9%, "
           "16384x1024 +3% on the H200; with a block per row, where it "
           "lowers occupancy, it measured 5-20% slower and is not done); "
           "false loads them on first use">,
    Option<"cacheHints", "cache-hints", "bool", /*default=*/"true",
           "In kernels with a warp per row, load per-column parameters "
           "(gamma, beta), which every row reads, with L1 and L2 evict_last "
           "hints (ld.global.L1::evict_last.L2::cache_hint, sm_80 and later; "
           "Triton does the same): LayerNorm 16384x1024 +2% on the H200. "
           "false for older chips">,
    Option<"otherGraphs", "other-graphs", "bool", /*default=*/"false",
           "Leave graphs not scheduled as row kernels (and functions with "
           "no graph) unchanged, for the general lowering "
           "(`smap-distribute-blocks`), instead of failing">
  ];
  let dependentDialects = [
    "::mlir::math::MathDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

//===----------------------------------------------------------------------===//
// smap-check-entry-shapes
//===----------------------------------------------------------------------===//

def SMapCheckEntryShapesPass : Pass<"smap-check-entry-shapes", "::mlir::ModuleOp"> {
  let summary = "Check the sizes of memref arguments at public entry points";
  let description = [{
    A shared object's C entry point (`_mlir_ciface_NAME`, memref descriptors
    by pointer) trusts the sizes in the descriptors it is given: a caller
    that passes a tensor of another shape would make the kernels read and
    write out of bounds. This pass makes every public function with
    statically shaped, identity-layout memref arguments take them with
    dynamic sizes instead (the descriptor layout, and so the C ABI, is the
    same) and compare each size with the static one on entry. On a mismatch
    it calls `spacefusionRuntimeArgumentMismatch(function, argument, dim,
    expected, actual)` from the project's runtime, which records an error the
    caller reads with `spacefusionRuntimeGetError`, and returns before
    anything is launched; otherwise the arguments are cast back to their
    static types and the body runs unchanged. Functions whose arguments are
    already dynamic, strided or not memrefs are left alone (their other
    arguments are still checked). The GPU pipeline runs it on the host code
    after bufferization.

    ```mlir
    // Before
    func.func @f(%x: memref<4x8xf16>) { ... }
    // After
    func.func @f(%x: memref<?x?xf16>) {
      // memref.dim + arith.cmpi per dim, cf.cond_br to ^body or ^mismatch
    ^mismatch:  // call @spacefusionRuntimeArgumentMismatch(...), return
    ^body(%s: memref<4x8xf16>):  // the original body, on memref.cast %x
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

//===----------------------------------------------------------------------===//
// smap-distribute-blocks
//===----------------------------------------------------------------------===//

def SMapDistributeBlocksPass : Pass<"smap-distribute-blocks", "::mlir::ModuleOp"> {
  let summary = "Turn bufferized spatial blocks into GPU thread blocks";
  let description = [{
    The general GPU lowering, for every graph the slicers produce
    (contractions and attention included). Input: the bufferized output of
    `convert-smap-to-scf{blocks-as-forall}`, where each spatial slice is an
    `scf.forall` over its blocks carrying `smap.schedule` (the graph's
    schedule: its kernel strategy and threads per block) and `smap.target`.

    The strategy was decided by `smap-schedule`; this pass builds it and
    nothing else. When the block cannot be built that way (the wgmma plan
    fails, the row tiles exceed the register budget, the plan takes other
    threads than the schedule's, the target lacks a feature), it fails
    with an error naming the strategy and the reason: it never falls back
    to another strategy.

    Each such `scf.forall` becomes a `gpu.launch` of one thread block per
    spatial block:

    * every buffer the block allocates (staged operand tiles, intermediate
      tiles, the temporal state) gets a fixed, 16-byte aligned place in
      dynamic shared memory (`gpu.dynamic_shared_memory` + `memref.view`,
      used through a generic pointer), buffers inside loops first; what does
      not fit the target's `smem_per_block` goes to a global scratch buffer
      with one region per block (`scratch=` in the kernel's description);
    * copies (`memref.copy`, `linalg.copy`) are strided over the threads,
      with 16-byte vector loads and stores when the alignment is provable;
    * `mma_sync` (and inside the other tensor-core strategies):
      contractions reading f16 operands (`acc + x * y`, f32 accumulators,
      extents multiples of 16 x 8 x 16) run on tensor cores: each warp owns
      16 x 32 output tiles and issues `nvgpu.mma.sync` m16n8k16, with
      operand fragments loaded by `nvgpu.ldmatrix` from shared-memory tiles
      (per lane in the instruction's layout otherwise); an f32 operand
      computed in the block (attention's probabilities) is rounded to f16.
      When such a contraction ends a temporal step and is the only op of the
      loop that touches its output, its accumulators stay in registers for
      the whole loop (`register-acc=`), the warps forming a grid over its
      tiles so that each loads every A and B fragment once per k-step;
    * `wgmma_tma` / `wgmma_tma_ws`, a block that is a GEMM plus an epilogue:
      its temporal step stages an A [m, k] tile and a B [k, n] tile of
      row-major f16/bf16 matrices in global memory and accumulates into a
      zeroed block buffer that only ops after the loop read, with a tile of 64 x {64, 128, 192, 256} or 128 x 128
      and k = 64 (what the upstream nvgpu lowering supports). One warpgroup
      (128 threads) runs it: the host encodes one TMA descriptor per operand
      (`nvgpu.tma.create.descriptor`, 128-byte swizzle, B in 64-column
      boxes); two to four stages of shared memory (the schedule's `stages`;
      a block whose other buffers leave no room for them is an error),
      1024-byte aligned at run time, are filled by thread 0 with
      `nvgpu.tma.async.load` completing on one `nvgpu.mbarrier` per stage
      (`arrive.expect_tx` with the stage's bytes); step i waits on its
      stage (`try_wait.parity`, parity (i / S) mod 2), issues
      `nvgpu.warpgroup.mma` (B read N-major, f32 accumulators in registers)
      keeping one group in flight, and after a barrier thread 0 refills the
      stage group i - 1 read with step i + S - 1. The accumulators go to a
      tile over the idle stages (`nvgpu.warpgroup.mma.store`), which the
      epilogue reads (its first elementwise op writes it in place)
      (`tile_m`, `tile_n`, `tile_k`, `stages`); `wgmma_tma_ws` adds a
      producer warp(group) issuing the loads while one consumer warpgroup
      per 64 rows multiplies, with registers moved by setmaxnreg;
    * `row_fragments` (register-level fusion): when every buffer the block
      computes is indexed by its rows and a tensor-core contraction writes
      one, each warp owns 16 or 32 rows and those buffers live in registers
      in the m16n8 accumulator layout (`warp-rows=`, `register-tiles=`):
      contractions issue mma.sync on them (an A operand from registers is
      rounded to f16), elementwise ops run per register, column reductions
      combine the four lanes of a row with xor shuffles, and the temporal
      loop carries them as iter_args. With `row_fragments_wgmma`, one slab
      per warp and each
      warpgroup issues its 64 rows' contractions as `wgmma.mma_async` on
      those registers (`wgmma=N`): operands staged in shared memory are
      stored in the 128-byte swizzle (`smap.swizzled_tile`) and read
      through descriptors, an A operand in registers is the row tile
      rounded to f16;
    * in a temporal loop, tiles staged from global memory at offsets that
      move with the step arrive by a cp.async pipeline (`cp.async=S`): S
      copies of each staged buffer (S = the schedule's `stages`, which
      smap-schedule chose, bounded by its `async-stages`; the pass fails
      when it cannot build them), the first S - 1 steps issued before the
      loop, each step waiting for its own group, synchronizing once and
      issuing the group S - 1 steps ahead (`prefetch=`); with one stage the
      next step's tile is loaded into registers at the start of the step
      and stored after the step's last reader; copies with few chunks per
      thread issue all their loads before their stores;
    * every other `linalg` op is distributed over the threads: its parallel
      iterations, linearized with the output's last dim fastest
      (coalesced), strided by the thread count; each thread runs the
      reduction loops with the accumulators in registers; an op without
      reductions runs four iterations per trip, all their loads first;
    * a `gpu.barrier` follows each distributed op; the temporal loop
      (`scf.for`) runs uniformly in all threads.

    Host code allocates (stream-ordered `gpu.alloc` / `gpu.dealloc`),
    copies between contiguous buffers (`gpu.memcpy`) and fills a whole
    buffer of 16- or 32-bit elements with a constant (`gpu.memset`: a
    reduction over an empty dim yields its init). Every other `linalg` op
    left outside the fusion graphs (an integer reduction, a gather, a copy
    into a strided slice) becomes a loop kernel of its own (strategy
    `loops`, no schedule): one thread per element of its parallel loops in
    blocks of up to 256, the last parallel loop fastest, its reduction loops
    in order in the thread, its body as written; the correct, unfused
    fallback, with a `loop-kernel` remark at the op. An op that cannot be
    one (a dynamic shape, an element type without device arithmetic, a body
    with side effects) and any other host op are errors naming it. A
    function that runs no kernel (its results reshape its arguments, or
    have no elements) still gets its copies. Each launch gets `smap.kernel
    = #smap.kernel<...>` (the strategy, launch, shared memory, scratch and
    parts built) and a `distribute-blocks` remark; the function gets
    `llvm.emit_c_interface` and the list `smap.kernels`.

    ```mlir
    // Before (after one-shot-bufferize)
    scf.forall (%blk) in (128) {
      %acc = memref.alloc() : memref<1x1x64x64xf32>
      linalg.fill ins(%zero : f32) outs(%acc : memref<1x1x64x64xf32>)
      ...
    } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<
         spatial = [m = 64], temporal = [], grid = [128], threads = 256,
         smem = 16384, regs = 40, strategy = simt>, smap.target = ...}
    // After
    gpu.launch blocks(%bx, ...) in (%gx = %c128, ...)
               threads(%tx, ...) in (%tbx = %c256, ...)
               dynamic_shared_memory_size %c16384_i32 {
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      ...
      scf.for %i = %tx to %c4096 step %c256 { ... memref.store ... }
      gpu.barrier
      ...
    }
    ```
  }];
  let options = [
    Option<"approxMath", "approx-math", "bool", /*default=*/"true",
           "exp and tanh on the hardware's approximate instructions "
           "(as the row kernels and FlashAttention do; f32 exp(x - c) as "
           "ex2.approx of one fma; a 16-bit exp as ex2.approx of its "
           "extended operand, rounded back, in blocks whose residency the "
           "registers cannot change (declared, or one per SM by shared "
           "memory); tanh as tanh.approx.f32)">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::affine::AffineDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::vector::VectorDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

//===----------------------------------------------------------------------===//
// smap-set-kernel-register-counts
//===----------------------------------------------------------------------===//

def SMapSetKernelRegisterCountsPass : Pass<"smap-set-kernel-register-counts",
                                       "::mlir::ModuleOp"> {
  let summary = "Give outlined kernels the register count their launch "
                "records (nvvm.maxnreg)";
  let description = [{
    The GPU lowerings decide how many registers a kernel's threads start
    with when the default would hurt, and record the count as `regs_entry`
    in the kernel's `#smap.kernel` record; gpu-kernel-outlining drops the
    launch's attributes, so the host function's `smap.kernels` carries the
    records, in the order of its launches. This pass, run after outlining,
    gives each launched `gpu.func` its record's count as `nvvm.maxnreg`
    (ptxas's `.maxnreg`). Two decisions record one:

    * A warp-specialized wgmma block moves registers between its warpgroups
      with `setmaxnreg` (`nvvm.setmaxregister`). ptxas honours it only when
      it knows the count at the kernel's entry; without it, it drops the
      instructions ("setmaxnreg ignored; unable to determine register count
      at entry"). The wgmma plan's entry count is what one block takes of
      the SM's register file.
    * A row kernel whose threads hold more row elements than fit in half
      of what two blocks per SM leave them is given the SM's whole register
      file (smap-schedule records it as the rows schedule's `regs`): ptxas
      otherwise aims at two blocks and spills (bench/results/
      rows-whole-register-file).

    A host function whose launches and records do not pair up, a kernel
    launched with two counts, and a kernel that reallocates registers
    without a count are errors, never a kernel whose `setmaxnreg` ptxas
    silently drops.

    ```mlir
    // Before: a 384-thread warp-specialized GEMM, whose record (the
    // host function's smap.kernels) has parts = {regs_entry = 168, ...}.
    func.func @gemm(...) attributes {smap.kernels = ...} {
      gpu.launch_func @gemm_kernel::@gemm_kernel ...
    }
    gpu.module @gemm_kernel {
      gpu.func @gemm_kernel() kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
        ...
        nvvm.setmaxregister decrease 40
    // After
      gpu.func @gemm_kernel() kernel attributes {known_block_size = array<i32: 384, 1, 1>, nvvm.maxnreg = 168 : i32} {
    ```
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::smap::SMapDialect"];
}

//===----------------------------------------------------------------------===//
// smap-overlap-kernel-launches
//===----------------------------------------------------------------------===//

def SMapOverlapKernelLaunchesPass : Pass<"smap-overlap-kernel-launches",
                                         "::mlir::ModuleOp"> {
  let summary = "Let each kernel start while the one before it finishes "
                "(programmatic dependent launch)";
  let description = [{
    A function of several kernels (a partitioned graph, a split reduction
    and its merge, an LSTM cell's GEMMs and gates) launches them one after
    the other on one stream, and each waits for the one before it to finish
    and then for its own launch.

    On a target with `dependent_launch` (Hopper), this pass, run after
    outlining,

    * ends every launched kernel with `nvvm.griddepcontrol launch_dependents`
      before each `gpu.return`: the grid after it may be launched once
      every block of this one is finishing;
    * starts every kernel that each launch of it follows another launch of
      its host function with `nvvm.griddepcontrol wait`: nothing of it
      touches memory before the grid before it has finished and its writes
      are visible, so it may be launched early; and declares so with a
      global named `spacefusion_dependent_launch_` + its name, which tells
      SpaceFusion's CUDA runtime to launch it with programmatic stream
      serialization (`cuLaunchKernelEx`).

    A function's first kernel follows the caller's work, which lets nothing
    launch early: it does not wait, and is launched as before. Measured on
    an H100 (bench/results/dependent-launch-h100): LSTM cells 1.05-1.07x
    faster, GEMM chains and MLPs 1.00-1.02x; launched early as well, single
    row kernels were 1.04x slower, and with the trigger at the kernels'
    start instead of their end a small partitioned attention 0.91x.
    Any other launcher runs the kernels unchanged (the wait returns at once
    when nothing was launched early). The decision is the pipeline's
    (`dependent-launch`, on by default where the target has the feature);
    `SPACEFUSION_DEPENDENT_LAUNCH=0` turns the runtime's part off, for A/B
    timing.

    ```mlir
    // Before: @merge is launched after @partial by the same host function.
    gpu.module @merge {
      gpu.func @merge(%a: memref<16xf32>) kernel { ... gpu.return }
    }
    // After
    gpu.module @merge {
      llvm.mlir.global external constant @spacefusion_dependent_launch_merge(1 : i32) {addr_space = 1 : i32} : i32
      gpu.func @merge(%a: memref<16xf32>) kernel {
        nvvm.griddepcontrol wait
        ...
        nvvm.griddepcontrol launch_dependents
        gpu.return
    ```
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// smap-drop-binary-timings
//===----------------------------------------------------------------------===//

def SMapDropBinaryTimingsPass : Pass<"smap-drop-binary-timings",
                                 "::mlir::ModuleOp"> {
  let summary = "Drop the compile times gpu-module-to-binary records";
  let description = [{
    Upstream `gpu-module-to-binary` records in each `#gpu.object`'s
    `properties` how long the serialization took
    (`LLVMIRToISATimeInMs`, `ISAToBinaryTimeInMs`), so that compiling the
    same input twice gives different IR. This pass removes every property
    whose name ends in `TimeInMs` (and `properties` when nothing else is
    left), which makes the output byte-reproducible: what build caches,
    golden files and reviews of IR dumps need. The pipelines run it with
    `reproducible=true`.

    ```mlir
    // Before
    #gpu.object<#nvvm.target<chip = "sm_90a">,
                properties = {LLVMIRToISATimeInMs = 20 : i64, O = 3 : i32},
                assembly = "...">
    // After
    #gpu.object<#nvvm.target<chip = "sm_90a">, properties = {O = 3 : i32},
                assembly = "...">
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // SPACEFUSION_CONVERSION_PASSES_TD
