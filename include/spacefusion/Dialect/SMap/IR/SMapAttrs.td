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
    "int64_t":$regsPerThread
  );
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
  let summary = "the hardware budget the scheduler slices for";
  let description = [{
    The resources and rates the resource model and the cost model use:
    shared memory per block (bytes), registers per thread and per SM, SM
    count, threads per block, peak DRAM bandwidth (GB/s) and peak FLOP/s
    (GFLOP/s) on tensor cores (f16) and CUDA cores (f32).

    ```mlir
    #smap.target<name = "sm_90a", smem_per_block = 232448,
                 regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132,
                 max_threads = 1024, bandwidth_gbps = 4800,
                 f16_gflops = 989000, f32_gflops = 67000>
    ```

    Every quantity must be positive and the name non-empty.
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
    "int64_t":$f32_gflops
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // SPACEFUSION_DIALECT_SMAP_IR_SMAPATTRS_TD
