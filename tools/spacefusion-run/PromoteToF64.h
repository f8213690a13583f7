//===- PromoteToF64.h - The f64 reference of spacefusion-run ----*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_TOOLS_SPACEFUSION_RUN_PROMOTETOF64_H
#define SPACEFUSION_TOOLS_SPACEFUSION_RUN_PROMOTETOF64_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::spacefusion::run {

/// Rewrites every function of `module` (linalg, tensor, arith and math on
/// tensors, before bufferization) to compute in f64: every float type
/// narrower than f64, alone or as the element of a tensor, memref or vector,
/// becomes f64 in signatures, results and block arguments; float constants,
/// dense ones included, are widened exactly; arith.extf and arith.truncf,
/// which then go from f64 to f64, are dropped. Ops that only carry types
/// (linalg.fill, named linalg ops, tensor.empty, reshapes) need nothing
/// else. Fails, with an error on the op, for what cannot be widened (e.g.
/// bitcasts between floats and integers, resource constants).
mlir::LogicalResult promoteToF64(mlir::ModuleOp module);

} // namespace mlir::spacefusion::run

#endif // SPACEFUSION_TOOLS_SPACEFUSION_RUN_PROMOTETOF64_H
