//===- BlockBuffers.h - The buffers of a shared-memory block ----*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Which intermediates of a shared-memory block (strategies simt and
// mma_sync) share a buffer: the one rule the cost model prices
// (priceSharedMemoryBlock) and smap-place-block-buffers builds, so that the
// predicted shared memory is the placed one.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_BLOCKBUFFERS_H
#define SPACEFUSION_ANALYSIS_BLOCKBUFFERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace smap {

/// Whether `op` is elementwise: a linalg op without reductions, with one
/// init, whose operands are read through projected permutations.
bool isElementwise(Operation *op);

/// Whether bufferization makes `op`'s result a view of its operand's buffer
/// (tensor.extract_slice, tensor.expand_shape): no buffer of its own.
bool isBufferView(Operation *op);

/// The input whose buffer elementwise `op` takes over: one of its result's
/// type, read at the element it writes (identity map), made by a linalg op
/// other than a fill or by a loop (a temporal loop's state), and read by
/// nothing after `op` (its other readers come before it in `op`'s block, or
/// inside an op that does), when `op` starts from an empty tensor its
/// payload never reads. Null if none (the first such input otherwise).
OpOperand *getInPlaceInput(linalg::LinalgOp op);

/// The init whose buffer `op` accumulates in: its only init, made like an
/// in-place input (a linalg op other than a fill, or a loop) and read by
/// nothing after `op` (a computed init bufferization updates in place).
/// Null if none.
OpOperand *getInPlaceInit(linalg::LinalgOp op);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_BLOCKBUFFERS_H
