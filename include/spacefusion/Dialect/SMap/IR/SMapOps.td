//===- SMapOps.td - SpaceMapping operations ----------------*- tablegen -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_IR_SMAPOPS_TD
#define SPACEFUSION_DIALECT_SMAP_IR_SMAPOPS_TD

include "spacefusion/Dialect/SMap/IR/SMapBase.td"
include "spacefusion/Dialect/SMap/IR/SMapAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def SMap_DimArrayAttr : TypedArrayAttrBase<SMap_DimAttr, "array of #smap.dim">;

// A graph reads tensors, and scalars such as a scale or an epsilon that a
// frontend passes as a function argument.
def SMap_GraphInputType : AnyTypeOf<[AnyRankedTensor, AnySignlessIntegerOrIndex,
                                     AnyFloat]>;

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

def SMap_GraphOp : SMap_Op<"graph", [
    IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects]> {
  let summary = "one fusion group: a Space-Mapping Graph, one candidate kernel";
  let description = [{
    Holds the member ops (linalg on tensors) of one fusion group. It is
    isolated from above: the graph's inputs (ranked tensors, or scalars
    such as a scale) are its operands, bound to the entry block's
    arguments, and its outputs are the operands of the `smap.yield` that
    ends the body.

    Optional attributes record what the passes decide:
    * `dims`: the global dims (`#smap.dim`) with their classes
      (`smap-analyze`);
    * `schedule`: the chosen slicing (`#smap.schedule`, `smap-schedule`);
    * `target`: the hardware the schedule is for (`#smap.target`).

    ```mlir
    %sum = smap.graph(%in = %x : tensor<128x64xf32>) -> (tensor<128xf32>)
        attributes {dims = [#smap.dim<"m", 128>, #smap.dim<"k", 64>]} {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>)
             -> tensor<128xf32>
      %r = linalg.reduce ins(%in : tensor<128x64xf32>)
             outs(%f : tensor<128xf32>) dimensions = [1]
        (%a: f32, %b: f32) {
          %s = arith.addf %a, %b : f32
          linalg.yield %s : f32
        }
      smap.yield %r : tensor<128xf32>
    }
    ```

    The verifier checks that block arguments match the operands, that the
    yielded values match the results, that dims are unique, and that a
    schedule only slices known dims, by sizes no larger than their extents,
    with the grid those sizes imply and within the target's budget.
  }];
  let arguments = (ins
    Variadic<SMap_GraphInputType>:$inputs,
    OptionalAttr<SMap_DimArrayAttr>:$dims,
    OptionalAttr<SMap_ScheduleAttr>:$schedule,
    OptionalAttr<SMap_TargetAttr>:$target
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs)>
  ];
  let extraClassDeclaration = [{
    /// The terminator of the body.
    YieldOp getYield();
    /// Looks up a global dim by name in the `dims` attribute.
    DimAttr lookupDim(::llvm::StringRef name);
  }];
}

//===----------------------------------------------------------------------===//
// SpatialSliceOp
//===----------------------------------------------------------------------===//

def SMap_SpatialSliceOp : SMap_Op<"spatial_slice", [
    SingleBlock, RecursiveMemoryEffects]> {
  let summary = "a grid of independent blocks over spatially sliced dims";
  let description = [{
    Cuts the listed dims into tiles; each block of the grid
    (`ceildiv(extent, tile)` blocks per dim) runs the body once, with the
    tile's offsets along the sliced dims as the entry block's `index`
    arguments, and yields one tile per result. `result_dims` names the
    global dim of every dimension of every result; a result's dimension
    along a sliced dim has the dim's full extent, and the yielded tile has
    the tile size there. Every result must vary along every sliced dim,
    otherwise several blocks would write the same elements.

    Where the tile does not divide the extent (197 tokens in tiles of 64),
    the last block's offset is `extent - tile` instead of its nominal one:
    its tile ends at the extent and overlaps its neighbour's, so every
    block has a static shape and reads only in bounds. The overlapping
    elements are computed by both blocks from the same inputs at the same
    positions, so both write the same values.

    ```mlir
    %o = smap.spatial_slice [#smap.dim<"m", 512>, #smap.dim<"n", 256>]
           tiles [64, 128] results [["m", "n"]] : tensor<512x256xf32> {
    ^bb0(%m: index, %n: index):
      ...
      smap.yield %tile : tensor<64x128xf32>
    }
    ```
  }];
  let arguments = (ins
    SMap_DimArrayAttr:$dims,
    DenseI64ArrayAttr:$tiles,
    ArrayAttr:$result_dims
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $dims `tiles` $tiles `results` $result_dims attr-dict
    `:` type($results) $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of blocks of the grid along each sliced dim.
    ::llvm::SmallVector<int64_t> getGrid();
  }];
}

//===----------------------------------------------------------------------===//
// TemporalSliceOp
//===----------------------------------------------------------------------===//

def SMap_TemporalSliceOp : SMap_Op<"temporal_slice", [
    RecursiveMemoryEffects, AttrSizedOperandSegments]> {
  let summary = "a serial loop over slices of one dim with explicit updates";
  let description = [{
    Runs over `dim` in slices of `slice_size` elements (the last slice may be
    shorter), carrying partial reductions, initialized from `inits`. The
    `slice` region receives the slice's nominal offset (a multiple of the
    slice size); where the slice size does not divide the extent, the body
    smap-temporal-slice builds reads the last slice at `extent - slice_size`
    (static shapes, in bounds) and leaves the elements before the nominal
    offset, which earlier slices combined, out of every reduction that is
    not idempotent. Each step is written as Update-then-Aggregate:

    * the `slice` region receives the slice's offset and the carried state,
      and yields the slice's *contributions* (anything the update needs:
      a new running maximum, partial sums computed against it, ...);
    * the `update` region receives the old state followed by the
      contributions and yields the new state: it first *updates* the old
      partials (for example rescales them by `exp(m_old - m_new)`), then
      *aggregates* the slice's contribution.

    The op's results are the final state. Online softmax, for instance:

    ```mlir
    %r:3 = smap.temporal_slice #smap.dim<"l", 512, temporal> step 64
        inits(%m0, %s0, %acc0) : tensor<64xf32>, tensor<64xf32>,
        tensor<64x64xf32> -> tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    slice {
    ^bb0(%off: index, %m: tensor<64xf32>, %s: tensor<64xf32>,
         %acc: tensor<64x64xf32>):
      ...  // m_new = max(m, rowmax(S)); p = exp(S - m_new)
      smap.yield %m_new, %rowsum_p, %p_v
          : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } update {
    ^bb0(%m: tensor<64xf32>, %s: tensor<64xf32>, %acc: tensor<64x64xf32>,
         %m_new: tensor<64xf32>, %ps: tensor<64xf32>,
         %pv: tensor<64x64xf32>):
      ...  // alpha = exp(m - m_new); s' = s*alpha + ps; acc' = acc*alpha + pv
      smap.yield %m_new, %s2, %acc2
          : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    ```

    With `from %start` the loop starts at `%start` (a multiple of the slice
    size), with `upto %end` it stops at the first slice offset at or past
    `%end` (a multiple of the slice size, at most the extent): the slices
    outside are ones whose every element a mask hides, which contribute
    nothing (causal attention: the keys past a query block's last query; a
    sliding window: also the keys before its first query's window);
    smap-temporal-slice derives the bounds from the mask.

    The verifier checks that there is state to carry, the slice size against
    the extent, the `slice`
    region's arguments (an `index`, then the state), the `update` region's
    arguments (the state, then what `slice` yields) and that `update`
    yields the state's types.
  }];
  let arguments = (ins
    SMap_DimAttr:$dim,
    I64Attr:$slice_size,
    Optional<Index>:$lower,
    Optional<Index>:$upper,
    Variadic<AnyType>:$inits
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$slice, SizedRegion<1>:$update);
  let assemblyFormat = [{
    qualified($dim) `step` $slice_size (`from` $lower^)? (`upto` $upper^)?
    `inits` `(` $inits `)`
    `:` type($inits)
    `->` type($results) attr-dict `slice` $slice `update` $update
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of slices, counting a ragged last slice.
    int64_t getNumSlices();
  }];
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def SMap_YieldOp : SMap_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["GraphOp", "SpatialSliceOp", "TemporalSliceOp"]>]> {
  let summary = "terminates the regions of smap ops";
  let description = [{
    Yields the values of a region: the graph's outputs, a block's tiles, a
    slice's contributions or the updated state.

    ```mlir
    smap.yield %a, %b : tensor<64xf32>, tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // SPACEFUSION_DIALECT_SMAP_IR_SMAPOPS_TD
