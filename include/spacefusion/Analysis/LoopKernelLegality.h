//===- LoopKernelLegality.h - What a loop kernel can run --------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// On the GPU path, a linalg op the fusion graphs left out runs as a loop
// kernel of its own (smap-distribute-blocks, LoopKernels.h). One rule says
// which ops can: convert-smap-to-scf asks it while the op is still on
// tensors (to name the op before bufferization would fail on it), the
// distribution asks it again on the bufferized op.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_LOOPKERNELLEGALITY_H
#define SPACEFUSION_ANALYSIS_LOOPKERNELLEGALITY_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir {
namespace smap {

/// Why `op` (on tensors or on buffers) cannot run as a loop kernel: an
/// operand the SMG would refuse too (getShapedTypeRefusal: a dynamic shape,
/// index or 8-bit float elements) or a body op with side effects other than
/// a load; empty when it can.
std::string getLoopKernelRefusal(linalg::LinalgOp op);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_LOOPKERNELLEGALITY_H
