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

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_REMARKS_H
