//===- SMap.h - SpaceMapping dialect ----------------------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_IR_SMAP_H
#define SPACEFUSION_DIALECT_SMAP_IR_SMAP_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/JSON.h"

namespace mlir {
namespace smap {

/// One entry of a schedule's slice list: a global dim and its tile (spatial)
/// or slice (temporal) size.
struct SliceSize {
  StringAttr dim;
  int64_t size;

  bool operator==(const SliceSize &other) const {
    return dim == other.dim && size == other.size;
  }
};

inline llvm::hash_code hash_value(const SliceSize &s) {
  return llvm::hash_combine(s.dim, s.size);
}

} // namespace smap
} // namespace mlir

#include "spacefusion/Dialect/SMap/IR/SMapEnums.h.inc"

// The attribute classes come first: the dialect's discardable-attribute
// helpers name them.
#define GET_ATTRDEF_CLASSES
#include "spacefusion/Dialect/SMap/IR/SMapAttrs.h.inc"

#include "spacefusion/Dialect/SMap/IR/SMapOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "spacefusion/Dialect/SMap/IR/SMapOps.h.inc"

namespace mlir {
namespace smap {

/// The name of a GPU kernel, the one outlining, the PTX and profilers show:
/// `<host>[_<index>]_<what>[_<element type>]`, where `what` says what the
/// kernel is (a block kernel's strategy and tiles, `rows` for a row kernel)
/// and `index` numbers the kernels of a host function that has several.
std::string getKernelName(StringRef host, std::optional<size_t> index,
                          StringRef what, Type elementType);

/// What a block kernel of `schedule` is, for its name: the strategy, then
/// the tiles of the sliced dims larger than 1 and the temporal slice
/// (`row_fragments_wgmma_64x128` for attention's 64 rows by 128 keys).
std::string getKernelTag(ScheduleAttr schedule);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_DIALECT_SMAP_IR_SMAP_H
