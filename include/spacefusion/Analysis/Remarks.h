//===- Remarks.h - SpaceFusion optimization remarks -------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Every SpaceFusion decision is reported through MLIR's remark framework
// under the category "smap", with the pass as sub-category, so
// `--remarks-filter=smap` selects them all.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_REMARKS_H
#define SPACEFUSION_ANALYSIS_REMARKS_H

#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace smap {

/// Options for a remark named `name` from pass `pass`; both must be string
/// literals (the remark keeps references to them).
constexpr remark::RemarkOpts remarkOpts(llvm::StringLiteral pass,
                                        llvm::StringLiteral name) {
  return remark::RemarkOpts::name(name).category("smap").subCategory(pass);
}

/// The same, with the function that holds `op` filled in (the name is the
/// symbol's, which the context keeps alive).
inline remark::RemarkOpts remarkOpts(llvm::StringLiteral pass,
                                     llvm::StringLiteral name, Operation *op) {
  remark::RemarkOpts opts = remarkOpts(pass, name);
  if (auto fn = op->getParentOfType<FunctionOpInterface>())
    opts = opts.function(fn.getNameAttr().getValue());
  return opts;
}

/// `op`'s location marked with its name, given before a normalization
/// rewrites `op` into other ops (a named op into a generic, a softmax into
/// its generics and fills), which inherit it: a diagnostic at one of them
/// can then name the op the user wrote (describeOrigin).
inline Location getOriginLoc(Operation *op) {
  if (isa<NameLoc>(op->getLoc()))
    return op->getLoc();
  return NameLoc::get(op->getName().getIdentifier(), op->getLoc());
}

/// " (from 'linalg.softmax')" for an op made from an op of another name
/// (getOriginLoc), "" otherwise.
inline std::string describeOrigin(Operation *op) {
  auto origin = dyn_cast<NameLoc>(op->getLoc());
  if (!origin || origin.getName() == op->getName().getIdentifier())
    return "";
  return (" (from '" + origin.getName().getValue() + "')").str();
}

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_REMARKS_H
