//===- SMapBase.td - SpaceMapping dialect definition -------*- tablegen -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_IR_SMAPBASE_TD
#define SPACEFUSION_DIALECT_SMAP_IR_SMAPBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def SMap_Dialect : Dialect {
  let name = "smap";
  let cppNamespace = "::mlir::smap";
  let summary = "The SpaceMapping dialect: dependency spaces and their slicing";
  let description = [{
    The SpaceMapping (`smap`) dialect represents the Space-Mapping Graph (SMG)
    of SpaceFusion (EuroSys '25) between `linalg` on tensors and `gpu`.

    * `smap.graph` holds one fusion group (one candidate kernel). After
      analysis it carries the graph's global dimensions (`#smap.dim`) with
      their slicing class, and its member ops carry their iteration spaces
      and per-operand mappings (`#smap.mapping`: one-to-one, one-to-all,
      all-to-one with a combiner).
    * `#smap.schedule` and `#smap.target` record how the graph is sliced and
      for which hardware.
    * `smap.spatial_slice` is a grid of independent blocks;
      `smap.temporal_slice` is a serial loop over slices of one dimension
      whose carried values are partial reductions, with the
      Update-then-Aggregate step written out in its `update` region.

    The attributes one pass leaves on ops of other dialects for a later
    pass are declared (discardable attributes) and checked by the dialect's
    verifier; any other `smap.` attribute is an error:

    | attribute | on | what it says |
    |---|---|---|
    | `smap.space` | a graph member | its `#smap.space` (smap-analyze) |
    | `smap.chains`, `smap.recompute`, `smap.not_sliceable` | a graph | per dim: its reduction chain, the members it recomputes, why it is not sliceable |
    | `smap.schedule`, `smap.target` | the `scf.forall` of a graph's blocks | the graph's schedule (strategy, threads) and target (convert-smap-to-scf) |
    | `smap.staged` | a block buffer | the staged input's position |
    | `smap.swizzled_tile` | a staged tile | wgmma reads it in the 128-byte swizzle |
    | `smap.overlapped_tile` | the destination of a block's result tile | a ragged last block overlaps the tile: the block computes it in a buffer of its own and copies it out once (convert-smap-to-scf) |
    | `smap.final_pass` | a temporal loop | the second pass of a chain |
    | `smap.kernel` | a `gpu.launch` | the `#smap.kernel` built (smap-distribute-blocks) |
    | `smap.kernels` | a host function | its kernels, as dictionaries readable without this dialect |
    | `smap.checked_entry` | a function | its argument sizes are checked |
    | `smap.row_kernel_host` | a function | convert-smap-to-gpu rebuilt it as the host side of one row kernel; smap-distribute-blocks leaves it as it is |
    | `smap.no_uta` | a graph | Update-then-Aggregate is disabled (smap-analyze `allow-uta=false`); the graphs partitioned or sliced from it inherit it |

    ```mlir
    %out = smap.graph(%a = %x : tensor<128x64xf32>) -> (tensor<128xf32>)
        attributes {dims = [#smap.dim<"m", 128, parallel>,
                            #smap.dim<"k", 64, temporal>]} {
      ...
      smap.yield %sum : tensor<128xf32>
    }
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];

  // The attributes one pass leaves on ops of other dialects for another
  // pass: the protocol between the stages, checked by the dialect's
  // verifier (an unknown `smap.` attribute is an error).
  //
  // * `smap.space` (on a graph's member op): its space and mappings.
  // * `smap.chains`, `smap.recompute`, `smap.not_sliceable` (on a graph):
  //   per dim, its dependent-reduction chain, the members it recomputes, or
  //   why it cannot be sliced.
  // * `smap.schedule`, `smap.target` (on the `scf.forall` of a graph's
  //   blocks): the schedule, with its kernel strategy, and the target.
  // * `smap.staged` (on a block's buffer): the staged input's position.
  // * `smap.swizzled_tile` (on a staged tile): wgmma reads it swizzled.
  // * `smap.overlapped_tile` (on the tensor.empty a block's result tile is
  //   copied into): another block writes the same elements, so the tile is
  //   computed privately and written once.
  // * `smap.final_pass` (on a temporal loop): the second pass of a chain.
  // * `smap.kernel` (on a `gpu.launch` or a row kernel's function) and
  //   `smap.kernels` (on the host function): what was built.
  // * `smap.checked_entry` (on a function): its argument sizes are checked.
  // * `smap.row_kernel_host` (on a function): already the host side of a
  //   row kernel, which the block lowering leaves alone.
  // * `smap.no_uta` (on a graph): Update-then-Aggregate is disabled.
  let discardableAttrs = (ins
    "::mlir::smap::SpaceAttr":$space,
    "::mlir::DictionaryAttr":$chains,
    "::mlir::DictionaryAttr":$recompute,
    "::mlir::DictionaryAttr":$not_sliceable,
    "::mlir::smap::ScheduleAttr":$schedule,
    "::mlir::smap::TargetAttr":$target,
    "::mlir::IntegerAttr":$staged,
    "::mlir::UnitAttr":$swizzled_tile,
    "::mlir::UnitAttr":$overlapped_tile,
    "::mlir::UnitAttr":$final_pass,
    "::mlir::smap::KernelAttr":$kernel,
    "::mlir::ArrayAttr":$kernels,
    "::mlir::UnitAttr":$checked_entry,
    "::mlir::UnitAttr":$row_kernel_host,
    "::mlir::UnitAttr":$no_uta
  );
  let hasOperationAttrVerify = 1;
}

class SMap_Op<string mnemonic, list<Trait> traits = []>
    : Op<SMap_Dialect, mnemonic, traits>;

class SMap_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<SMap_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // SPACEFUSION_DIALECT_SMAP_IR_SMAPBASE_TD
