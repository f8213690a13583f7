//===- BlockDistributor.h - Block bodies over threads and warps -*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Internal to smap-distribute-blocks: the distribution of one bufferized
// block body over the threads of a GPU thread block (DistributeBlocks.cpp)
// and its register-level variant, where each warp owns 16 rows of the block
// and keeps the row tiles in tensor-core fragments (RowFragments.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_BLOCKDISTRIBUTOR_H
#define SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_BLOCKDISTRIBUTOR_H

#include "../PassDetail.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"
#include "spacefusion/Analysis/WgmmaPipeline.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <optional>

namespace mlir {
namespace smap {

/// The row-major indices (the last fastest) of `linear` in `extents`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> extents);

/// Whether every `vector`-element group along the innermost dim of `memref`
/// starts aligned to the group's size (unit innermost stride, aligned base,
/// strides and offsets multiples of `vector`).
bool isVectorAligned(Value memref, int64_t vector);

/// A staged tile that wgmma reads through matrix descriptors (RowFragments
/// marks its alloc, the buffer placement its shared-memory view): not the
/// padded row-major layout of the other tiles but, for a [rows, cols] tile
/// of 16-bit elements (cols a multiple of 16), ceil(cols / 64) blocks of
/// [rows, 64], the last one partly used, each row 128 bytes whose 16-byte
/// chunks are permuted by the 128-byte swizzle (chunk c of row r at
/// c ^ (r mod 8)); 1024-byte aligned.
constexpr llvm::StringLiteral kSwizzledTileAttr =
    SMapDialect::SwizzledTileAttrHelper::getNameStr();
constexpr int64_t kSwizzleAlignment = kWgmmaSwizzleAlignment;

/// The bytes one copy of a placed buffer of `type` takes: 16-byte aligned,
/// a swizzled tile's swizzledTileBytes (each stage keeps the swizzle's
/// alignment).
inline int64_t stagedBytes(MemRefType type, bool swizzled) {
  if (swizzled && type.getRank() > 0) {
    int64_t columns = type.getShape().back();
    return swizzledTileBytes(type.getNumElements() / columns, columns);
  }
  return static_cast<int64_t>(
      llvm::alignTo(type.getNumElements() *
                        llvm::divideCeil(type.getElementTypeBitWidth(), 8),
                    swizzled ? kSwizzleAlignment : 16));
}

/// The element offset of the 8-element chunk at (`row`, `col`) in a
/// swizzled tile of `rows` rows.
Value swizzledOffset(OpBuilder &b, Location loc, Value row, Value col,
                     int64_t rows);

/// The workgroup-space view of the swizzled tile `value` (a cast of the
/// view, or a subview of that) points into, or null when it is not one.
memref::ViewOp swizzledTileView(Value value);

/// `view`'s bytes as a flat f16 buffer (what swizzledOffset indexes).
Value flatSwizzledTile(OpBuilder &b, Location loc, memref::ViewOp view);

/// How the threads of a block copy one buffer into another of its shape:
/// chunks of `vector` elements along the innermost dim (16 bytes when both
/// sides are provably aligned), chunk c of the row-major order by thread
/// c % threads.
struct CopyPlan {
  Value source, target;
  int64_t vector = 1;
  SmallVector<int64_t> extents; // in chunks
  int64_t chunks = 1;
  /// The target's and the source's element types: a converting copy (an f32
  /// operand staged as f16) rounds each chunk between its load and store.
  Type elementType, sourceElementType;

  /// Chunks of `chunkBytes` (16 unless a narrower chunk is asked for) of
  /// the source, or single elements where those are not aligned.
  CopyPlan(Value source, Value target, int64_t chunkBytes = 16)
      : source(source), target(target) {
    auto type = cast<MemRefType>(target.getType());
    elementType = type.getElementType();
    sourceElementType = cast<MemRefType>(source.getType()).getElementType();
    int64_t bytes =
        llvm::divideCeil(sourceElementType.getIntOrFloatBitWidth(), 8);
    vector = std::max<int64_t>(1, chunkBytes / bytes);
    if (chunkBytes % bytes || !isVectorAligned(source, vector) ||
        !isVectorAligned(target, vector))
      vector = 1;
    extents.assign(type.getShape().begin(), type.getShape().end());
    extents.back() /= vector;
    for (int64_t extent : extents)
      chunks *= extent;
  }
  /// The element indices of a chunk.
  SmallVector<Value> elementIndices(OpBuilder &b, Location loc,
                                    ArrayRef<Value> chunk) const {
    SmallVector<Value> indices(chunk);
    if (vector > 1)
      indices.back() =
          arith::MulIOp::create(b, loc, indices.back(),
                                arith::ConstantIndexOp::create(b, loc, vector));
    return indices;
  }
  bool converts() const { return elementType != sourceElementType; }
  /// The bytes of a chunk of `type`'s elements (its alignment, at most 16).
  int64_t chunkBytes(Type type) const {
    return std::min<int64_t>(
        16, vector * llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
  }
  /// A chunk of `from`, in the target's element type.
  Value load(OpBuilder &b, Location loc, Value from,
             ArrayRef<Value> indices) const {
    Value v;
    if (vector == 1)
      v = memref::LoadOp::create(b, loc, from, indices);
    else
      v = vector::LoadOp::create(
          b, loc, VectorType::get({vector}, sourceElementType), from, indices,
          /*nontemporal=*/false, llvm::Align(chunkBytes(sourceElementType)));
    if (!converts())
      return v;
    Type to = vector == 1 ? elementType
                          : Type(VectorType::get({vector}, elementType));
    return arith::TruncFOp::create(b, loc, to, v);
  }
  /// With a swizzled target, its view and rows: chunks are stored at
  /// swizzledOffset, and only 16-byte chunks are allowed.
  bool swizzled() const { return static_cast<bool>(swizzledTileView(target)); }
  /// Where a chunk of the target goes: the flat tile and its offset for a
  /// swizzled target, `to` and `indices` otherwise.
  std::pair<Value, SmallVector<Value>>
  targetAddress(OpBuilder &b, Location loc, Value to,
                ArrayRef<Value> indices) const;
  void store(OpBuilder &b, Location loc, Value v, Value to,
             ArrayRef<Value> indices) const {
    if (swizzledTileView(to)) {
      auto [flat, offset] = targetAddress(b, loc, to, indices);
      vector::StoreOp::create(b, loc, v, flat, offset, /*nontemporal=*/false,
                              llvm::Align(16));
      return;
    }
    if (vector == 1) {
      memref::StoreOp::create(b, loc, v, to, indices);
      return;
    }
    vector::StoreOp::create(b, loc, v, to, indices, /*nontemporal=*/false,
                            llvm::Align(chunkBytes(elementType)));
  }
};

/// Clones the ops of `loop`'s body that `v` depends on (all pure) at `b`,
/// with the mapping's substitutions (the induction variable at another
/// step); null when an op on the way has effects.
Value cloneFromLoop(OpBuilder &b, Value v, scf::ForOp loop, IRMapping &mapping);


/// The block buffers (allocated in a loop) that staging copies fill: each
/// gets one copy per pipeline stage.
llvm::DenseSet<Operation *> stagedTileAllocs(Block &body);

/// A contraction C[m, n] += A[m, k] * B[k, n] the tensor cores can run, in
/// any operand layout and with unit batch dims: `m`, `n`, `k` are loop
/// positions.
struct MmaContraction {
  unsigned m, n, k;
  int64_t extentM, extentN, extentK;
  OpOperand *a, *b;
  /// f16, bf16 or tf32: the type the tensor cores read.
  Type operandType;
  /// A warp tile is 16 x (8 nTiles); `warpTiles` of them cover the output.
  int64_t nTiles, warpTiles;
  bool isTF32() const { return operandType.isTF32(); }
  /// The k of one instruction: 16, or 8 for TF32.
  int64_t kStep() const { return getMmaSyncTileK(operandType); }
  /// Operand elements per fragment register: 2, or 1 for TF32.
  int64_t registerElements() const {
    return getMmaRegisterElements(operandType);
  }
  /// The element type operand tiles are stored in (f32 for TF32).
  Type storageType() const;
  /// The element type of the fragments: the operand type, or i32 (the
  /// rounded bits) for TF32.
  Type fragmentType() const;
};

/// Matches a contraction for `nvgpu.mma.sync` m16n8k16 (see the pass
/// description).
std::optional<MmaContraction> matchMmaContraction(linalg::LinalgOp op);

/// One mma.sync into the f32 accumulator (vector<2x2xf32>): m16n8k16 of A
/// (vector<4x2xT>) and B (vector<2x2xT>) fragments, T f16 or bf16; m16n8k8
/// of TF32 fragments (vector<4x1xi32>, vector<2x1xi32>).
Value createMmaSync(OpBuilder &b, Location loc, Value a, Value bFragment,
                    Value acc);

/// The indices of `map`'s results given the loop indices.
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ArrayRef<Value> loopIndices);

/// Loads the operand fragments of one mma.sync contraction in one lane:
/// with `ldmatrix` from shared-memory tiles, element by element otherwise.
/// TF32 operands are rounded as they are loaded. The lane's constants are
/// built once, where the builder given to the constructor points.
class MmaFragmentLoader {
public:
  MmaFragmentLoader(OpBuilder &b, linalg::LinalgOp op,
                    const MmaContraction &mma, Value lane);
  /// The A fragment (vector<4x2xf16>) of rows [row0, row0 + 16) and
  /// k in [k0, k0 + kStep).
  Value loadA(OpBuilder &b, Value row0, Value k0);
  /// The B fragments (vector<2x2xf16>) of the n-tiles starting at
  /// col0 + 8 j, j < nTiles, and k in [k0, k0 + kStep).
  SmallVector<Value> loadB(OpBuilder &b, Value col0, Value k0, int64_t nTiles);
  /// Operands read with ldmatrix (0, 1 or 2).
  unsigned ldmatrixOperands() const {
    return (aRows ? 1 : 0) + (bRows ? 1 : 0);
  }

  /// The lane's group (lane / 4) and place in it; pairCol = 2 inGroup,
  /// the first of its accumulator columns; kInGroup, the first k of its
  /// operand registers (2 inGroup for 16-bit operands, inGroup for TF32).
  Value group, inGroup, pairCol, kInGroup;

private:
  SmallVector<Value> indicesAt(OpBuilder &b, Value m, Value n, Value k);
  Value loadHalf(OpBuilder &b, OpOperand *operand, ArrayRef<Value> indices);
  /// An ldmatrix result as fragment registers (TF32: rounded).
  Value toFragment(OpBuilder &b, Value loaded);
  std::pair<Value, Value> laneRowAndK(OpBuilder &b, Value rowBase,
                                      Value rowMatrix, Value kBase,
                                      Value kMatrix, bool transpose);
  Value ldmatrix(OpBuilder &b, Value source, OpOperand *operand,
                 ArrayRef<Value> loopIndices, bool transpose, int64_t tiles);
  Value index(OpBuilder &b, int64_t v);
  Value add(OpBuilder &b, Value x, Value y);

  linalg::LinalgOp op;
  const MmaContraction &mma;
  Location loc;
  Value aRows, bRows;
  bool aTrans = false, bTrans = false;
  Value matrixRow, matrixLow, matrixHigh;
};

/// What the register-level (row-fragment) lowering of a block body needs: each
/// warp owns `16 slabs` rows; `promoted` buffers live in registers.
struct RowFragmentPlan {
  int64_t rows = 0;
  /// 16-row slabs per warp (1 or 2): `rows / (16 slabs)` warps.
  int64_t slabs = 1;
  /// Copies of those warps: a block of one row warp runs it four times
  /// over, so that four warps issue the staged tiles' copies; the copies
  /// compute the same rows, and only the first writes global memory.
  int64_t replicas = 1;
  llvm::DenseSet<Value> promoted;
  /// With `wgmma` (Hopper), each warpgroup issues the contractions of its
  /// 64 rows as wgmma on the same registers (one slab per warp), reading
  /// the `swizzledTiles` (staged operand allocs) through descriptors.
  bool wgmma = false;
  SmallVector<Operation *> swizzledTiles;
  /// Why a Hopper block stays on mma.sync (empty when it does not).
  std::string whyNotWgmma;
};

/// Gives each running or read-back output of the block body `body` (a view
/// of a global buffer that a reduction or an op of the temporal loop
/// accumulates into, such as a split graph's per-part max and sum, or that
/// a later op reads, such as an intermediate the graph also returns) a
/// block buffer of its own: zeroed, filled or written whole where the
/// output was, else copied in, and copied out at the end of the block. The
/// row-fragment lowering then keeps it in registers instead of reading and
/// writing global memory at every step, and its readers see a row tile.
void privatizeRunningOutputs(Block &body);

/// Whether the block body `body` (before buffer placement) can run as row
/// slabs on the schedule's `threads` (which fix the slabs per warp): see
/// RowFragments.cpp. With `tryWgmma`, its contractions go to wgmma when
/// they can (one slab per warp). On failure, `why` says what prevents it.
std::optional<RowFragmentPlan>
planRowFragments(Block &body, bool tryWgmma, int64_t threads, std::string &why);

/// A block that is a GEMM plus an epilogue, for Hopper's wgmma with TMA
/// loads (Wgmma.cpp): the temporal loop stages A [bm x bk] and B [bk x bn]
/// tiles of global matrices and accumulates into a zeroed block buffer that
/// only ops after the loop read.
struct WgmmaPlan {
  scf::ForOp loop;
  linalg::LinalgOp contraction;
  linalg::FillOp fill;
  memref::AllocOp accumulator;
  /// The buffer of the epilogue's first op when that op can write the
  /// accumulator tile in place instead (it is then not allocated).
  memref::AllocOp inPlaceEpilogue;
  linalg::CopyOp copyA, copyB;
  /// The global matrices, and the subview offsets (outermost view last)
  /// that lead from them to the staged tiles.
  Value globalA, globalB;
  SmallVector<SmallVector<OpFoldResult>> offsetsA, offsetsB;
  int64_t bm = 0, bn = 0, bk = 0, steps = 0;
  /// Whether B is read [n, k] (K-major, a linear layer's weight as PyTorch
  /// stores it) rather than [k, n].
  bool kMajorB = false;
  /// One warpgroup owns the block tile; with `warpSpecialized`, one
  /// consumer warpgroup per 64 rows multiplies and a producer warpgroup
  /// after them issues the loads.
  bool warpSpecialized = false;
  int64_t consumers() const { return warpSpecialized ? bm / 64 : 1; }
  /// The rows of one consumer warpgroup, and the threads of all consumers
  /// (the first ones of the block).
  int64_t consumerRows() const { return bm / consumers(); }
  int64_t consumerThreads() const { return 128 * consumers(); }
  /// The producer's warps: a warpgroup (which can give its registers to
  /// the consumers) or a single warp (which leaves room for a second block).
  int64_t producerWarps = 4;
  int64_t threads() const {
    return consumerThreads() + (warpSpecialized ? 32 * producerWarps : 0);
  }
  /// The shape the pipeline and register planning read (WgmmaPipeline.h).
  WgmmaBlockShape shape() const {
    return {bm, bn, bk, steps, warpSpecialized, producerWarps};
  }
  /// Register reallocation between the warpgroups (`setmaxnreg`): every
  /// thread starts at `entryRegisters` (the cap the launch's threads leave),
  /// the producer drops to `producerRegisters` and the consumers take what
  /// it frees (`consumerRegisters`); 0 when the block does not reallocate.
  int64_t entryRegisters = 0, producerRegisters = 0, consumerRegisters = 0;
  /// The TMA pipeline's depth and the dynamic shared memory it takes from
  /// the start (sizeWgmmaStages).
  int64_t stages = 0, sharedBytes = 0;
};

/// Whether the block body `body` (before buffer placement) is a GEMM block
/// wgmma can run, warp-specialized or not; on failure, `why` says what
/// prevents it (empty when the block has no tensor-core contraction at all).
std::optional<WgmmaPlan> planWgmma(Block &body, bool warpSpecialize,
                                   std::string &why);

/// Splits the registers of a warp-specialized plan's block between its
/// producer and consumer warpgroups when the launch's cap (`regsPerSm`
/// over its threads) leaves the consumers short of their accumulators;
/// leaves the plan as it is otherwise.
void planRegisterReallocation(WgmmaPlan &plan, int64_t regsPerSm);

/// Sizes the plan's TMA pipeline to `stages` stages (sizeTmaPipeline)
/// within `smemBudget` bytes of shared memory; false (with `why`) when two
/// do not fit.
bool sizeWgmmaStages(WgmmaPlan &plan, int64_t smemBudget, int64_t stages,
                     std::string &why);

/// Replaces the plan's loop with the TMA + wgmma pipeline in `launch` (the
/// accumulator becomes a view of the stages' shared memory); returns the
/// per-thread code it put in place (not for the distributor).
SmallVector<Operation *> lowerWgmma(gpu::LaunchOp launch, WgmmaPlan &plan);

/// What the terminator of a linalg body `body` yields, after its payload
/// was cloned under `mapping`.
inline SmallVector<Value> mappedYield(Block *body, const IRMapping &mapping) {
  SmallVector<Value> yielded;
  for (Value v : body->getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(v));
  return yielded;
}

/// Distributes the ops of one block body over its threads.
class BlockDistributor {
public:
  BlockDistributor(Value tid, int64_t threads, bool tensorCores,
                   bool approxMath)
      : tid(tid), threads(threads), tensorCores(tensorCores),
        approxMath(approxMath) {}

  LogicalResult distribute(Block &block);
  /// The register-level lowering of a body `plan` accepted.
  LogicalResult distributeRowFragments(Block &block,
                                       const RowFragmentPlan &plan);
  /// A linalg op or memref.copy strided over all the block's threads,
  /// followed by a barrier.
  LogicalResult distributeOverThreads(Operation *op);
  /// Prefetches the tiles `loop` stages from global memory (a cp.async
  /// pipeline, or one step ahead through registers); returns what finishes
  /// each step (stores of the prefetched tiles), or null when nothing is
  /// staged.
  std::function<void(OpBuilder &)> prefetchStagedOperands(scf::ForOp loop);
  /// Clones one payload op of a linalg body (f32 exp and tanh made fast
  /// with `approxMath`).
  Operation *clonePayload(OpBuilder &b, Operation &payload,
                          IRMapping &mapping) const;
  std::string whyNot;
  /// Contractions run on tensor cores / on CUDA cores.
  unsigned mmaContractions = 0, simtContractions = 0;
  /// The most results one thread of a CUDA-core contraction accumulates
  /// (planSimtMicroTile).
  int64_t largestMicroTile = 1;
  /// Contractions issued as wgmma on row fragments.
  unsigned wgmmaContractions = 0;
  /// Tensor-core operands loaded with ldmatrix from shared memory.
  unsigned ldmatrixOperands = 0;
  /// Contractions whose accumulators stay in registers across a loop.
  unsigned registerAccumulators = 0;
  /// Loops whose staged operands are loaded one step ahead.
  unsigned prefetchedLoops = 0;
  /// Buffers kept in registers by the row-fragment lowering.
  unsigned registerTiles = 0;
  /// Loops whose staged tiles arrive by a cp.async pipeline of `stages`.
  unsigned asyncLoops = 0;
  int64_t stages = 1;
  /// tanh on tanh.approx.f32 too (with approxMath): its error, about 2^-11
  /// relative, is a 16-bit rounding, so only in blocks of 16-bit programs;
  /// f32 programs keep tanhf (GPU fuzz seeds 1063, 2069 erred by up to
  /// 3e-4 of max|ref| in f32).
  bool approxTanh = true;
  /// A 16-bit exp on ex2.approx too (with approxMath): only where the
  /// registers its shorter code may take cannot cost residency, a block
  /// whose residency is declared or whose shared memory lets one run per
  /// SM (elsewhere it lost a block per SM: bench/results/half-exp-h200),
  /// and in row fragments, whose 16-bit math runs on packed pairs and
  /// fits (bench/results/packed-pairs-h100).
  bool approxHalfExp = false;
  /// Whether the last prefetchStagedOperands used cp.async (the step then
  /// needs no barrier at its end).
  bool asyncPrefetch = false;
  /// Per-thread code already emitted inside a block being distributed.
  llvm::DenseSet<Operation *> alreadyDistributed;

private:
  /// The contraction distributed after the rest of its loop.
  Operation *keepForLater = nullptr;

  /// One thread-strided loop over `parallelExtents` (row-major, the last
  /// fastest), calling `body` with the delinearized indices.
  void buildStridedLoop(OpBuilder &b, Location loc,
                        ArrayRef<int64_t> parallelExtents,
                        function_ref<void(OpBuilder &, ArrayRef<Value>)> body);
  /// The same loop running `unroll` iterations per trip (a thread's
  /// iterations i and i + threads, ...; the iteration count must divide by
  /// threads x unroll): `body` gets every iteration's indices at once.
  scf::ForOp buildStridedLoop(
      OpBuilder &b, Location loc, ArrayRef<int64_t> parallelExtents,
      int64_t unroll,
      function_ref<void(OpBuilder &, ArrayRef<SmallVector<Value>>)> body);
  LogicalResult distributeLinalg(linalg::LinalgOp op);
  /// `first` and the elementwise ops right after it over the same
  /// iterations that one pass can run (each thread computing the same
  /// elements in all of them).
  SmallVector<linalg::LinalgOp> elementwiseGroup(linalg::LinalgOp first);
  /// Such a group as one thread-strided loop (parallel dims in `order`, of
  /// `extents`) unrolled kElementwiseUnroll times when the iterations
  /// divide evenly, loads first; values pass between the ops in registers
  /// and each buffer is stored once, when it outlives the group.
  scf::ForOp distributeElementwiseGroup(SmallVector<linalg::LinalgOp> group,
                                        ArrayRef<unsigned> order,
                                        ArrayRef<int64_t> extents);
  /// The elementwise `op` with the group it heads (elementwiseGroup, when
  /// `groupElementwise`) in one pass, then a barrier; the later members go
  /// with erasedLater.
  void distributeElementwise(linalg::LinalgOp op, ArrayRef<unsigned> order,
                             ArrayRef<int64_t> extents);
  /// Ops of the block being distributed that go once it is walked.
  SmallVector<Operation *> erasedLater;
  /// Whether distributeLinalg may take the elementwise ops after an op
  /// along (when distribute() walks the block and skips them).
  bool groupElementwise = false;
  /// With `stateLoop`, the accumulators stay in registers across that
  /// loop (see hoistableContraction).
  scf::ForOp distributeContractionOnTensorCores(
      linalg::LinalgOp op, const MmaContraction &mma,
      scf::ForOp stateLoop = nullptr,
      const std::function<void(OpBuilder &)> &afterStep = nullptr);
  /// The staging copies of `loop` as a cp.async pipeline over `stages`
  /// copies of their buffers; false (nothing changed) when they are not
  /// 16-byte copies into shared memory.
  bool prefetchAsync(scf::ForOp loop, ArrayRef<linalg::LinalgOp> copies,
                     ArrayRef<CopyPlan> plans,
                     ArrayRef<SmallVector<SmallVector<Value>>> chunkIndices);
  /// The contraction of `loop` whose accumulators can stay in registers
  /// across it, if any.
  std::optional<std::pair<linalg::LinalgOp, MmaContraction>>
  hoistableContraction(scf::ForOp loop);
  /// The temporal loop `loop`, uniform across the block: its step
  /// distributed, its staged operands prefetched, and the contraction that
  /// ends it (if hoistable) accumulating in registers across it.
  LogicalResult distributeTemporalLoop(scf::ForOp loop);
  /// A copy between same-shaped buffers (memref.copy, linalg.copy).
  void distributeCopy(Operation *op, Value source, Value target);

  Value tid;
  int64_t threads;
  bool tensorCores, approxMath;
};

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_BLOCKDISTRIBUTOR_H
