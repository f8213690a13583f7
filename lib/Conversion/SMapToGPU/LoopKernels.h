//===- LoopKernels.h - Ops outside every graph as loop kernels --*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// A linalg op the fusion graphs left out (an integer reduction, a gather, an
// op the SMG cannot describe) still has to run on the device, since nothing
// computes on the host. After bufferization it is a loop nest over buffers
// in the host function; it becomes one kernel of its own: a thread per
// element of its parallel loops (blocks of up to 256 threads), its
// reduction loops run in order by that thread, the body cloned as written.
// It is the correct, unfused fallback (strategy `loops` in the kernel
// record), not a fast path.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_LOOPKERNELS_H
#define SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_LOOPKERNELS_H

#include "spacefusion/Analysis/LoopKernelLegality.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
class RewriterBase;

namespace smap {

/// Replaces `op`, on buffers (getLoopKernelRefusal empty), by the gpu.launch
/// that computes it, and records it as a kernel of strategy `loops`; erases it
/// and returns null when its domain is empty.
gpu::LaunchOp buildLoopKernel(RewriterBase &rewriter, linalg::LinalgOp op);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_LOOPKERNELS_H
