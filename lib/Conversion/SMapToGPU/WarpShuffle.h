//===- WarpShuffle.h - Shuffles of any float width --------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// A warp shuffle moves 32-bit values (nvvm.shfl.sync): 16-bit floats travel
// extended to f32 and come back rounded, which is exact both ways.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_WARPSHUFFLE_H
#define SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_WARPSHUFFLE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace smap {

/// `value` of the lane `offset` away in a butterfly (XOR) over the warp.
inline Value shuffleXor(OpBuilder &b, Location loc, Value value,
                        int32_t offset) {
  Type type = value.getType();
  bool narrow = isa<FloatType>(type) && type.getIntOrFloatBitWidth() < 32;
  Value moved = narrow ? arith::ExtFOp::create(b, loc, b.getF32Type(), value)
                             .getResult()
                       : value;
  Value other =
      gpu::ShuffleOp::create(b, loc, moved, offset, 32, gpu::ShuffleMode::XOR)
          .getShuffleResult();
  return narrow ? arith::TruncFOp::create(b, loc, type, other).getResult()
                : other;
}

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_WARPSHUFFLE_H
