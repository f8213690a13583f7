//===- WgmmaPipeline.h - The TMA pipeline of a wgmma GEMM block -*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// How a wgmma GEMM block (strategy wgmma_tma / wgmma_tma_ws) uses shared
// memory and registers: its TMA ring, the accumulator tile over it, the
// register split between producer and consumers, and the pipeline depth.
// smap-schedule decides the depth with these functions and records it; the
// lowering (Wgmma.cpp) builds it with the same ones.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_WGMMAPIPELINE_H
#define SPACEFUSION_ANALYSIS_WGMMAPIPELINE_H

#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include <optional>
#include <string>

namespace mlir {
namespace smap {

/// The shape of a wgmma GEMM block: a bm x bn tile, k sliced by bk in
/// `steps` steps; warp-specialized blocks have one consumer warpgroup per
/// 64 rows and a producer of `producerWarps` warps.
struct WgmmaBlockShape {
  int64_t bm = 0, bn = 0, bk = 0, steps = 0;
  bool warpSpecialized = false;
  int64_t producerWarps = 4;

  int64_t consumers() const { return warpSpecialized ? bm / 64 : 1; }
  int64_t consumerRows() const { return bm / consumers(); }
  int64_t consumerThreads() const { return 128 * consumers(); }
  int64_t threads() const {
    return consumerThreads() + (warpSpecialized ? 32 * producerWarps : 0);
  }
  /// One stage (an A and a B tile of 16-bit elements), and the f32
  /// accumulator tile.
  int64_t stageBytes() const { return (bm + bn) * bk * 2; }
  int64_t accumulatorBytes() const { return bm * bn * 4; }
};

/// The run-time alignment slack of the 128-byte swizzled tiles.
constexpr int64_t kWgmmaSwizzleAlignment = 1024;
/// The deepest TMA pipeline.
constexpr int64_t kMaxTmaStages = 4;

/// The 16-bit elements of one row of a 128-byte swizzle atom.
constexpr int64_t kWgmmaSwizzleColumns = 64;

/// The bytes a row-fragment block's swizzled 16-bit tile of `rows` rows
/// takes in a staged buffer whose rows are `bufferColumns` wide (the
/// operand's columns plus up to 16 bytes of ldmatrix padding,
/// smap-stage-block-operands): the buffer, or, when the operand is not a
/// multiple of 64 wide (head dim 80, 96), its 64-column swizzle blocks,
/// the last one partly used; 1024-byte aligned. The cost model prices and
/// the lowering places a tile with this one formula.
int64_t swizzledTileBytes(int64_t rows, int64_t bufferColumns);

/// Register reallocation (setmaxnreg) of a warp-specialized block with a
/// producer warpgroup: every thread starts at `entry`, the producer drops
/// to `producer`, the consumers rise to `consumer`; all 0 when the block
/// does not reallocate.
struct RegisterSplit {
  int64_t entry = 0, producer = 0, consumer = 0;
};
RegisterSplit planRegisterSplit(const WgmmaBlockShape &block,
                                int64_t regsPerSm);

/// The registers each of `threads` threads holds at a kernel's entry when
/// one block takes the SM's `regsPerSm` (a multiple of 8, setmaxnreg's
/// step): the count a reallocating block starts from, which ptxas must be
/// told (`nvvm.maxnreg`, smap-set-kernel-register-counts).
int64_t registersAtEntry(int64_t threads, int64_t regsPerSm);

/// A TMA pipeline: its depth and the dynamic shared memory it takes (the
/// ring, or the accumulator tile over it, plus the alignment slack).
struct TmaPipeline {
  int64_t stages = 0;
  int64_t sharedBytes = 0;
};

/// The pipeline of `maxStages` stages (at least two, at most one per step
/// and kMaxTmaStages), fewer when `smemBudget` holds fewer; none when two
/// do not fit, with `why`.
std::optional<TmaPipeline> sizeTmaPipeline(const WgmmaBlockShape &block,
                                           int64_t smemBudget,
                                           int64_t maxStages,
                                           std::string &why);

/// The depth whose blocks fill their waves best, with `otherBytes` of
/// other block buffers beside the pipeline; when depths tie (within 1%) on
/// a grid of several waves, the shallower one, which keeps more blocks per
/// SM to overlap one block's prologue and epilogue with another's products
/// (bench/results/wgmma-v19-stages.md, wgmma-v21-setmaxnreg.md).
std::optional<TmaPipeline> chooseTmaPipeline(const WgmmaBlockShape &block,
                                             int64_t otherBytes, int64_t blocks,
                                             TargetAttr target,
                                             int64_t maxStages,
                                             std::string &why);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_WGMMAPIPELINE_H
