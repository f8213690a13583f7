//===- HostBuffers.cpp - A host function's buffers on the device ----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "HostBuffers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::smap;

/// A token with nothing to wait for, which starts an async device op.
static Value createAsyncToken(OpBuilder &b, Location loc) {
  return gpu::WaitOp::create(b, loc, gpu::AsyncTokenType::get(b.getContext()),
                             ValueRange())
      .getAsyncToken();
}

/// Waits for `token` at `b`'s point.
static void waitFor(OpBuilder &b, Location loc, Value token) {
  gpu::WaitOp::create(b, loc, Type(), ValueRange{token});
}

Value mlir::smap::allocOnDevice(OpBuilder &b, Location loc, MemRefType type,
                                ValueRange dynamicSizes) {
  auto alloc = gpu::AllocOp::create(
      b, loc, type, gpu::AsyncTokenType::get(b.getContext()),
      ValueRange{createAsyncToken(b, loc)}, dynamicSizes, ValueRange());
  waitFor(b, loc, alloc.getAsyncToken());
  return alloc.getMemref();
}

void mlir::smap::freeOnDevice(OpBuilder &b, Location loc, Value buffer) {
  auto dealloc =
      gpu::DeallocOp::create(b, loc, gpu::AsyncTokenType::get(b.getContext()),
                             ValueRange{createAsyncToken(b, loc)}, buffer);
  waitFor(b, loc, dealloc.getAsyncToken());
}

/// The function whose entry block holds `op` directly, or null (an op in a
/// launch, a loop or a later block).
static func::FuncOp getHostFunction(Operation *op) {
  auto fn = dyn_cast<func::FuncOp>(op->getParentOp());
  return fn && op->getBlock() == &fn.getBody().front() ? fn : func::FuncOp();
}

bool mlir::smap::isDeviceFill(Operation *op) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill || !getHostFunction(fill) || fill.getNumDpsInits() != 1)
    return false;
  auto type = dyn_cast<MemRefType>(fill.getOutputs()[0].getType());
  // gpu-to-llvm sets 16- and 32-bit elements of a contiguous buffer.
  unsigned width = type ? type.getElementTypeBitWidth() : 0;
  return type && type.getLayout().isIdentity() && (width == 16 || width == 32);
}

namespace {
/// memref.alloc -> gpu.alloc, with its gpu.dealloc before the return.
struct HostAllocToDevice : OpRewritePattern<memref::AllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::AllocOp alloc,
                                PatternRewriter &rewriter) const override {
    func::FuncOp fn = getHostFunction(alloc);
    if (!fn)
      return failure();
    Value buffer = allocOnDevice(rewriter, alloc.getLoc(), alloc.getType(),
                                 alloc.getDynamicSizes());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(fn.getBody().front().getTerminator());
    freeOnDevice(rewriter, fn.getLoc(), buffer);
    rewriter.replaceOp(alloc, buffer);
    return success();
  }
};

/// memref.copy -> gpu.memcpy.
struct HostCopyToDevice : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp copy,
                                PatternRewriter &rewriter) const override {
    if (!getHostFunction(copy))
      return failure();
    Location loc = copy.getLoc();
    auto memcpy = gpu::MemcpyOp::create(
        rewriter, loc, gpu::AsyncTokenType::get(rewriter.getContext()),
        ValueRange{createAsyncToken(rewriter, loc)}, copy.getTarget(),
        copy.getSource());
    waitFor(rewriter, loc, memcpy.getAsyncToken());
    rewriter.eraseOp(copy);
    return success();
  }
};

/// linalg.fill of a whole buffer -> gpu.memset: a result that is a
/// constant (a reduction over an empty dim yields its init).
struct HostFillToDevice : OpRewritePattern<linalg::FillOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::FillOp fill,
                                PatternRewriter &rewriter) const override {
    if (!isDeviceFill(fill))
      return failure();
    Location loc = fill.getLoc();
    auto memset = gpu::MemsetOp::create(
        rewriter, loc, gpu::AsyncTokenType::get(rewriter.getContext()),
        ValueRange{createAsyncToken(rewriter, loc)}, fill.getOutputs()[0],
        fill.getInputs()[0]);
    waitFor(rewriter, loc, memset.getAsyncToken());
    rewriter.eraseOp(fill);
    return success();
  }
};

/// memref.dealloc erased: HostAllocToDevice frees the device buffer.
struct HostDeallocErased : OpRewritePattern<memref::DeallocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::DeallocOp dealloc,
                                PatternRewriter &rewriter) const override {
    if (!getHostFunction(dealloc))
      return failure();
    rewriter.eraseOp(dealloc);
    return success();
  }
};
} // namespace

void mlir::smap::populateHostBuffersToDevicePatterns(
    RewritePatternSet &patterns) {
  patterns.add<HostAllocToDevice, HostCopyToDevice, HostFillToDevice,
               HostDeallocErased>(patterns.getContext());
}
