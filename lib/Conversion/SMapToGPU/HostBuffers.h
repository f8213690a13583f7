//===- HostBuffers.h - A host function's buffers on the device --*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// After the block lowering, a host function holds the buffers bufferization
// made for it (intermediates between kernels, results copied into
// out-parameters) as memref ops. The kernels read and write them, so they
// live in device memory: patterns rewrite each into its gpu counterpart in
// the async form (`gpu-to-llvm` runs each on a stream and waits for it, so
// a buffer is ready before the next launch and released after the last).
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_HOSTBUFFERS_H
#define SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_HOSTBUFFERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
class RewritePatternSet;

namespace smap {

/// A device buffer of `type`, allocated and waited for at `b`'s point.
Value allocOnDevice(OpBuilder &b, Location loc, MemRefType type,
                    ValueRange dynamicSizes = {});

/// Frees the device buffer `buffer` at `b`'s point.
void freeOnDevice(OpBuilder &b, Location loc, Value buffer);

/// Whether `op` is a `linalg.fill` in a host function's entry block that
/// runs as a device memset: a whole contiguous buffer of 16- or 32-bit
/// elements.
bool isDeviceFill(Operation *op);

/// Patterns for the ops directly in a host function's entry block:
/// `memref.alloc` to a device allocation freed before the function returns,
/// `memref.copy` to a device copy, a `linalg.fill` (isDeviceFill) to a
/// device memset, `memref.dealloc` erased (the device buffer's free
/// replaces it).
void populateHostBuffersToDevicePatterns(RewritePatternSet &patterns);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_HOSTBUFFERS_H
