//===- Passes.h - SpaceFusion conversion passes -----------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_CONVERSION_PASSES_H
#define SPACEFUSION_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace smap {

#define GEN_PASS_DECL
#include "spacefusion/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "spacefusion/Conversion/Passes.h.inc"

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_CONVERSION_PASSES_H
