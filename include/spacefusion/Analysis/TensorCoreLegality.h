//===- TensorCoreLegality.h - When a contraction runs on tensor cores -*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The one definition of "this contraction runs on mma.sync", shared by the
// cost model (which prices a candidate's strategy from the block extents it
// would have) and the GPU lowering (which builds it from the bufferized
// block), so that the two cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_TENSORCORELEGALITY_H
#define SPACEFUSION_ANALYSIS_TENSORCORELEGALITY_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir {
namespace smap {

/// The loops of an mma.sync contraction (m16n8k16; m16n8k8 for TF32): m is
/// the parallel loop only A (input 0) uses, n the one only B (input 1)
/// uses, k the single reduction; unit loops are ignored.
struct MmaShape {
  unsigned m, n, k;
  int64_t extentM, extentN, extentK;
  /// The operands' type on the tensor cores: f16, bf16, or tf32 (f32
  /// operands the body rounds, see TF32.h).
  Type operandType;
};

/// The k of one mma.sync instruction for `operandType`: 16 for 16-bit
/// operands, 8 for TF32.
int64_t getMmaSyncTileK(Type operandType);

/// The operand elements one 32-bit fragment register holds: 2 of a 16-bit
/// type, 1 of TF32.
int64_t getMmaRegisterElements(Type operandType);

/// Whether `op` is a contraction: it reduces, reads two or more inputs, and
/// one of them spans a reduced loop while missing a parallel one, so that
/// each result element is a dot product over a tile that other results
/// share (GEMM, batched GEMM, attention's two products), whatever the
/// operand order or transposition. A reduction of an elementwise product
/// (a row-wise dot, `sum(x * y)` over the same loops) is not one. The one
/// definition the relayout folding, the cost model and the row-kernel
/// legality use.
bool isContraction(linalg::LinalgOp op);

/// The multiply of `op`'s body when it is `acc + product` (two inputs, one
/// init, acc the init's argument), else null.
arith::MulFOp getAccumulatedProduct(linalg::LinalgOp op);

/// Whether the body of two-input `op` is `acc + x * y`, x and y the two
/// inputs, each optionally extended or rounded to TF32.
bool isMultiplyAccumulate(linalg::LinalgOp op);

/// The type the tensor cores read `op`'s two inputs as, the init being f32:
/// a 16-bit type (f16 or bf16) when each input is of that type or f32 (an
/// intermediate the lowering rounds) and at least one is of that type; tf32
/// when both inputs are f32 and the body rounds both factors to TF32.
std::optional<Type> getMmaOperandType(linalg::LinalgOp op);

/// Whether `op`, with loop extents `loopExtents` (the block's, or the op's
/// static ranges), is `acc + x * y` (x, y optionally extended) into f32 from
/// operands of one tensor-core type (getMmaOperandType), with extents that
/// are whole instruction tiles (getMmaSyncTileK).
std::optional<MmaShape> matchMmaSyncShape(linalg::LinalgOp op,
                                          ArrayRef<int64_t> loopExtents);

/// The element type a GPU block stages `input`'s tile in, if it stages it
/// (smap-stage-block-operands; the cost model prices the same tiles): a
/// 16-bit operand of a two-input reduction is copied as it is; an f32 one
/// that the tensor cores read rounded (`tensorCores`: a strategy with
/// them, and `op` fits mma.sync at `loopExtents`) in its 16-bit type; an
/// f32 operand of a multiply-accumulate on CUDA cores (no `tensorCores`)
/// as it is, so that its threads read global memory once, coalesced, and
/// the micro-tiles read shared memory. Which operands are tiles of graph
/// inputs, the only ones staged, is the caller's to say.
std::optional<Type> getStagedTileType(linalg::LinalgOp op, OpOperand *input,
                                      ArrayRef<int64_t> loopExtents,
                                      bool tensorCores);

/// The elements a staged tile's rows are padded by: 16 bytes, so that rows
/// stay 16-byte aligned for cp.async and the 8 rows an ldmatrix phase reads
/// fall in distinct shared-memory banks.
int64_t getStagedRowPadding(Type stagedType);

/// The elements the staged tile of `input` (an operand of `op`) pads its
/// rows by: 16 bytes (getStagedRowPadding), except for a TF32 operand whose
/// rows are not k (B as [k, n], A as [k, m]). Its fragments are loaded
/// element by element, 4 rows by 8 columns per warp instruction, and rows
/// 8 elements apart modulo the 32 banks put those in distinct banks.
int64_t getStagedRowPadding(linalg::LinalgOp op, OpOperand *input,
                            Type stagedType);

/// The most 16-byte chunks of a staged tile one thread copies in
/// straight-line code: through registers (a prefetch of the next step holds
/// them there) and by cp.async (which holds none, one instruction each).
constexpr int64_t kMaxRegisterCopyChunks = 16;
constexpr int64_t kMaxAsyncCopyChunks = 64;
/// The narrowest chunk a copy through registers falls back to when a
/// tile's 16-byte chunks do not split evenly over the threads (halving
/// from 16 bytes; never for swizzled tiles or cp.async).
constexpr int64_t kMinRegisterCopyChunkBytes = 4;

/// Whether `threads` threads copy a tile of `chunks` chunks the same number
/// of times each, at most `maxPerThread`: how a block copies a staged tile
/// it prefetches (smap-distribute-blocks), and so whether the cost model may
/// give the tiles that move with the temporal step cp.async stages.
bool splitsEvenly(int64_t chunks, int64_t threads, int64_t maxPerThread);

/// Whether both operands of two-input contraction `op` have the reduced
/// dim innermost (C = A . B^T with B stored [n, k]: a linear layer's
/// weight as PyTorch stores it). Both wgmma lowerings read such a B; a
/// GEMM whose tile the TMA lowering (wgmma_tma) does not take is worth the
/// row-fragment one even with nothing else to fuse (its tiles stay in
/// shared memory, where mma.sync would ldmatrix them): the cost model
/// prices it there and the lowering builds it.
bool readsBothOperandsKMajor(linalg::LinalgOp op);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_TENSORCORELEGALITY_H
