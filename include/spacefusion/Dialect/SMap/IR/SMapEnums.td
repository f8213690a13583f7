//===- SMapEnums.td - SpaceMapping enums -------------------*- tablegen -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_IR_SMAPENUMS_TD
#define SPACEFUSION_DIALECT_SMAP_IR_SMAPENUMS_TD

include "mlir/IR/EnumAttr.td"

def SMap_DimClass : I32EnumAttr<"DimClass",
    "how a global dimension of a Space-Mapping Graph can be sliced", [
      I32EnumAttrCase<"Unclassified", 0, "unclassified">,
      I32EnumAttrCase<"Parallel", 1, "parallel">,
      I32EnumAttrCase<"ParallelRecompute", 2, "parallel_recompute">,
      I32EnumAttrCase<"Temporal", 3, "temporal">,
      I32EnumAttrCase<"NotSliceable", 4, "not_sliceable">
    ]> {
  let cppNamespace = "::mlir::smap";
  let genSpecializedAttr = 0;
}

def SMap_MappingKind : I32EnumAttr<"MappingKind",
    "how one space's elements feed another's along one dimension", [
      I32EnumAttrCase<"O2O", 0, "o2o">,
      I32EnumAttrCase<"O2A", 1, "o2a">,
      I32EnumAttrCase<"A2O", 2, "a2o">
    ]> {
  let cppNamespace = "::mlir::smap";
  let genSpecializedAttr = 0;
}

def SMap_Combiner : I32EnumAttr<"Combiner",
    "the associative operator an all-to-one mapping reduces with", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Add", 1, "add">,
      I32EnumAttrCase<"Max", 2, "max">,
      I32EnumAttrCase<"Min", 3, "min">,
      I32EnumAttrCase<"Mul", 4, "mul">
    ]> {
  let cppNamespace = "::mlir::smap";
  let genSpecializedAttr = 0;
}

def SMap_KernelStrategy : I32EnumAttr<"KernelStrategy",
    "how the GPU lowering builds the kernel of a scheduled graph", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Loops", 1, "loops">,
      I32EnumAttrCase<"Simt", 2, "simt">,
      I32EnumAttrCase<"MmaSync", 3, "mma_sync">,
      I32EnumAttrCase<"RowFragments", 4, "row_fragments">,
      I32EnumAttrCase<"RowFragmentsWgmma", 5, "row_fragments_wgmma">,
      I32EnumAttrCase<"WgmmaTma", 6, "wgmma_tma">,
      I32EnumAttrCase<"WgmmaTmaWarpSpecialized", 7, "wgmma_tma_ws">,
      I32EnumAttrCase<"Rows", 8, "rows">
    ]> {
  let cppNamespace = "::mlir::smap";
  let genSpecializedAttr = 0;
}

def SMap_TargetFeature : I32EnumAttr<"TargetFeature",
    "a hardware capability a GPU lowering strategy needs", [
      I32EnumAttrCase<"MmaSync", 0, "mma_sync">,
      I32EnumAttrCase<"Wgmma", 1, "wgmma">,
      I32EnumAttrCase<"Tma", 2, "tma">,
      I32EnumAttrCase<"Setmaxnreg", 3, "setmaxnreg">,
      I32EnumAttrCase<"CpAsync", 4, "cp_async">,
      I32EnumAttrCase<"Clusters", 5, "clusters">,
      I32EnumAttrCase<"CacheHints", 6, "cache_hints">,
      I32EnumAttrCase<"DependentLaunch", 7, "dependent_launch">
    ]> {
  let cppNamespace = "::mlir::smap";
  let genSpecializedAttr = 0;
}

#endif // SPACEFUSION_DIALECT_SMAP_IR_SMAPENUMS_TD
