//===- SMapDialect.cpp - SpaceMapping dialect -----------------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/IR/SMap.h"

using namespace mlir;
using namespace mlir::smap;

#include "spacefusion/Dialect/SMap/IR/SMapEnums.cpp.inc"

#include "spacefusion/Dialect/SMap/IR/SMapOpsDialect.cpp.inc"

void SMapDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "spacefusion/Dialect/SMap/IR/SMapOps.cpp.inc"
      >();
  registerAttributes();
}

/// Checks the discardable `smap.` attributes one pass leaves for another
/// (SMapBase.td lists them): each has one type; any other name is an error,
/// so a misspelt or retired attribute cannot pass silently.
LogicalResult SMapDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitOpError("attribute '")
           << name << "' must be " << what << ", got " << value;
  };
  if (name == getSpaceAttrHelper().getNameStr())
    return expect(isa<SpaceAttr>(value), "a #smap.space");
  if (name == getChainsAttrHelper().getNameStr() ||
      name == getRecomputeAttrHelper().getNameStr() ||
      name == getNotSliceableAttrHelper().getNameStr())
    return expect(isa<DictionaryAttr>(value), "a dictionary keyed by dim");
  if (name == getScheduleAttrHelper().getNameStr())
    return expect(isa<ScheduleAttr>(value), "a #smap.schedule");
  if (name == getTargetAttrHelper().getNameStr())
    return expect(isa<TargetAttr>(value), "a #smap.target");
  if (name == getStagedAttrHelper().getNameStr()) {
    auto index = dyn_cast<IntegerAttr>(value);
    return expect(index && index.getInt() >= 0, "a non-negative integer");
  }
  if (name == getSwizzledTileAttrHelper().getNameStr() ||
      name == getOverlappedTileAttrHelper().getNameStr() ||
      name == getFinalPassAttrHelper().getNameStr() ||
      name == getCheckedEntryAttrHelper().getNameStr() ||
      name == getRowKernelHostAttrHelper().getNameStr() ||
      name == getNoUtaAttrHelper().getNameStr())
    return expect(isa<UnitAttr>(value), "a unit attribute");
  if (name == getKernelAttrHelper().getNameStr())
    return expect(isa<KernelAttr>(value), "a #smap.kernel");
  if (name == getKernelsAttrHelper().getNameStr()) {
    auto list = dyn_cast<ArrayAttr>(value);
    if (!list)
      return expect(false, "a list of kernel records (dictionaries)");
    for (Attribute record : list) {
      auto dict = dyn_cast<DictionaryAttr>(record);
      if (!dict)
        return expect(false, "a list of kernel records (dictionaries)");
      if (failed(KernelAttr::fromDictionary(dict, [&] {
            return op->emitOpError("attribute '") << name << "': ";
          })))
        return failure();
    }
    return success();
  }
  return op->emitOpError("unknown attribute '")
         << name
         << "' of the smap dialect (smap.space, smap.chains, smap.recompute, "
            "smap.not_sliceable, smap.schedule, smap.target, smap.staged, "
            "smap.swizzled_tile, smap.overlapped_tile, smap.final_pass, "
            "smap.kernel, smap.kernels, "
            "smap.checked_entry, smap.row_kernel_host, smap.no_uta)";
}
