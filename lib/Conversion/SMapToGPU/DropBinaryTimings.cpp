//===- DropBinaryTimings.cpp - Reproducible gpu.binary objects ------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPDROPBINARYTIMINGSPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// `object` without the properties that time its compilation.
static gpu::ObjectAttr dropTimings(gpu::ObjectAttr object) {
  DictionaryAttr properties = object.getProperties();
  if (!properties)
    return object;
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute property : properties)
    if (!property.getName().getValue().ends_with("TimeInMs"))
      kept.push_back(property);
  MLIRContext *ctx = object.getContext();
  return gpu::ObjectAttr::get(
      ctx, object.getTarget(), object.getFormat(), object.getObject(),
      kept.empty() ? DictionaryAttr() : DictionaryAttr::get(ctx, kept),
      object.getKernels());
}

namespace {
struct DropBinaryTimingsPass
    : public smap::impl::SMapDropBinaryTimingsPassBase<DropBinaryTimingsPass> {
  void runOnOperation() override {
    getOperation()->walk([](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      for (Attribute object : binary.getObjects())
        objects.push_back(dropTimings(cast<gpu::ObjectAttr>(object)));
      binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
    });
  }
};
} // namespace
