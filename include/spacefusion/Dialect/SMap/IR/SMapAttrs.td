//===- SMapAttrs.td - SpaceMapping attributes --------------*- tablegen -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_IR_SMAPATTRS_TD
#define SPACEFUSION_DIALECT_SMAP_IR_SMAPATTRS_TD

include "spacefusion/Dialect/SMap/IR/SMapBase.td"
include "spacefusion/Dialect/SMap/IR/SMapEnums.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// DimAttr
//===----------------------------------------------------------------------===//

def SMap_DimAttr : SMap_Attr<"Dim", "dim"> {
  let summary = "a named global dimension of a Space-Mapping Graph";
  let description = [{
    One dimension of the graph's global iteration domain: its name, its
    static extent, and, after `smap-analyze`, how it can be sliced:

    * `parallel`: no member op reduces along it; blocks are independent.
    * `parallel_recompute`: sliceable only by recomputing, in every block, an
      intermediate that is broadcast (one-to-all) along it.
    * `temporal`: a reduction dim that can be cut into serial slices (an
      independent reduction, or a dependent-reduction chain that
      Update-then-Aggregate rewrites).
    * `not_sliceable`: neither (the analysis says why in a remark).
    * `unclassified`: not analyzed yet (the default, not printed).

    ```mlir
    #smap.dim<"m", 512>
    #smap.dim<"l", 512, temporal>
    ```

    The extent must be positive; names must be non-empty.
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "int64_t":$extent,
    DefaultValuedParameter<"::mlir::smap::DimClass",
                           "::mlir::smap::DimClass::Unclassified">:$dimClass
  );
  let assemblyFormat = "`<` $name `,` $extent (`,` $dimClass^)? `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// MappingAttr
//===----------------------------------------------------------------------===//

def SMap_MappingAttr : SMap_Attr<"Mapping", "mapping"> {
  let summary = "the mapping kind of one dimension of an SMG edge";
  let description = [{
    How elements of a source space feed a destination space along one named
    dimension:

    * `o2o` (one-to-one): element i feeds element i.
    * `o2a` (one-to-all): the source lacks the dimension; each element is
      broadcast to every position along it.
    * `a2o` (all-to-one): every position along the dimension feeds one
      element, combined with an associative `add`, `max`, `min` or `mul`.

    ```mlir
    #smap.mapping<"m", o2o>
    #smap.mapping<"l", o2a>
    #smap.mapping<"k", a2o, add>
    ```

    An `a2o` mapping must name its combiner; the other kinds must not.
  }];
  let parameters = (ins
    "::mlir::StringAttr":$dim,
    "::mlir::smap::MappingKind":$kind,
    DefaultValuedParameter<"::mlir::smap::Combiner",
                           "::mlir::smap::Combiner::None">:$combiner
  );
  let assemblyFormat = "`<` $dim `,` $kind (`,` $combiner^)? `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// SpaceAttr
//===----------------------------------------------------------------------===//

def SMap_SpaceAttr : SMap_Attr<"Space", "space"> {
  let summary = "the iteration space of one member op and its input mappings";
  let description = [{
    Attached by `smap-analyze` to each member op of an `smap.graph`: the
    space's name (the op's role, e.g. `QK`), the global dims its iteration
    space covers, and for each operand (inputs, then inits) the mappings
    that are not one-to-one. A dim of the space the operand lacks is
    one-to-all; a dim the result lacks is all-to-one, with the combiner the
    op's body reduces with.

    ```mlir
    #smap.space<"QK", ["m", "l", "k"],
      [[#smap.mapping<"l", o2a>], [#smap.mapping<"m", o2a>], []],
      [#smap.mapping<"k", a2o, add>]>
    ```

    Dims must be unique and every mapping must name one of them.
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "::mlir::ArrayAttr":$dims,
    "::mlir::ArrayAttr":$operands,
    "::mlir::ArrayAttr":$reductions
  );
  let assemblyFormat = "`<` $name `,` $dims `,` $operands `,` $reductions `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

def SMap_ScheduleAttr : SMap_Attr<"Schedule", "schedule"> {
  let summary = "how a Space-Mapping Graph is sliced";
  let description = [{
    The slicing chosen (or given) for an `smap.graph`: spatial tile sizes per
    sliced dim (each block of the grid computes one tile), temporal slice
    sizes per serially sliced dim, the launch grid (one entry per spatial
    dim, `ceildiv(extent, tile)`), threads per block, and the resource
    estimate: shared memory bytes per block and registers per thread.

    ```mlir
    #smap.schedule<spatial = [b = 1, h = 1, m = 64], temporal = [l = 64],
                   grid = [2, 8, 8], threads = 128, smem = 49152, regs = 96>
    ```

    On a GPU target, `smap-schedule` also decides the kernel strategy, the
    one the GPU lowering (`smap-distribute-blocks`) then builds, or fails
    naming why; it never picks another one:

    * `loops`: a CPU target; no GPU kernel.
    * `simt`: every op on CUDA cores, intermediates in shared memory.
    * `mma_sync`: contractions on tensor cores (mma.sync m16n8k16, ldmatrix
      from shared memory), the rest as `simt`.
    * `row_fragments`: every intermediate is a tile of the block's rows and
      stays in registers, 16 (or 32) rows per warp, contractions on mma.sync.
    * `row_fragments_wgmma`: the same with the contractions on wgmma, one
      warpgroup per 64 rows, B (and A unless in registers) from swizzled
      shared-memory tiles.
    * `wgmma_tma`: one GEMM plus an epilogue; TMA loads into a multi-stage
      ring and wgmma on one warpgroup.
    * `wgmma_tma_ws`: the same, warp-specialized: one consumer warpgroup per
      64 rows and a producer warp(group) issuing the loads.
    * `rows`: a row kernel (softmax, LayerNorm, RMSNorm): the graph reduces
      along one innermost dim only, each row is held in the registers of
      `threads` threads (a warp, or a block of up to 512), and a block of a
      warp per row holds `rows_per_block` consecutive rows. The spatial
      list slices every row dim by 1 (the grid counts rows); the launch has
      `grid / rows_per_block` blocks. `regs` is the count every thread
      starts with (`nvvm.maxnreg`): the SM's whole register file when the
      elements of a row a thread holds do not fit half of what two blocks
      per SM would leave it, else 0 (ptxas chooses).

    ```mlir
    #smap.schedule<spatial = [r = 1], temporal = [], grid = [16384],
                   threads = 64, smem = 0, regs = 0, strategy = rows,
                   rows_per_block = 2>
    ```

    ```mlir
    #smap.schedule<spatial = [m = 128, n = 128], temporal = [k = 64],
                   grid = [32, 32], threads = 128, smem = 99328, regs = 160,
                   strategy = wgmma_tma, stages = 3>
    ```

    `none` (not printed) means not decided yet: the CPU path ignores the
    strategy, the GPU lowering refuses a schedule without one. `stages` is
    the pipeline depth, chosen with the tiles: the TMA stages of a wgmma
    block (2 to 4, for the waves the grid fills), the cp.async copies of the
    staged tiles that move with the temporal step for row-fragment (1 to 3)
    and simt / mma_sync blocks (0, not printed, when no tile moves; at most
    3), as deep as keeps two blocks per SM, and only for tiles the block's
    threads copy in 16-byte chunks, the same number each (the lowering
    fails when it cannot build them); 0 for the other strategies.
    `smem` is the shared memory the block is built with (the lowering
    fails when its buffers take more): exact, except for simt, where it is
    an upper bound. `rows_per_block` is positive exactly for
    `rows`, divides the grid's blocks and, above 1, comes with a warp per
    row (`threads = 32 * rows_per_block`).

    `blocks_per_sm` (0, not printed, when not declared) is the residency
    the block kernel is built for: its threads start with `regs` registers
    (`nvvm.maxnreg`), at most what that many blocks of `threads` leave each
    thread of the SM's register file (rounded down to 8, the allocation
    granule), so ptxas fits them, spilling if it must. `smap-schedule`
    prices the candidate at that residency; it declares two for a
    row-fragment block on wgmma whose ragged last slice would take ptxas
    past two blocks' share (docs/Rationale.md), and any residency its
    `blocks-per-sm` option asks for.

    ```mlir
    #smap.schedule<spatial = [b = 1, h = 1, m = 128], temporal = [l = 128],
                   grid = [64, 12, 2], threads = 256, smem = 93184,
                   regs = 128, strategy = row_fragments_wgmma, stages = 2,
                   blocks_per_sm = 2>
    ```

    Sizes must be positive, a dim may appear once, and the grid has one
    positive entry per spatial dim. `smap.graph` checks the sizes against
    its dims and its target.
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::smap::SliceSize">:$spatial,
    ArrayRefParameter<"::mlir::smap::SliceSize">:$temporal,
    ArrayRefParameter<"int64_t">:$grid,
    "int64_t":$threads,
    "int64_t":$smemBytes,
    "int64_t":$regsPerThread,
    DefaultValuedParameter<"::mlir::smap::KernelStrategy",
                           "::mlir::smap::KernelStrategy::None">:$strategy,
    DefaultValuedParameter<"int64_t", "0">:$stages,
    DefaultValuedParameter<"int64_t", "0">:$rowsPerBlock,
    DefaultValuedParameter<"int64_t", "0">:$blocksPerSm
  );
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<::mlir::smap::SliceSize>":$spatial,
                     "::llvm::ArrayRef<::mlir::smap::SliceSize>":$temporal,
                     "::llvm::ArrayRef<int64_t>":$grid, "int64_t":$threads,
                     "int64_t":$smemBytes, "int64_t":$regsPerThread), [{
      return $_get($_ctxt, spatial, temporal, grid, threads, smemBytes,
                   regsPerThread, ::mlir::smap::KernelStrategy::None, 0, 0,
                   0);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns the tile size of `dim` in the spatial list, if sliced there.
    std::optional<int64_t> getSpatialSize(::llvm::StringRef dim) const;
    /// Returns the slice size of `dim` in the temporal list, if sliced there.
    std::optional<int64_t> getTemporalSize(::llvm::StringRef dim) const;
  }];
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

def SMap_TargetAttr : SMap_Attr<"Target", "target"> {
  let summary = "the hardware the scheduler slices for: budgets, rates, capabilities";
  let description = [{
    The resources and rates the resource model and the cost model use:
    shared memory per block (bytes), registers per thread and per SM, SM
    count, threads per block, peak DRAM bandwidth (GB/s) and peak FLOP/s
    (GFLOP/s) on tensor cores (f16) and CUDA cores (f32).

    What the hardware can do is described, never inferred from the name:

    * `arch`: the compute capability times ten (90 for sm_90a, 80 for
      sm_80); 0 for a CPU, which has no GPU kernels (one thread per block).
    * `features`: the capabilities the GPU strategies need (`mma_sync`,
      `wgmma`, `tma`, `setmaxnreg`, `cp_async`, `clusters`, `cache_hints`),
      and `dependent_launch` (a kernel may start while the one before it
      in the stream finishes, `griddepcontrol`). A strategy is considered
      only on a target that has its features.
    * `smem_per_sm`, `l2_bytes`: shared memory per SM and the L2 cache
      (0: unknown).
    * `l2_gbps`: the rate blocks read data L2 holds (GB/s; 0: unknown, and
      the cost model then prices every read of global memory at
      `bandwidth_gbps`). A value measured on the hardware; bench/results
      names the measurement.
    * `mma_sync_gflops`: the f16 rate mma.sync tiles reach, where it is
      below the tensor-core peak (0: the peak). A value measured on the
      hardware; bench/results names the measurement.

    ```mlir
    #smap.target<name = "sm_90a", smem_per_block = 232448,
                 regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132,
                 max_threads = 1024, bandwidth_gbps = 4800,
                 f16_gflops = 989000, f32_gflops = 67000, arch = 90,
                 features = ["mma_sync", "wgmma", "tma"]>
    ```

    Every budget and rate must be positive, the name non-empty, the
    features known and unique; a GPU (`arch` > 0) needs `max_threads` > 1.
  }];
  let parameters = (ins
    StringRefParameter<"target name">:$name,
    "int64_t":$smem_per_block,
    "int64_t":$regs_per_thread,
    "int64_t":$regs_per_sm,
    "int64_t":$sm_count,
    "int64_t":$max_threads,
    "int64_t":$bandwidth_gbps,
    "int64_t":$f16_gflops,
    "int64_t":$f32_gflops,
    DefaultValuedParameter<"int64_t", "0">:$arch,
    OptionalParameter<"::mlir::ArrayAttr">:$features,
    DefaultValuedParameter<"int64_t", "0">:$smem_per_sm,
    DefaultValuedParameter<"int64_t", "0">:$l2_bytes,
    DefaultValuedParameter<"int64_t", "0">:$mma_sync_gflops,
    DefaultValuedParameter<"int64_t", "0">:$l2_gbps
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the target runs GPU kernels (a CPU runs loops).
    bool isGPU() const { return getArch() > 0; }
    /// Whether the target lists `feature`.
    bool hasFeature(::mlir::smap::TargetFeature feature) const;
    /// The f16 rate of mma.sync tiles (GFLOP/s).
    int64_t getMmaSyncRate() const {
      return getMmaSyncGflops() ? getMmaSyncGflops() : getF16Gflops();
    }
  }];
}

//===----------------------------------------------------------------------===//
// KernelAttr
//===----------------------------------------------------------------------===//

def SMap_KernelAttr : SMap_Attr<"Kernel", "kernel"> {
  let summary = "what the GPU lowering built for one block kernel";
  let description = [{
    Left by `smap-distribute-blocks` on each `gpu.launch` it builds (and on
    the host function, which keeps it after outlining, as the list
    `smap.kernels` of the same records as builtin dictionaries, which tools
    without this dialect can read): the strategy (the schedule's, or
    `loops` for the loop kernel of an op outside every graph, which has no
    schedule), the launch (blocks, threads, dynamic shared memory, global
    scratch) and, in `parts`, what each part became (integers; absent means
    0):

    * `tile_m`, `tile_n`, `tile_k`, `stages`: the wgmma block tile and its
      TMA pipeline depth; `consumers` and `producer_warps` for a
      warp-specialized one; `regs_entry`, `regs_producer`, `regs_consumer`
      when it reallocates registers (`setmaxnreg`). `regs_entry` is the
      count every thread starts with, for any strategy that sets one
      (`smap-set-kernel-register-counts` gives it to the outlined kernel as
      `nvvm.maxnreg`). `blocks_per_sm`: the residency the schedule
      declares (its `regs` is then `regs_entry`).
    * `wgmma`, `mma_sync`, `fma`: contractions on wgmma, on mma.sync and on
      CUDA cores; `fma_lanes`: the most results one thread of a CUDA-core
      contraction accumulates in registers (its micro-tile, rows x
      columns); `ldmatrix`: operands loaded by ldmatrix;
      `warp_rows`, `register_tiles`: rows per warp and buffers kept in
      registers (row fragments); `row_replicas`: copies of a block's one
      row warp (four warps issue its staged copies, the first writes global
      memory); `register_acc`: accumulators in registers;
      `prefetch`: loops whose loads are prefetched; `cp_async`: the depth of
      cp.async pipelines.
    * `rows`, `rows_per_block`, `vector`, `chunks`, `ragged`, `tiles` (a
      row kernel, strategy `rows`): the rows, rows per block, elements per
      load, loads per thread and row (and tile), 1 when the last chunk is
      partial, and the tiles a row too long for registers is streamed in;
      its schedule's `regs`, when not 0, as `regs_entry`.

    `predicted` is what the schedule it was built from predicted
    (`#smap.schedule`: `strategy`, `blocks`, `threads`, `smem`, `regs`,
    `stages`), so that a record shows the prediction beside what was built
    (equal, except the shared memory of simt blocks, which the schedule
    bounds).

    ```mlir
    #smap.kernel<strategy = wgmma_tma, blocks = 1024, threads = 128,
                 smem = 99328, parts = {stages = 3 : i64, tile_k = 64 : i64,
                 tile_m = 128 : i64, tile_n = 128 : i64},
                 predicted = {blocks = 1024 : i64, regs = 168 : i64,
                 smem = 99328 : i64, stages = 3 : i64,
                 strategy = "wgmma_tma", threads = 128 : i64}>
    ```

    The launch must be positive, the parts known integers, none negative,
    the prediction's fields those above (a known strategy, the rest
    non-negative integers); a `loops` kernel has no prediction, shared
    memory or scratch; `smap-write-kernel-manifest` writes the kernels
    as JSON.
  }];
  let parameters = (ins
    "::mlir::smap::KernelStrategy":$strategy,
    "int64_t":$blocks,
    "int64_t":$threads,
    "int64_t":$smem,
    DefaultValuedParameter<"int64_t", "0">:$scratch,
    OptionalParameter<"::mlir::DictionaryAttr">:$parts,
    OptionalParameter<"::mlir::DictionaryAttr">:$predicted
  );
  let extraClassDeclaration = [{
    /// The count `key` of `parts` (0 when absent).
    int64_t getPart(::llvm::StringRef key) const;
    /// The keys `parts` may hold, in the order the docs list them.
    static ::llvm::ArrayRef<::llvm::StringRef> getPartKeys();
    /// "strategy=S blocks=B threads=T smem=M [scratch=X] part=N ..." (the
    /// parts in getPartKeys' order), for remarks.
    std::string describe() const;
    /// The record as a builtin dictionary (strategy as a string, the rest
    /// as i64), the form host functions carry in `smap.kernels` so that
    /// tools without the smap dialect (mlir-translate) read the IR.
    ::mlir::DictionaryAttr toDictionary() const;
    /// The record as JSON (the kernel manifest's and smap-dump-kernels'
    /// form): strategy, blocks, threads, smem, scratch and the parts
    /// present.
    ::llvm::json::Object toJSON() const;
    /// `schedule`'s prediction in the form of `predicted`.
    static ::mlir::DictionaryAttr getPrediction(ScheduleAttr schedule);
    /// The record a dictionary of toDictionary's form describes; fails with
    /// a diagnostic when it is not one.
    static ::mlir::FailureOr<KernelAttr>
    fromDictionary(::mlir::DictionaryAttr dict,
                   ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);
  }];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // SPACEFUSION_DIALECT_SMAP_IR_SMAPATTRS_TD
