//===- RowFragments.cpp - Row slabs of a block in registers ---------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Register-level fusion between tensor-core contractions, derived from the
// block body rather than matched as a pattern. When every intermediate of a
// block is indexed by the block's rows (attention: scores, probabilities,
// running max and sum, the output accumulator, all per query row), each warp
// can own 16 rows (one slab; two when the registers allow) for the whole
// block and keep those intermediates in registers, in the layout of the
// m16n8k16 accumulator fragments:
//
//  * a row tile [rows, C] (C a multiple of 8) is, per lane and slab z, the
//    elements (row 16 (S w + z) + group + 8 i, column 8 t + 2 inGroup + e)
//    at slot z C / 2 + 4 t + 2 i + e (group = lane / 4, inGroup = lane % 4,
//    S slabs per warp), exactly the accumulators of C / 8 mma.sync n-tiles
//    per slab; a row vector [rows] is the two values of rows group and
//    group + 8 of each slab (slots 2 z + i);
//  * a contraction accumulating into a row tile issues mma.sync on those
//    registers; an A operand that is itself a row tile (the probabilities)
//    is its registers rounded to f16 (bf16), because the A fragment of k-step s is
//    slots 8 s .. 8 s + 7 of the tile (FlashAttention-2's reuse of the
//    accumulator layout); B operands come from shared memory with ldmatrix;
//  * elementwise ops run on the lane's slots; a reduction along the columns
//    folds the lane's slots of a row, then combines the four lanes of the row
//    with two xor shuffles;
//  * the temporal loop carries the row tiles and vectors that live across
//    steps as iter_args; staged tiles are shared by all warps (cp.async or
//    register prefetch, block barriers around them);
//  * anything else the block reads or writes (global inputs and outputs) is
//    accessed per lane at the slots' indices.
//
// No block barrier separates the ops of a step: a warp only reads the rows
// it wrote, in its own registers.
//
//===----------------------------------------------------------------------===//

#include "BlockDistributor.h"
#include "PackedPairs.h"
#include "WarpShuffle.h"

#include "spacefusion/Analysis/CostModel.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::smap;

/// The most rows one block may have (16 or 32 per warp).
static constexpr int64_t kMaxRows = 128;

namespace {
/// Where a row-indexed buffer's rows and columns are: its first non-unit
/// dim is the row, a second one the column.
struct RowLayout {
  unsigned rowPos = 0;
  std::optional<unsigned> colPos;
  int64_t rows = 0, cols = 0;
  /// Per-lane slots of one 16-row slab: 4 per 8 columns of a tile, 2 for
  /// a row vector.
  int64_t slots() const { return colPos ? cols / 2 : 2; }
};

/// The roles of one op's loop dims: `row` indexes the rows of its promoted
/// operands, `col` (if any) their columns; every other dim has extent 1.
struct LoopRoles {
  unsigned row;
  std::optional<unsigned> col;
  int64_t cols = 0;
};
} // namespace

static std::optional<RowLayout> rowLayoutOf(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity() ||
      memref.getMemorySpace() || !isa<FloatType>(memref.getElementType()))
    return std::nullopt;
  SmallVector<unsigned> nonUnit;
  for (auto [pos, extent] : llvm::enumerate(memref.getShape()))
    if (extent != 1)
      nonUnit.push_back(pos);
  if (nonUnit.empty() || nonUnit.size() > 2)
    return std::nullopt;
  RowLayout layout;
  layout.rowPos = nonUnit[0];
  layout.rows = memref.getDimSize(nonUnit[0]);
  if (nonUnit.size() == 2) {
    layout.colPos = nonUnit[1];
    layout.cols = memref.getDimSize(nonUnit[1]);
    if (layout.cols % 8)
      return std::nullopt;
  }
  return layout;
}

/// The loop roles of `op` given the promoted buffers, if consistent.
static std::optional<LoopRoles>
loopRolesOf(linalg::LinalgOp op, const llvm::DenseSet<Value> &promoted,
            int64_t rows) {
  std::optional<unsigned> row, col;
  int64_t cols = 0;
  bool any = false;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!promoted.contains(operand.get()))
      continue;
    any = true;
    RowLayout layout = *rowLayoutOf(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto rowExpr = dyn_cast<AffineDimExpr>(map.getResult(layout.rowPos));
    if (!rowExpr || (row && *row != rowExpr.getPosition()))
      return std::nullopt;
    row = rowExpr.getPosition();
    if (layout.colPos) {
      auto colExpr = dyn_cast<AffineDimExpr>(map.getResult(*layout.colPos));
      if (!colExpr || (col && *col != colExpr.getPosition()) ||
          colExpr.getPosition() == *row)
        return std::nullopt;
      col = colExpr.getPosition();
      cols = layout.cols;
    }
  }
  if (!any)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [d, range] : llvm::enumerate(ranges)) {
    if (d == *row && range != rows)
      return std::nullopt;
    if (col && d == *col && range != cols)
      return std::nullopt;
    if (d != *row && (!col || d != *col) && range != 1)
      return std::nullopt;
  }
  if (op.getIteratorTypesArray()[*row] != utils::IteratorType::parallel)
    return std::nullopt;
  return LoopRoles{*row, col, cols};
}

/// The combiner of a reduction payload `combine(f(ins), out)` with one
/// output, if the SMG knows it (add, mul, max, min).
static std::optional<Combiner> reductionCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  Block *body = op.getBlock();
  return matchCombiner(body->getTerminator()->getOperand(0),
                       body->getArgument(op.getNumDpsInputs()));
}

/// Whether `op` reads / writes `buffer`.
static std::pair<bool, bool> accessOf(Operation *op, Value buffer) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return {copy.getSource() == buffer, copy.getTarget() == buffer};
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return {false, false};
  bool reads = false, writes = false;
  bool reduces = linalgOp.getNumReductionLoops() > 0;
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    reads |= input->get() == buffer;
  for (OpOperand &init : linalgOp.getDpsInitsMutable())
    if (init.get() == buffer) {
      writes = true;
      reads |= reduces || linalgOp.payloadUsesValueFromOperand(&init);
    }
  return {reads, writes};
}

/// Whether the loop must carry `buffer` (defined before it): written in the
/// loop and read there before any write, or read after it before any write.
static bool isCarried(Value buffer, scf::ForOp loop) {
  bool written = false, readFirst = false, decided = false;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto [reads, writes] = accessOf(&op, buffer);
    if (!decided && (reads || writes)) {
      readFirst = reads;
      decided = true;
    }
    written |= writes;
  }
  if (!written)
    return false;
  if (readFirst)
    return true;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    auto [reads, writes] = accessOf(op, buffer);
    if (reads || writes)
      return reads;
  }
  return false;
}

/// The most registers per lane the promoted buffers hold at once. A buffer
/// is live from its first to its last access in program order (`ops`, the
/// loop body inline) within each of the prologue, the loop and the
/// epilogue, and from its first to its last access overall when the loop
/// carries it. A buffer only fills write is one value.
static int64_t peakRegisters(ArrayRef<Operation *> ops, scf::ForOp loop,
                             const llvm::DenseSet<Value> &promoted,
                             int64_t slabs) {
  DenseMap<Operation *, int64_t> position;
  int64_t loopBegin = ops.size(), loopEnd = -1;
  for (auto [i, op] : llvm::enumerate(ops)) {
    position[op] = i;
    if (loop && loop->isAncestor(op)) {
      loopBegin = std::min<int64_t>(loopBegin, i);
      loopEnd = i;
    }
  }
  auto segment = [&](int64_t i) {
    return i < loopBegin ? 0 : i <= loopEnd ? 1 : 2;
  };
  SmallVector<int64_t> live(ops.size(), 0);
  for (Value buffer : promoted) {
    bool onlyFills = llvm::all_of(buffer.getUsers(), [&](Operation *user) {
      return !accessOf(user, buffer).second || isa<linalg::FillOp>(user);
    });
    int64_t cost =
        onlyFills ? 1 : slabs * rowLayoutOf(buffer.getType())->slots();
    int64_t first[3] = {INT64_MAX, INT64_MAX, INT64_MAX};
    int64_t last[3] = {-1, -1, -1};
    for (Operation *user : buffer.getUsers()) {
      auto it = position.find(user);
      if (it == position.end())
        continue;
      int64_t seg = segment(it->second);
      first[seg] = std::min(first[seg], it->second);
      last[seg] = std::max(last[seg], it->second);
    }
    Operation *def = buffer.getDefiningOp();
    if (loop && !loop->isAncestor(def) && isCarried(buffer, loop)) {
      first[0] = std::min({first[0], first[1], first[2]});
      last[0] = std::max({last[0], last[1], last[2]});
      first[1] = first[2] = INT64_MAX;
    }
    for (int64_t seg = 0; seg < 3; ++seg)
      for (int64_t i = first[seg]; i <= last[seg]; ++i)
        live[i] += cost;
  }
  return live.empty() ? 0 : *llvm::max_element(live);
}

namespace {
/// How wgmma reads a staged operand tile [rows, cols] (cols contiguous):
/// K-major when its columns are the contraction's k, MN-major (transposed)
/// when its rows are.
struct WgmmaTile {
  int64_t rows = 0, cols = 0;
  bool kMajor = true;
};
} // namespace

/// The layout of `operand` of `op` as a wgmma tile whose other dim is loop
/// dim `other` (m for A, n for B), if it is a tile of `fragmentType` (f16
/// or bf16) of two non-unit dims, the last contiguous and a multiple of 16
/// wide (one k-step of a K-major tile, two n-tiles of an MN-major one; a
/// width that is no multiple of 64 leaves its last swizzle block partly
/// used, see kSwizzledTileAttr).
static std::optional<WgmmaTile> wgmmaTileOf(linalg::LinalgOp op,
                                            OpOperand *operand, unsigned k,
                                            unsigned other,
                                            Type fragmentType) {
  auto type = dyn_cast<MemRefType>(operand->get().getType());
  if (!type || !type.hasStaticShape() ||
      type.getElementType() != fragmentType ||
      !type.isLastDimUnitStride())
    return std::nullopt;
  SmallVector<unsigned> nonUnit;
  for (auto [pos, extent] : llvm::enumerate(type.getShape()))
    if (extent != 1)
      nonUnit.push_back(pos);
  if (nonUnit.size() != 2 || nonUnit[1] != type.getRank() - 1)
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(operand);
  auto rowDim = dyn_cast<AffineDimExpr>(map.getResult(nonUnit[0]));
  auto colDim = dyn_cast<AffineDimExpr>(map.getResult(nonUnit[1]));
  if (!rowDim || !colDim)
    return std::nullopt;
  WgmmaTile tile;
  tile.rows = type.getDimSize(nonUnit[0]);
  tile.cols = type.getDimSize(nonUnit[1]);
  if (colDim.getPosition() == k && rowDim.getPosition() == other)
    tile.kMajor = true;
  else if (colDim.getPosition() == other && rowDim.getPosition() == k)
    tile.kMajor = false;
  else
    return std::nullopt;
  if (tile.cols % 16)
    return std::nullopt;
  return tile;
}

/// The block buffer a staged wgmma operand is a full view of (zero offsets,
/// unit strides), whose only other users are copies into it.
static memref::AllocOp stagedWgmmaAlloc(Value operand) {
  auto subview = operand.getDefiningOp<memref::SubViewOp>();
  Value source = subview ? subview.getSource() : operand;
  auto alloc = source.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().getLayout().isIdentity())
    return nullptr;
  if (subview && (!llvm::all_of(subview.getStaticOffsets(), [](int64_t o) {
        return o == 0;
      }) || !llvm::all_of(subview.getStaticStrides(), [](int64_t s) {
        return s == 1;
      })))
    return nullptr;
  if (subview && !alloc->hasOneUse())
    return nullptr;
  for (OpOperand &use : operand.getUses()) {
    Operation *user = use.getOwner();
    if (auto copy = dyn_cast<linalg::CopyOp>(user)) {
      if (copy.getOutputs()[0] != operand ||
          !isVectorAligned(copy.getInputs()[0], 8) ||
          getElementTypeOrSelf(copy.getInputs()[0].getType())
                  .getIntOrFloatBitWidth() != 16)
        return nullptr;
      continue;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    std::optional<MmaContraction> mma =
        linalgOp ? matchMmaContraction(linalgOp) : std::nullopt;
    if (!mma || (mma->a != &use && mma->b != &use))
      return nullptr;
  }
  return alloc;
}

/// Whether every contraction of a row-slab block can be a wgmma of its
/// warpgroup's 64 rows: B (and A unless it is a row tile in registers) a
/// staged f16 (bf16) tile wgmma reads through a descriptor. Fills the plan's
/// swizzled tiles, or says why not.
static bool planWgmmaRows(ArrayRef<Operation *> ops, RowFragmentPlan &plan,
                          std::string &why) {
  if (plan.rows % 64) {
    why = "the block has " + std::to_string(plan.rows) +
          " rows (wgmma needs a multiple of 64)";
    return false;
  }
  SmallVector<Operation *> tiles;
  for (Operation *op : ops) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    std::optional<MmaContraction> mma =
        linalgOp ? matchMmaContraction(linalgOp) : std::nullopt;
    if (!mma)
      continue;
    auto fail = [&](const Twine &reason) {
      why = ("'" + op->getName().getStringRef() + "' " + reason).str();
      return false;
    };
    if (mma->extentN > 256 || mma->extentK % 16)
      return fail("has n > 256 or k not a multiple of 16");
    SmallVector<std::pair<OpOperand *, unsigned>> staged = {{mma->b, mma->n}};
    if (!plan.promoted.contains(mma->a->get()))
      staged.push_back({mma->a, mma->m});
    for (auto [operand, other] : staged) {
      std::optional<WgmmaTile> tile =
          wgmmaTileOf(linalgOp, operand, mma->k, other, mma->operandType);
      memref::AllocOp alloc = stagedWgmmaAlloc(operand->get());
      if (!tile || !alloc)
        return fail("reads an operand that is not a staged 16-bit tile with a "
                    "contiguous dim of a multiple of 16 (wgmma's swizzled "
                    "layout)");
      if (operand == mma->a && (!tile->kMajor || tile->rows != plan.rows))
        return fail("reads A transposed or not over the block's rows");
      if (!llvm::is_contained(tiles, alloc.getOperation()))
        tiles.push_back(alloc);
    }
  }
  plan.swizzledTiles = std::move(tiles);
  return true;
}

/// Whether `view` is a static view of a buffer allocated outside `body`'s
/// block (a function argument or a graph's scratch), defined in `body`.
static bool isGlobalView(memref::SubViewOp view, Block &body) {
  if (view->getBlock() != &body || !view.getType().hasStaticShape())
    return false;
  Value source = view.getSource();
  while (Operation *def = source.getDefiningOp()) {
    if (isa<memref::AllocOp>(def))
      return !body.getParentOp()->isAncestor(def);
    auto viewLike = dyn_cast<ViewLikeOpInterface>(def);
    if (!viewLike)
      return false;
    source = viewLike.getViewSource();
  }
  return true;
}

/// Whether `op` accumulates into `view` as running state: a reduction, or
/// an op of the temporal loop.
static bool accumulatesInto(Operation *op, Value view, Block &body) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !llvm::is_contained(linalgOp.getDpsInits(), view))
    return false;
  return linalgOp.getNumReductionLoops() > 0 ||
         op->getParentOp() != body.getParentOp();
}

/// Whether a linalg op of the block writes `view` and another reads it as
/// an input: an output the block also computes with (an intermediate the
/// graph returns too), which would otherwise be written to global memory
/// and read back.
static bool isReadBack(Value view) {
  bool written = false, read = false;
  for (OpOperand &use : view.getUses()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!linalgOp)
      continue;
    written |= linalgOp.isDpsInit(&use);
    read |= linalgOp.isDpsInput(&use);
  }
  return written && read;
}

/// Whether `op` writes every element of `view` without reading it: a fill,
/// or an op without reductions whose body ignores the output's value.
static bool overwrites(Operation *op, Value view) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getOutputs()[0] == view;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumReductionLoops() != 0)
    return false;
  for (OpOperand &init : linalgOp.getDpsInitsMutable())
    if (init.get() == view)
      return !linalgOp.payloadUsesValueFromOperand(&init);
  return false;
}

void mlir::smap::privatizeRunningOutputs(Block &body) {
  SmallVector<memref::SubViewOp> views;
  for (auto view : body.getOps<memref::SubViewOp>())
    if (isGlobalView(view, body) &&
        (isReadBack(view) ||
         llvm::any_of(view->getUsers(), [&](Operation *user) {
           return accumulatesInto(user, view, body);
         })))
      views.push_back(view);
  for (memref::SubViewOp view : views) {
    OpBuilder b(view->getContext());
    b.setInsertionPointAfter(view);
    Location loc = view.getLoc();
    auto type = MemRefType::get(view.getType().getShape(),
                                view.getType().getElementType());
    auto local = memref::AllocOp::create(b, loc, type, ValueRange(),
                                         b.getI64IntegerAttr(64));
    // The first user in block order: a fill defines every element.
    Operation *first = nullptr;
    for (Operation *user : view->getUsers()) {
      Operation *inBody = body.findAncestorOpInBlock(*user);
      if (!first || inBody->isBeforeInBlock(first))
        first = inBody;
    }
    Operation *copyIn = nullptr;
    if (!first || !overwrites(first, view.getResult()))
      copyIn = memref::CopyOp::create(b, loc, view, local);
    view.getResult().replaceUsesWithIf(
        local, [&](OpOperand &use) { return use.getOwner() != copyIn; });
    b.setInsertionPoint(body.getTerminator());
    memref::CopyOp::create(b, loc, local, view);
  }
}

namespace {
/// Decides whether a block body runs as row slabs, and how (planRowFragments).
class RowFragmentPlanner {
public:
  RowFragmentPlanner(Block &body, std::string &why) : body(body), why(why) {}

  std::optional<RowFragmentPlan> plan(bool tryWgmma, int64_t threads);

private:
  LogicalResult fail(const Twine &reason) {
    why = reason.str();
    return failure();
  }
  LogicalResult fail(Operation *op, const Twine &reason) {
    return fail("'" + op->getName().getStringRef() + "' " + reason);
  }
  LogicalResult collectOps();
  LogicalResult findRows();
  void promoteRowBuffers();
  bool isBlockBuffer(Value v) const;
  LogicalResult checkOp(Operation *op);
  LogicalResult checkContraction(linalg::LinalgOp op,
                                 const MmaContraction &mma);
  LogicalResult checkRowOp(linalg::LinalgOp op);
  LogicalResult sizeSlabs(int64_t threads);
  LogicalResult checkReplicable();

  Block &body;
  std::string &why;
  /// The ops of the body and of its temporal loop (at most one).
  SmallVector<Operation *> ops;
  scf::ForOp loop;
  RowFragmentPlan result;
  /// Whether an op keeps a row tile in registers for another (else there is
  /// nothing to fuse).
  bool fuses = false;
};
} // namespace

LogicalResult RowFragmentPlanner::collectOps() {
  for (Operation &op : body) {
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (!forOp) {
      ops.push_back(&op);
      continue;
    }
    if (loop)
      return fail("more than one loop in the block");
    loop = forOp;
    for (Operation &inner : forOp.getBody()->without_terminator()) {
      if (isa<scf::ForOp>(inner))
        return fail("nested loops in the block");
      ops.push_back(&inner);
    }
  }
  return success();
}

/// The rows: those of the first tensor-core contraction's block-local
/// output.
LogicalResult RowFragmentPlanner::findRows() {
  for (Operation *op : ops) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
        !matchMmaContraction(linalgOp))
      continue;
    Value out = linalgOp.getDpsInitOperand(0)->get();
    if (out.getDefiningOp<memref::AllocOp>())
      if (std::optional<RowLayout> layout = rowLayoutOf(out.getType()))
        result.rows = layout->rows;
    break;
  }
  if (!result.rows)
    return fail("no tensor-core contraction into a block-local tile");
  if (result.rows % 16 || result.rows > kMaxRows)
    return fail("the block has " + std::to_string(result.rows) +
                " rows (a multiple of 16, at most " + std::to_string(kMaxRows) +
                ", is needed)");
  return success();
}

/// The buffers kept in registers: block buffers of the rows used only by
/// linalg ops and copies, never as the B operand of a contraction.
void RowFragmentPlanner::promoteRowBuffers() {
  auto usable = [&](Operation *user, memref::AllocOp alloc) {
    if (isa<memref::CopyOp>(user))
      return true;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics())
      return false;
    if (std::optional<MmaContraction> mma = matchMmaContraction(linalgOp))
      return mma->b->get() != alloc.getResult();
    return true;
  };
  for (Operation *op : ops) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc)
      continue;
    std::optional<RowLayout> layout = rowLayoutOf(alloc.getType());
    if (!layout || layout->rows != result.rows)
      continue;
    if (llvm::all_of(alloc->getUsers(),
                     [&](Operation *user) { return usable(user, alloc); }))
      result.promoted.insert(alloc.getResult());
  }
}

/// A buffer the block allocates (through views of it), not a global one: a
/// buffer allocated outside the block (the scratch between the kernels of a
/// partition) is global memory.
bool RowFragmentPlanner::isBlockBuffer(Value v) const {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<memref::AllocOp>(def))
      return body.getParentOp()->isAncestor(def);
    if (!isa<ViewLikeOpInterface>(def))
      return false;
    v = cast<ViewLikeOpInterface>(def).getViewSource();
  }
  return false;
}

/// Every op must have a row-slab form.
LogicalResult RowFragmentPlanner::checkOp(Operation *op) {
  bool inLoop = loop && loop->isAncestor(op);
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    bool promoted = result.promoted.contains(copy.getSource()) ||
                    result.promoted.contains(copy.getTarget());
    if (!promoted && inLoop && copy.getSource() != copy.getTarget())
      return fail(op, "copies non-row buffers inside the loop");
    return success();
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp) {
    if (isa<memref::AllocOp, scf::ForOp>(op) || isPure(op) ||
        op->hasTrait<OpTrait::IsTerminator>())
      return success();
    // A scalar the block reads from global memory before the loop (a
    // per-batch length that bounds the loop) stays as it is.
    auto load = dyn_cast<memref::LoadOp>(op);
    if (load && !inLoop && !isBlockBuffer(load.getMemRef()))
      return success();
    return fail(op, "has effects the row-slab lowering does not know");
  }
  if (!linalgOp.hasPureBufferSemantics() ||
      llvm::any_of(linalgOp.getStaticLoopRanges(), ShapedType::isDynamic))
    return fail(op, "is not a static op on buffers");
  bool touchesPromoted = llvm::any_of(op->getOperands(), [&](Value v) {
    return result.promoted.contains(v);
  });
  if (isa<linalg::CopyOp, linalg::FillOp>(op)) {
    if (!touchesPromoted && inLoop && isa<linalg::FillOp>(op))
      return fail(op, "fills a non-row buffer inside the loop");
    return success();
  }
  if (std::optional<MmaContraction> mma = matchMmaContraction(linalgOp))
    return checkContraction(linalgOp, *mma);
  return checkRowOp(linalgOp);
}

/// A contraction accumulates into a row tile whose rows and columns are
/// its m and n (a promoted A's are m and k).
LogicalResult RowFragmentPlanner::checkContraction(linalg::LinalgOp op,
                                                   const MmaContraction &mma) {
  Value out = op.getDpsInitOperand(0)->get();
  if (!result.promoted.contains(out))
    return fail(op, "accumulates into a buffer that is not a row tile");
  if (mma.extentK > 256)
    return fail(op, "reduces over more than 256 elements");
  if (mma.isTF32())
    return fail(op, "reads TF32 operands (row fragments take 16-bit ones)");
  auto dimsAre = [&](OpOperand *operand, unsigned row, unsigned col) {
    RowLayout layout = *rowLayoutOf(operand->get().getType());
    AffineMap map = op.getMatchingIndexingMap(operand);
    auto rowExpr = dyn_cast<AffineDimExpr>(map.getResult(layout.rowPos));
    auto colExpr = layout.colPos
                       ? dyn_cast<AffineDimExpr>(map.getResult(*layout.colPos))
                       : nullptr;
    return rowExpr && colExpr && rowExpr.getPosition() == row &&
           colExpr.getPosition() == col && layout.rows == result.rows;
  };
  if (!dimsAre(op.getDpsInitOperand(0), mma.m, mma.n))
    return fail(op, "does not map the rows of its output to its m dim");
  if (result.promoted.contains(mma.a->get())) {
    if (!dimsAre(mma.a, mma.m, mma.k))
      return fail(op, "reads a row tile whose columns are not its k dim");
    fuses = true;
  }
  // B as [n, k] with a tile wgmma_tma does not take (see
  // readsBothOperandsKMajor).
  fuses |= readsBothOperandsKMajor(op);
  return success();
}

/// Any other op indexes its row buffers by one row dim and writes row
/// buffers of its loops' shape (a row reduction: a vector of the rows).
LogicalResult RowFragmentPlanner::checkRowOp(linalg::LinalgOp op) {
  std::optional<LoopRoles> roles =
      loopRolesOf(op, result.promoted, result.rows);
  if (!roles)
    return fail(op, "does not index its row buffers by one row dim");
  bool reduces = roles->col && op.getIteratorTypesArray()[*roles->col] ==
                                   utils::IteratorType::reduction;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (result.promoted.contains(init.get())) {
      bool tile = rowLayoutOf(init.get().getType())->colPos.has_value();
      if (tile != (roles->col && !reduces))
        return fail(op, "writes a row buffer of another shape than its loops");
      fuses = true;
      continue;
    }
    if (reduces || isBlockBuffer(init.get()))
      return fail(op, "writes a block buffer that is not a row tile");
  }
  if (reduces && !reductionCombiner(op))
    return fail(op, "reduces with a combiner other than add, mul, max or min");
  return success();
}

/// The schedule's threads fix the 16-row slabs per warp (rows / (16 slabs)
/// warps): the cost model chose two when their registers fit, so that each
/// B fragment feeds two mma.sync (FlashAttention-2's 32 rows per warp). A
/// block of one row warp (16 rows, or 32 in two slabs) may get
/// kRowWarpReplicas warps, each computing the same rows (the cost model
/// gives them to a grid of at most one block per SM).
LogicalResult RowFragmentPlanner::sizeSlabs(int64_t threads) {
  int64_t rows = result.rows;
  result.slabs =
      threads > 0 && (2 * rows) % threads == 0 ? 2 * rows / threads : 0;
  if (result.slabs == 0 && rows <= 32 &&
      threads == 32 * kRowWarpReplicas) {
    result.slabs = rows / 16;
    result.replicas = kRowWarpReplicas;
    if (failed(checkReplicable()))
      return failure();
  }
  if ((result.slabs != 1 && result.slabs != 2) ||
      rows % (16 * result.slabs) != 0)
    return fail("its " + std::to_string(threads) + " threads do not hold " +
                std::to_string(rows) + " rows as 16- or 32-row warp slabs");
  int64_t registers = peakRegisters(ops, loop, result.promoted, result.slabs);
  if (registers > kRowFragmentRegisterBudget)
    return fail("the row tiles need " + std::to_string(registers) +
                " registers per lane (at most " +
                std::to_string(kRowFragmentRegisterBudget) + ")");
  return success();
}

/// Replicated row warps compute from the same inputs only when no global
/// buffer the block writes is read by it (the first copy would write it
/// under the others' reads).
LogicalResult RowFragmentPlanner::checkReplicable() {
  auto isGlobal = [&](Value v) {
    return !result.promoted.contains(v) && !isBlockBuffer(v);
  };
  llvm::SmallPtrSet<Value, 4> written;
  SmallVector<Value> read;
  for (Operation *op : ops) {
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      // A copy onto itself (bufferization's in-place result) does nothing.
      if (copy.getSource() == copy.getTarget())
        continue;
      read.push_back(copy.getSource());
      written.insert(copy.getTarget());
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      llvm::append_range(read, linalgOp.getDpsInputs());
      for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
        written.insert(init.get());
        if (linalgOp.payloadUsesValueFromOperand(&init))
          read.push_back(init.get());
      }
    }
  }
  for (Value v : read)
    if (isGlobal(v) && written.contains(v))
      return fail("its one row warp cannot be replicated: the block reads a "
                  "global buffer it writes");
  return success();
}

std::optional<RowFragmentPlan> RowFragmentPlanner::plan(bool tryWgmma,
                                                        int64_t threads) {
  if (failed(collectOps()) || failed(findRows()))
    return std::nullopt;
  promoteRowBuffers();
  for (Operation *op : ops)
    if (failed(checkOp(op)))
      return std::nullopt;
  if (!fuses) {
    why = "nothing to fuse in registers (a single contraction)";
    return std::nullopt;
  }
  if (failed(sizeSlabs(threads)))
    return std::nullopt;
  // On Hopper, wgmma with one slab per warp (the warpgroup's 64 rows are
  // its four warps' slabs, in the same accumulator layout).
  if (tryWgmma && result.slabs == 1 &&
      planWgmmaRows(ops, result, result.whyNotWgmma))
    result.wgmma = true;
  return result;
}

std::optional<RowFragmentPlan> mlir::smap::planRowFragments(Block &body,
                                                            bool tryWgmma,
                                                            int64_t threads,
                                                            std::string &why) {
  return RowFragmentPlanner(body, why).plan(tryWgmma, threads);
}

namespace {
/// One row op being lowered slot by slot (RowFragmentLowering::lowerRowOp):
/// its loop roles, its slots and their loop indices, the pairs of columns
/// loaded so far and its mask cut test.
struct RowOpSlots {
  linalg::LinalgOp op;
  LoopRoles roles;
  /// The columns of a tile's iteration, 0 for a row vector's.
  int64_t cols = 0;
  int64_t perSlab = 0, slots = 0;
  /// The loop indices of each slot.
  SmallVector<SmallVector<Value>> indices;
  /// A memory operand's vector load of each pair of neighbouring slots.
  DenseMap<std::pair<OpOperand *, int64_t>, Value> pairLoads;
  /// The mask's cut test (maskCutTest), and its value when known: its
  /// selects are then resolved.
  Value cut;
  std::optional<bool> cutTaken;
};

/// The operands of a contraction's wgmma k-steps (lowerWgmmaContraction).
struct WgmmaOperands {
  /// Whether A is a row tile in registers (else a staged tile, as B is).
  bool aInRegisters = false;
  /// The staged tiles' layouts (A's when staged).
  std::optional<WgmmaTile> aTile;
  WgmmaTile bTile;
  /// The staged tiles' descriptors at k-step 0.
  Value descA, descB;
  /// A in registers: four packed 16-bit pairs per k-step.
  SmallVector<Value> aRegisters;
};

/// The per-lane values of the promoted buffers while lowering one block.
class RowFragmentLowering {
public:
  RowFragmentLowering(BlockDistributor &distributor,
                      const RowFragmentPlan &plan, Value tid)
      : distributor(distributor), plan(plan), tid(tid) {}

  LogicalResult lowerBlock(Block &block);
  /// The lane's coordinates, built once at the start of the block.
  void buildLaneCoordinates(OpBuilder &b, Location at);

private:
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(OpBuilder &b, Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  }
  /// A 64-bit integer constant.
  Value i64(OpBuilder &b, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  }
  /// A lane's slots of a buffer: those of each of its slabs.
  int64_t laneSlots(const RowLayout &layout) const {
    return plan.slabs * layout.slots();
  }
  /// The row and column of slot `s` of a layout with `cols` columns (0 for
  /// a row vector): slab s / perSlab, then the slab's slot.
  std::pair<Value, Value> slotCoordinates(OpBuilder &b, int64_t s,
                                          int64_t cols);
  /// The values of `buffer` (zeros when nothing wrote it yet).
  ArrayRef<Value> valuesOf(OpBuilder &b, Value buffer);
  /// Element indices of slot `s` in a buffer with `layout`.
  SmallVector<Value> bufferIndices(OpBuilder &b, MemRefType type,
                                   const RowLayout &layout, int64_t s);

  /// A cooperative op, after a barrier when warp code ran since the last.
  LogicalResult barrierThenCooperative(Operation *op) {
    if (warpCodeSinceBarrier) {
      OpBuilder b(op);
      gpu::BarrierOp::create(b, loc);
    }
    warpCodeSinceBarrier = false;
    return distributor.distributeOverThreads(op);
  }
  /// Builds `store` of registers into `target`; into global memory, only
  /// in the first copy of replicated rows (the copies hold the same values).
  void storeOnce(OpBuilder &b, Value target,
                 function_ref<void(OpBuilder &)> store);
  LogicalResult lowerCopy(Operation *op, Value source, Value target);
  LogicalResult lowerFill(linalg::FillOp fill);
  LogicalResult lowerContraction(linalg::LinalgOp op,
                                 const MmaContraction &mma);
  /// The mma.sync A fragments of k-step `k0` of each slab.
  SmallVector<Value> mmaSyncAFragments(OpBuilder &b, MmaFragmentLoader &loader,
                                       const MmaContraction &mma, int64_t k0);
  /// The contraction as wgmma of the warpgroup's 64 rows, k-step by k-step
  /// on the accumulator slots (plan.wgmma).
  LogicalResult lowerWgmmaContraction(linalg::LinalgOp op,
                                      const MmaContraction &mma);
  /// Builds the descriptors of the contraction's staged wgmma tiles.
  LogicalResult buildWgmmaDescriptors(OpBuilder &b, linalg::LinalgOp op,
                                      const MmaContraction &mma,
                                      WgmmaOperands &operands);
  /// A's wgmma registers, from the row tile in registers.
  SmallVector<Value> packedARegisters(OpBuilder &b, const MmaContraction &mma);
  /// Issues the wgmma k-steps on `acc`; returns the accumulators.
  SmallVector<Value> issueWgmmaSteps(OpBuilder &b, const MmaContraction &mma,
                                     const WgmmaOperands &operands,
                                     StringRef instruction, Value one,
                                     SmallVector<Value> acc);
  LogicalResult lowerRowOp(linalg::LinalgOp op);
  /// The slots of row op `op` and their loop indices.
  RowOpSlots rowOpSlots(OpBuilder &b, linalg::LinalgOp op);
  /// Whether a memory operand's slots 2 c and 2 c + 1 (neighbouring columns
  /// of a tile) are one aligned pair of contiguous elements.
  bool isColumnPair(const RowOpSlots &row, OpOperand &operand) const;
  /// Operand `operand`'s value at slot `s`.
  Value slotValue(OpBuilder &b, RowOpSlots &row, OpOperand &operand, int64_t s);
  /// The payload at slot `s`, or at slots `s` and `s + 1` when `paired`
  /// (neighbouring columns of one row, their 16-bit math as packed
  /// instructions, PackedPairs.h): each slot's results. `outs(e)` gives
  /// slot `s + e`'s output arguments (null where unread); it is asked after
  /// the inputs are read.
  SmallVector<SmallVector<Value>, 2>
  evaluatePayload(OpBuilder &b, RowOpSlots &row, int64_t s, bool paired,
                  function_ref<SmallVector<Value>(unsigned)> outs);
  /// The results of slot `s` and, when `paired`, of slot `s + 1`.
  SmallVector<SmallVector<Value>, 2>
  evaluateSlots(OpBuilder &b, RowOpSlots &row, int64_t s, bool paired);
  /// The output arguments of slot `s`: the old values the payload reads.
  SmallVector<Value> slotOuts(OpBuilder &b, RowOpSlots &row, int64_t s);
  /// A row op reducing along the columns.
  LogicalResult lowerRowReduction(OpBuilder &b, RowOpSlots &row);
  /// A row op with a mask cut test and its outputs in registers.
  LogicalResult lowerCutRowOp(OpBuilder &b, RowOpSlots &row);
  /// Fills `branch` with the slots' code for the cut test's value `taken`.
  void buildCutBranch(OpBuilder &b, RowOpSlots &row, Block *branch, bool taken,
                      size_t numResults);
  /// Any other row op: elementwise over the slots.
  LogicalResult lowerElementwiseRowOp(OpBuilder &b, RowOpSlots &row);
  /// Stores `result`, slot `s` of output `init` in memory.
  void storeSlot(OpBuilder &b, RowOpSlots &row, OpOperand &init, int64_t s,
                 Value result, SmallVectorImpl<Value> &pending);
  LogicalResult lowerLoop(scf::ForOp loop);
  /// The row buffers `loop` carries, in the block's order.
  SmallVector<Value> carriedBuffers(scf::ForOp loop) const;

  BlockDistributor &distributor;
  const RowFragmentPlan &plan;
  Value tid;
  Location loc = UnknownLoc();
  Value lane, rowBase, group, pairCol;
  /// Whether this warp is the first copy of its rows (plan.replicas > 1).
  Value firstReplica;
  DenseMap<Value, SmallVector<Value>> values;
  /// Whether warp code ran since the last block barrier.
  bool warpCodeSinceBarrier = false;
};
} // namespace

void RowFragmentLowering::buildLaneCoordinates(OpBuilder &b, Location at) {
  loc = at;
  lane = arith::RemUIOp::create(b, loc, tid, index(b, 32));
  Value warp = arith::DivUIOp::create(b, loc, tid, index(b, 32));
  // Copies of the block's one row warp all take its rows; warp 0 is first.
  if (plan.replicas > 1) {
    firstReplica = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         warp, index(b, 0));
    warp = index(b, 0);
  }
  rowBase = arith::MulIOp::create(b, loc, warp, index(b, 16 * plan.slabs));
  group = arith::DivUIOp::create(b, loc, lane, index(b, 4));
  pairCol = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, index(b, 4)), index(b, 2));
}

std::pair<Value, Value>
RowFragmentLowering::slotCoordinates(OpBuilder &b, int64_t s, int64_t cols) {
  int64_t perSlab = cols ? cols / 2 : 2, slab = s / perSlab;
  s %= perSlab;
  int64_t i = cols ? (s / 2) % 2 : s;
  Value row = add(b, rowBase, add(b, group, index(b, 16 * slab + 8 * i)));
  if (!cols)
    return {row, Value()};
  int64_t t = s / 4, e = s % 2;
  return {row, add(b, pairCol, index(b, 8 * t + e))};
}

ArrayRef<Value> RowFragmentLowering::valuesOf(OpBuilder &b, Value buffer) {
  auto it = values.find(buffer);
  if (it != values.end())
    return it->second;
  // Read before any write: the buffer's contents are undefined; zeros keep
  // the registers defined.
  RowLayout layout = *rowLayoutOf(buffer.getType());
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  return values[buffer] = SmallVector<Value>(laneSlots(layout), zero);
}

SmallVector<Value> RowFragmentLowering::bufferIndices(OpBuilder &b,
                                                      MemRefType type,
                                                      const RowLayout &layout,
                                                      int64_t s) {
  SmallVector<Value> indices(type.getRank(), index(b, 0));
  auto [row, col] = slotCoordinates(b, s, layout.colPos ? layout.cols : 0);
  indices[layout.rowPos] = row;
  if (layout.colPos)
    indices[*layout.colPos] = col;
  return indices;
}

LogicalResult RowFragmentLowering::lowerCopy(Operation *op, Value source,
                                             Value target) {
  bool fromRegisters = plan.promoted.contains(source);
  bool toRegisters = plan.promoted.contains(target);
  if (!fromRegisters && !toRegisters) {
    return barrierThenCooperative(op);
  }
  OpBuilder b(op);
  if (fromRegisters && toRegisters) {
    values[target] = SmallVector<Value>(valuesOf(b, source));
  } else if (toRegisters) {
    auto type = cast<MemRefType>(source.getType());
    RowLayout layout = *rowLayoutOf(target.getType());
    SmallVector<Value> loaded;
    for (int64_t s = 0; s < laneSlots(layout); ++s)
      loaded.push_back(memref::LoadOp::create(
          b, loc, source, bufferIndices(b, type, layout, s)));
    values[target] = loaded;
  } else {
    auto type = cast<MemRefType>(target.getType());
    RowLayout layout = *rowLayoutOf(source.getType());
    ArrayRef<Value> slots = valuesOf(b, source);
    storeOnce(b, target, [&](OpBuilder &sb) {
      for (int64_t s = 0; s < laneSlots(layout); ++s)
        memref::StoreOp::create(sb, loc, slots[s], target,
                                bufferIndices(sb, type, layout, s));
    });
    warpCodeSinceBarrier = true;
  }
  op->erase();
  return success();
}

void RowFragmentLowering::storeOnce(OpBuilder &b, Value target,
                                    function_ref<void(OpBuilder &)> store) {
  auto type = cast<MemRefType>(target.getType());
  if (!firstReplica || gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type)) {
    store(b);
    return;
  }
  auto guard = scf::IfOp::create(b, loc, firstReplica,
                                 /*withElseRegion=*/false);
  OpBuilder inThen(guard.thenBlock()->getTerminator());
  store(inThen);
}

LogicalResult RowFragmentLowering::lowerFill(linalg::FillOp fill) {
  Value target = fill.getOutputs()[0];
  if (!plan.promoted.contains(target)) {
    return barrierThenCooperative(fill);
  }
  RowLayout layout = *rowLayoutOf(target.getType());
  values[target] = SmallVector<Value>(laneSlots(layout), fill.getInputs()[0]);
  fill->erase();
  return success();
}

/// The 64-bit wgmma matrix descriptor of the swizzled tile whose view is
/// `view`: start address (bits 0-13, in 16-byte units), leading-dim byte
/// offset (16-29), stride byte offset (32-45; 1024, eight 128-byte rows),
/// 128-byte swizzle (62-63).
static Value wgmmaDescriptor(OpBuilder &b, Location loc, memref::ViewOp view,
                             int64_t leadingBytes) {
  auto i64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view));
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, i64(0x3FFFF)), i64(4));
  uint64_t fields = (uint64_t(leadingBytes >> 4) << 16) |
                    (uint64_t(kSwizzleAlignment >> 4) << 32) | (1ull << 62);
  return arith::OrIOp::create(b, loc, start, i64(fields));
}

/// An inline-asm statement of `values.size()` f32 outputs tied to `values`
/// after `inputs` ($0.. are the outputs, then the inputs); returns the
/// outputs.
static SmallVector<Value> tiedAsm(OpBuilder &b, Location loc,
                                  StringRef asmString, StringRef inputKinds,
                                  ValueRange inputs, ArrayRef<Value> values) {
  int64_t n = values.size();
  std::string constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=f,";
  constraints += inputKinds.str();
  for (int64_t i = 0; i < n; ++i)
    constraints += (constraints.back() == ',' ? "" : ",") + std::to_string(i);
  SmallVector<Value> operands(inputs);
  llvm::append_range(operands, values);
  auto type = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(n, b.getF32Type()));
  Value result =
      LLVM::InlineAsmOp::create(b, loc, type, operands, asmString, constraints,
                                /*has_side_effects=*/true,
                                /*is_align_stack=*/false,
                                LLVM::tailcallkind::TailCallKind::None,
                                /*asm_dialect=*/nullptr,
                                /*operand_attrs=*/nullptr)
          .getResult(0);
  SmallVector<Value> outputs;
  for (int64_t i = 0; i < n; ++i)
    outputs.push_back(LLVM::ExtractValueOp::create(b, loc, result, i));
  return outputs;
}

/// The inline PTX of one m64nNk16 f16 wgmma on tiedAsm's operands: the N / 2
/// accumulators ($0..), then A (four packed f16x2 registers, or a
/// descriptor), B's descriptor and 1 (the scale-d predicate's source).
/// `v` rounded to the fragments' 16-bit float type, unless it is one.
static Value roundTo(OpBuilder &b, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return arith::TruncFOp::create(b, v.getLoc(), type, v);
}

static std::string wgmmaInstruction(int64_t n, bool aInRegisters,
                                    bool transposeB, Type operandType) {
  std::string type = operandType.isBF16() ? "bf16" : "f16";
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $";
  int64_t in = n / 2; // the first input's number
  text += std::to_string(in + (aInRegisters ? 5 : 2)) +
          ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(n) +
          "k16.f32." + type + "." + type + " {";
  for (int64_t i = 0; i < n / 2; ++i)
    text += (i ? ", $" : "$") + std::to_string(i);
  auto operand = [&](int64_t i) { return "$" + std::to_string(in + i); };
  if (aInRegisters)
    text += "}, {" + operand(0) + ", " + operand(1) + ", " + operand(2) + ", " +
            operand(3) + "}, " + operand(4) + ", p, 1, 1, ";
  else
    text += "}, " + operand(0) + ", " + operand(1) + ", p, 1, 1, 0, ";
  return text + (transposeB ? "1" : "0") + ";\n}";
}

/// The byte offset of k-step k0 in a tile: 32 bytes per step within a
/// 64-column block of a K-major tile, 16 rows of 128 bytes in an MN-major
/// one.
static int64_t kStepOffset(const WgmmaTile &tile, int64_t k0) {
  return tile.kMajor ? (k0 / 64) * tile.rows * 128 + (k0 % 64) * 2 : k0 * 128;
}

/// The descriptors of the staged operands at k-step 0; the warpgroup's A
/// rows start 64 rows (eight 1024-byte row groups) into the tile. Fails
/// when an operand is not a swizzled tile.
LogicalResult
RowFragmentLowering::buildWgmmaDescriptors(OpBuilder &b, linalg::LinalgOp op,
                                           const MmaContraction &mma,
                                           WgmmaOperands &operands) {
  std::optional<WgmmaTile> bTile =
      wgmmaTileOf(op, mma.b, mma.k, mma.n, mma.operandType);
  memref::ViewOp bView = swizzledTileView(mma.b->get());
  if (!bTile || !bView)
    return op->emitError("wgmma operand B is not a swizzled tile");
  operands.bTile = *bTile;
  operands.descB =
      wgmmaDescriptor(b, loc, bView, bTile->kMajor ? 16 : bTile->rows * 128);
  if (operands.aInRegisters)
    return success();
  operands.aTile = wgmmaTileOf(op, mma.a, mma.k, mma.m, mma.operandType);
  memref::ViewOp aView = swizzledTileView(mma.a->get());
  if (!operands.aTile || !aView)
    return op->emitError("wgmma operand A is not a swizzled tile");
  Value warpgroup = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      arith::DivUIOp::create(b, loc, tid, index(b, 128)));
  operands.descA = arith::AddIOp::create(
      b, loc, wgmmaDescriptor(b, loc, aView, 16),
      arith::MulIOp::create(b, loc, warpgroup, i64(b, 64 * 128 >> 4)));
  return success();
}

/// k-step s's A fragment is slots 8 s .. 8 s + 7 of the row tile (the
/// mma.sync m16n8k16 A layout, per warp, is wgmma's register A), rounded
/// to the operands' 16-bit type and packed in pairs; all of them before the
/// first wgmma, so that no register write falls between them.
SmallVector<Value>
RowFragmentLowering::packedARegisters(OpBuilder &b, const MmaContraction &mma) {
  SmallVector<Value> aRegisters;
  for (Value v : valuesOf(b, mma.a->get()).take_front(mma.extentK / 2))
    aRegisters.push_back(roundTo(b, v, mma.operandType));
  for (int64_t r = 0; r < mma.extentK / 4; ++r) {
    Value packed = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()),
        vector::FromElementsOp::create(
            b, loc, VectorType::get({2}, mma.operandType),
            ArrayRef<Value>(aRegisters).slice(2 * r, 2)));
    aRegisters[r] =
        vector::ExtractOp::create(b, loc, packed, ArrayRef<int64_t>{0});
  }
  aRegisters.resize(mma.extentK / 4);
  return aRegisters;
}

/// One wgmma per k-step of 16 on the accumulators `acc`, between a fence
/// and the wait for their group to complete.
SmallVector<Value> RowFragmentLowering::issueWgmmaSteps(
    OpBuilder &b, const MmaContraction &mma, const WgmmaOperands &operands,
    StringRef instruction, Value one, SmallVector<Value> acc) {
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t k0 = 0; k0 < mma.extentK; k0 += 16) {
    SmallVector<Value> inputs;
    if (operands.aInRegisters)
      llvm::append_range(
          inputs, ArrayRef<Value>(operands.aRegisters).slice(k0 / 16 * 4, 4));
    else
      inputs.push_back(
          arith::AddIOp::create(b, loc, operands.descA,
                                i64(b, kStepOffset(*operands.aTile, k0) >> 4)));
    inputs.push_back(arith::AddIOp::create(
        b, loc, operands.descB, i64(b, kStepOffset(operands.bTile, k0) >> 4)));
    inputs.push_back(one);
    acc = tiedAsm(b, loc, instruction,
                  operands.aInRegisters ? "r,r,r,r,l,r" : "l,l,r", inputs, acc);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  return acc;
}

LogicalResult
RowFragmentLowering::lowerWgmmaContraction(linalg::LinalgOp op,
                                           const MmaContraction &mma) {
  OpBuilder b(op);
  ++distributor.wgmmaContractions;
  Value out = op.getDpsInitOperand(0)->get();
  // One slab: slot 4 t + 2 i + e is n-tile t's accumulator 2 i + e, which
  // is also wgmma's register order.
  SmallVector<Value> acc(valuesOf(b, out));
  WgmmaOperands operands;
  operands.aInRegisters = plan.promoted.contains(mma.a->get());
  if (failed(buildWgmmaDescriptors(b, op, mma, operands)))
    return failure();
  std::string instruction =
      wgmmaInstruction(mma.extentN, operands.aInRegisters,
                       !operands.bTile.kMajor, mma.operandType);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  if (operands.aInRegisters)
    operands.aRegisters = packedARegisters(b, mma);
  acc = issueWgmmaSteps(b, mma, operands, instruction, one, std::move(acc));
  // The results exist only after the wait: redefine them there, so that
  // nothing reads them earlier.
  values[out] = tiedAsm(b, loc, "", "", {}, acc);
  warpCodeSinceBarrier = true;
  op->erase();
  return success();
}

SmallVector<Value>
RowFragmentLowering::mmaSyncAFragments(OpBuilder &b, MmaFragmentLoader &loader,
                                       const MmaContraction &mma, int64_t k0) {
  auto aType = VectorType::get({4, 2}, mma.operandType);
  bool aInRegisters = plan.promoted.contains(mma.a->get());
  SmallVector<Value> aFragments;
  for (int64_t slab = 0; slab < plan.slabs; ++slab) {
    if (aInRegisters) {
      // The A fragment of this k-step is slots 8 s .. 8 s + 7 of the
      // slab's tile: rows group / group + 8 of its two 8-column n-tiles.
      ArrayRef<Value> aSlots =
          valuesOf(b, mma.a->get())
              .slice(slab * (mma.extentK / 2), mma.extentK / 2)
              .slice(8 * (k0 / 16), 8);
      SmallVector<Value> halves;
      for (Value v : aSlots)
        halves.push_back(roundTo(b, v, mma.operandType));
      aFragments.push_back(
          vector::FromElementsOp::create(b, loc, aType, halves));
    } else {
      aFragments.push_back(
          loader.loadA(b, add(b, rowBase, index(b, 16 * slab)), index(b, k0)));
    }
  }
  return aFragments;
}

LogicalResult RowFragmentLowering::lowerContraction(linalg::LinalgOp op,
                                                    const MmaContraction &mma) {
  if (plan.wgmma)
    return lowerWgmmaContraction(op, mma);
  OpBuilder b(op);
  MmaFragmentLoader loader(b, op, mma, lane);
  distributor.ldmatrixOperands += loader.ldmatrixOperands();
  ++distributor.mmaContractions;
  Value out = op.getDpsInitOperand(0)->get();
  int64_t nTiles = mma.extentN / 8;
  auto cType = VectorType::get({2, 2}, b.getF32Type());
  ArrayRef<Value> outSlots = valuesOf(b, out);
  int64_t slabs = plan.slabs;
  // accs[slab * nTiles + t]: n-tile t of the slab's 16 rows.
  SmallVector<Value> accs;
  for (int64_t slab = 0; slab < slabs; ++slab)
    for (int64_t t = 0; t < nTiles; ++t)
      accs.push_back(vector::FromElementsOp::create(
          b, loc, cType, outSlots.slice(slab * 4 * nTiles + 4 * t, 4)));
  Value zero = index(b, 0);
  for (int64_t k0 = 0; k0 < mma.extentK; k0 += 16) {
    SmallVector<Value> aFragments = mmaSyncAFragments(b, loader, mma, k0);
    SmallVector<Value> bFragments = loader.loadB(b, zero, index(b, k0), nTiles);
    for (int64_t t = 0; t < nTiles; ++t)
      for (int64_t slab = 0; slab < slabs; ++slab)
        accs[slab * nTiles + t] = createMmaSync(
            b, loc, aFragments[slab], bFragments[t], accs[slab * nTiles + t]);
  }
  SmallVector<Value> slots;
  for (Value acc : accs)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t e = 0; e < 2; ++e)
        slots.push_back(
            vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, e}));
  values[out] = slots;
  warpCodeSinceBarrier = true;
  op->erase();
  return success();
}

/// The test by which the temporal slicer lets a slice leave out a mask
/// (`select(cut, select(c, masked, x), x)`, or the inner select's operands
/// swapped): an i1 from outside `op`'s payload, uniform over the block;
/// null when the payload has none. Only this test picks between two copies
/// of the op's code: doing so for every uniform test (the first slice's
/// rescale too) made attention without a mask up to 29% slower
/// (bench/results/mask-cut-slices.md).
static Value maskCutTest(linalg::LinalgOp op) {
  Region &payload = op->getRegion(0);
  Value found;
  payload.walk([&](arith::SelectOp outer) {
    Value cut = outer.getCondition();
    auto inner = outer.getTrueValue().getDefiningOp<arith::SelectOp>();
    if (found || payload.isAncestor(cut.getParentRegion()) ||
        matchPattern(cut, m_Constant()) || !inner ||
        (inner.getTrueValue() != outer.getFalseValue() &&
         inner.getFalseValue() != outer.getFalseValue()))
      return;
    found = cut;
  });
  return found;
}

/// The alignment of a pair of neighbouring `element`s.
static llvm::Align pairAlignment(Type element) {
  return llvm::Align(2 * llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
}

RowOpSlots RowFragmentLowering::rowOpSlots(OpBuilder &b, linalg::LinalgOp op) {
  RowOpSlots row;
  row.op = op;
  row.roles = *loopRolesOf(op, plan.promoted, plan.rows);
  row.cols = row.roles.col ? row.roles.cols : 0;
  row.perSlab = row.cols ? row.cols / 2 : 2;
  row.slots = plan.slabs * row.perSlab;
  for (int64_t s = 0; s < row.slots; ++s) {
    SmallVector<Value> indices(op.getNumLoops(), index(b, 0));
    auto [rowIndex, colIndex] = slotCoordinates(b, s, row.cols);
    indices[row.roles.row] = rowIndex;
    if (row.roles.col)
      indices[*row.roles.col] = colIndex;
    row.indices.push_back(indices);
  }
  row.cut = maskCutTest(op);
  return row;
}

bool RowFragmentLowering::isColumnPair(const RowOpSlots &row,
                                       OpOperand &operand) const {
  linalg::LinalgOp op = row.op;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto last = map.getNumResults()
                  ? dyn_cast<AffineDimExpr>(map.getResults().back())
                  : nullptr;
  return row.cols && last && row.roles.col &&
         last.getPosition() == *row.roles.col &&
         isVectorAligned(operand.get(), 2);
}

Value RowFragmentLowering::slotValue(OpBuilder &b, RowOpSlots &row,
                                     OpOperand &operand, int64_t s) {
  Value v = operand.get();
  if (!isa<MemRefType>(v.getType()))
    return v;
  if (plan.promoted.contains(v)) {
    ArrayRef<Value> lanes = valuesOf(b, v);
    bool tile = rowLayoutOf(v.getType())->colPos.has_value();
    if (tile || !row.cols)
      return lanes[s];
    // A row vector in a tile's iteration: the slab's value of the row.
    return lanes[(s / row.perSlab) * 2 + (s % row.perSlab / 2) % 2];
  }
  AffineMap map = row.op.getMatchingIndexingMap(&operand);
  if (!isColumnPair(row, operand))
    return memref::LoadOp::create(b, loc, v,
                                  applyMap(b, loc, map, row.indices[s]));
  // Slots 2 c and 2 c + 1 are neighbouring columns: one vector load.
  Value &pair = row.pairLoads[{&operand, s / 2}];
  if (!pair) {
    Type element = getElementTypeOrSelf(v.getType());
    pair =
        vector::LoadOp::create(b, loc, VectorType::get({2}, element), v,
                               applyMap(b, loc, map, row.indices[s - s % 2]),
                               /*nontemporal=*/false, pairAlignment(element));
  }
  return vector::ExtractOp::create(b, loc, pair, ArrayRef<int64_t>{s % 2});
}

/// What a select on the mask's cut test takes when the test is known
/// (row.cutTaken), else null.
static Value cutSelectChoice(const RowOpSlots &row, Operation &payload) {
  auto select = dyn_cast<arith::SelectOp>(payload);
  if (!row.cutTaken || !select || select.getCondition() != row.cut)
    return Value();
  return *row.cutTaken ? select.getTrueValue() : select.getFalseValue();
}

/// Whether a row op's slots are evaluated in pairs: a tile's (a pair of
/// slots is two neighbouring columns of one row) with 16-bit arithmetic.
/// (A rounding alone, as of an f32 softmax's probabilities, already pairs
/// in NVPTX when nothing else reads the rounded values.)
static bool pairsSlots(RowOpSlots &row) {
  return row.cols > 0 && row.slots % 2 == 0 &&
         llvm::any_of(row.op.getBlock()->without_terminator(),
                      [](Operation &op) {
                        return isPackedHalfOp(op) && !isa<arith::TruncFOp>(op);
                      });
}

namespace {
/// A row op's payload cloned for one slot, or for two neighbouring slots
/// (PayloadPair): the values of each slot by the payload's values.
class SlotPayload {
public:
  virtual ~SlotPayload() = default;
  /// Maps `v` to its value in each slot.
  virtual void map(Value v, ArrayRef<Value> perSlot) = 0;
  virtual void clone(OpBuilder &b, Operation &payload) = 0;
  /// `v`'s value in slot `e` after the payload was cloned.
  virtual Value element(Value v, unsigned e) const = 0;
};

class SingleSlotPayload : public SlotPayload {
public:
  explicit SingleSlotPayload(BlockDistributor &distributor)
      : distributor(distributor) {}
  void map(Value v, ArrayRef<Value> perSlot) override {
    mapping.map(v, perSlot[0]);
  }
  void clone(OpBuilder &b, Operation &payload) override {
    distributor.clonePayload(b, payload, mapping);
  }
  Value element(Value v, unsigned) const override {
    return mapping.lookupOrDefault(v);
  }

private:
  BlockDistributor &distributor;
  IRMapping mapping;
};

class PairedSlotPayload : public SlotPayload {
public:
  PairedSlotPayload(Location loc, BlockDistributor &distributor)
      : pair(loc, [&distributor](OpBuilder &b, Operation &payload,
                                 IRMapping &mapping) {
          distributor.clonePayload(b, payload, mapping);
        }) {}
  void map(Value v, ArrayRef<Value> perSlot) override {
    pair.map(v, perSlot[0], perSlot[1]);
  }
  void clone(OpBuilder &b, Operation &payload) override {
    pair.clone(b, payload);
  }
  Value element(Value v, unsigned e) const override {
    return pair.element(v, e);
  }

private:
  PayloadPair pair;
};
} // namespace

SmallVector<SmallVector<Value>, 2> RowFragmentLowering::evaluatePayload(
    OpBuilder &b, RowOpSlots &row, int64_t s, bool paired,
    function_ref<SmallVector<Value>(unsigned)> outs) {
  linalg::LinalgOp op = row.op;
  Block *body = op.getBlock();
  SingleSlotPayload single(distributor);
  PairedSlotPayload pair(loc, distributor);
  SlotPayload &payload = paired ? static_cast<SlotPayload &>(pair)
                                : static_cast<SlotPayload &>(single);
  unsigned slots = paired ? 2 : 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    SmallVector<Value, 2> perSlot;
    for (unsigned e = 0; e < slots; ++e)
      perSlot.push_back(slotValue(b, row, *input, s + e));
    payload.map(body->getArgument(input->getOperandNumber()), perSlot);
  }
  SmallVector<SmallVector<Value>, 2> slotOutputs;
  for (unsigned e = 0; e < slots; ++e)
    slotOutputs.push_back(outs(e));
  for (auto [i, out] : llvm::enumerate(slotOutputs[0])) {
    if (!out)
      continue;
    SmallVector<Value, 2> perSlot;
    for (unsigned e = 0; e < slots; ++e)
      perSlot.push_back(slotOutputs[e][i]);
    payload.map(body->getArgument(op.getNumDpsInputs() + i), perSlot);
  }
  for (Operation &payloadOp : body->without_terminator()) {
    SmallVector<Value, 2> perSlot;
    if (auto indexOp = dyn_cast<linalg::IndexOp>(payloadOp)) {
      for (unsigned e = 0; e < slots; ++e)
        perSlot.push_back(row.indices[s + e][indexOp.getDim()]);
    } else if (Value taken = cutSelectChoice(row, payloadOp)) {
      // The cut test's select, resolved: the choice it is known to take.
      for (unsigned e = 0; e < slots; ++e)
        perSlot.push_back(payload.element(taken, e));
    } else {
      payload.clone(b, payloadOp);
      continue;
    }
    payload.map(payloadOp.getResult(0), perSlot);
  }
  SmallVector<SmallVector<Value>, 2> results(slots);
  for (Value v : body->getTerminator()->getOperands())
    for (unsigned e = 0; e < slots; ++e)
      results[e].push_back(payload.element(v, e));
  return results;
}

SmallVector<SmallVector<Value>, 2>
RowFragmentLowering::evaluateSlots(OpBuilder &b, RowOpSlots &row, int64_t s,
                                   bool paired) {
  if (paired)
    return evaluatePayload(b, row, s, /*paired=*/true,
                           [&](unsigned e) { return slotOuts(b, row, s + e); });
  SmallVector<Value> outs = slotOuts(b, row, s);
  return evaluatePayload(b, row, s, /*paired=*/false,
                         [&](unsigned) { return outs; });
}

SmallVector<Value> RowFragmentLowering::slotOuts(OpBuilder &b, RowOpSlots &row,
                                                 int64_t s) {
  SmallVector<Value> outs;
  for (OpOperand &init : row.op.getDpsInitsMutable())
    outs.push_back(row.op.payloadUsesValueFromOperand(&init)
                       ? slotValue(b, row, init, s)
                       : Value());
  return outs;
}

/// Folds the lane's slots of each row, combines the four lanes of the row
/// (xor 1 and 2), then the previous value, all with the body's own
/// combining op (a max from a NaN fill is a maxnumf, which ignores it),
/// from that op's identity (NaN for maxnumf: a row of NaN stays NaN).
LogicalResult RowFragmentLowering::lowerRowReduction(OpBuilder &b,
                                                     RowOpSlots &row) {
  linalg::LinalgOp op = row.op;
  Combiner combiner = *reductionCombiner(op);
  Operation *combineOp =
      op.getBlock()->getTerminator()->getOperand(0).getDefiningOp();
  OpOperand *init = op.getDpsInitOperand(0);
  auto type =
      cast<FloatType>(cast<MemRefType>(init->get().getType()).getElementType());
  ArrayRef<Value> previous = valuesOf(b, init->get());
  // A max or min is exact in any order: 16-bit slots fold in pairs of
  // columns (packed), the two halves at the end.
  bool paired = pairsSlots(row) &&
                (combiner == Combiner::Max || combiner == Combiner::Min);
  SmallVector<Value> results;
  for (int64_t r = 0; r < 2 * plan.slabs; ++r) {
    // Vector slot `r`: slab r / 2, half r % 2.
    Value identity = arith::ConstantOp::create(
        b, loc, getCombineOpIdentity(b, combineOp, combiner, type));
    SmallVector<Value, 2> accs(paired ? 2 : 1, identity);
    for (int64_t s = 0; s < row.slots; s += accs.size()) {
      if (s / row.perSlab != r / 2 || (s % row.perSlab / 2) % 2 != r % 2)
        continue;
      SmallVector<SmallVector<Value>, 2> results =
          evaluatePayload(b, row, s, paired, [&](unsigned e) {
            return SmallVector<Value>{accs[e]};
          });
      for (auto [acc, slotResults] : llvm::zip(accs, results))
        acc = slotResults[0];
    }
    Value acc = paired ? buildCombineLike(b, loc, combineOp, accs[0], accs[1])
                       : accs[0];
    for (int32_t offset : {1, 2})
      acc = buildCombineLike(b, loc, combineOp, acc,
                             shuffleXor(b, loc, acc, offset));
    results.push_back(buildCombineLike(b, loc, combineOp, acc, previous[r]));
  }
  values[init->get()] = results;
  op->erase();
  return success();
}

void RowFragmentLowering::buildCutBranch(OpBuilder &b, RowOpSlots &row,
                                         Block *branch, bool taken,
                                         size_t numResults) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(branch);
  row.pairLoads.clear();
  row.cutTaken = taken;
  // Init i's slot s is result i x slots + s.
  SmallVector<Value> yielded(numResults);
  bool paired = pairsSlots(row);
  for (int64_t s = 0; s < row.slots; s += paired ? 2 : 1)
    for (auto [k, results] : llvm::enumerate(evaluateSlots(b, row, s, paired)))
      for (auto [i, result] : llvm::enumerate(results))
        yielded[i * row.slots + s + k] = result;
  scf::YieldOp::create(b, loc, yielded);
  // The mask's compares, unused where the cut test is false.
  for (Operation &dead : llvm::make_early_inc_range(llvm::reverse(*branch)))
    if (isOpTriviallyDead(&dead))
      dead.erase();
}

/// In registers, the cut test picks one of two copies of the slots'
/// code, each with the test folded: the mask's compares and selects run
/// only on the slices that cut it. Inputs in memory (a length the mask
/// compares with) are read in the branch that uses them.
LogicalResult RowFragmentLowering::lowerCutRowOp(OpBuilder &b,
                                                 RowOpSlots &row) {
  linalg::LinalgOp op = row.op;
  for (Value v : op->getOperands())
    if (plan.promoted.contains(v))
      (void)valuesOf(b, v);
  SmallVector<Type> types;
  for (Value init : op.getDpsInits())
    types.append(row.slots, cast<MemRefType>(init.getType()).getElementType());
  auto branches = scf::IfOp::create(b, loc, types, row.cut,
                                    /*withElseRegion=*/true);
  for (bool taken : {true, false})
    buildCutBranch(b, row, taken ? branches.thenBlock() : branches.elseBlock(),
                   taken, types.size());
  row.cutTaken.reset();
  for (auto [i, init] : llvm::enumerate(op.getDpsInits())) {
    ValueRange slotValues =
        branches.getResults().slice(i * row.slots, row.slots);
    values[init] = SmallVector<Value>(slotValues.begin(), slotValues.end());
  }
  warpCodeSinceBarrier = true;
  op->erase();
  return success();
}

void RowFragmentLowering::storeSlot(OpBuilder &b, RowOpSlots &row,
                                    OpOperand &init, int64_t s, Value result,
                                    SmallVectorImpl<Value> &pending) {
  AffineMap map = row.op.getMatchingIndexingMap(&init);
  warpCodeSinceBarrier = true;
  if (!isColumnPair(row, init)) {
    storeOnce(b, init.get(), [&](OpBuilder &sb) {
      memref::StoreOp::create(sb, loc, result, init.get(),
                              applyMap(sb, loc, map, row.indices[s]));
    });
    return;
  }
  // Neighbouring columns leave as one vector store.
  pending.push_back(result);
  if (s % 2 == 0)
    return;
  Value pair = packPair(b, loc, pending[pending.size() - 2], result);
  storeOnce(b, init.get(), [&](OpBuilder &sb) {
    vector::StoreOp::create(
        sb, loc, pair, init.get(), applyMap(sb, loc, map, row.indices[s - 1]),
        /*nontemporal=*/false, pairAlignment(result.getType()));
  });
}

/// Elementwise over the slots; promoted outputs take their new values
/// after every slot read the old ones.
LogicalResult RowFragmentLowering::lowerElementwiseRowOp(OpBuilder &b,
                                                         RowOpSlots &row) {
  linalg::LinalgOp op = row.op;
  SmallVector<SmallVector<Value>> newValues(op.getNumDpsInits());
  bool paired = pairsSlots(row);
  for (int64_t s = 0; s < row.slots; s += paired ? 2 : 1) {
    for (auto [k, results] :
         llvm::enumerate(evaluateSlots(b, row, s, paired))) {
      for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
        if (plan.promoted.contains(init.get())) {
          newValues[i].push_back(results[i]);
          continue;
        }
        storeSlot(b, row, init, s + k, results[i], newValues[i]);
      }
    }
  }
  for (auto [i, init] : llvm::enumerate(op.getDpsInits()))
    if (plan.promoted.contains(init))
      values[init] = newValues[i];
  warpCodeSinceBarrier = true;
  op->erase();
  return success();
}

LogicalResult RowFragmentLowering::lowerRowOp(linalg::LinalgOp op) {
  OpBuilder b(op);
  RowOpSlots row = rowOpSlots(b, op);
  bool reduces = row.roles.col && op.getIteratorTypesArray()[*row.roles.col] ==
                                      utils::IteratorType::reduction;
  if (reduces)
    return lowerRowReduction(b, row);
  if (row.cut && llvm::all_of(op.getDpsInits(), [&](Value v) {
        return plan.promoted.contains(v);
      }))
    return lowerCutRowOp(b, row);
  return lowerElementwiseRowOp(b, row);
}

/// The row buffers that carry values across steps or out of the loop, in
/// a stable order (the buffers' order in the block).
SmallVector<Value> RowFragmentLowering::carriedBuffers(scf::ForOp loop) const {
  Block *parent = loop->getBlock();
  SmallVector<Value> carried;
  for (Value buffer : plan.promoted) {
    Operation *def = buffer.getDefiningOp();
    if (loop->isAncestor(def) || def->getBlock() != parent)
      continue;
    if (isCarried(buffer, loop))
      carried.push_back(buffer);
  }
  llvm::sort(carried, [](Value x, Value y) {
    return x.getDefiningOp()->isBeforeInBlock(y.getDefiningOp());
  });
  return carried;
}

LogicalResult RowFragmentLowering::lowerLoop(scf::ForOp loop) {
  // Staged tiles a step ahead (replaces their copies in the loop).
  std::function<void(OpBuilder &)> afterStep =
      distributor.prefetchStagedOperands(loop);
  SmallVector<Value> carried = carriedBuffers(loop);

  OpBuilder b(loop);
  SmallVector<Value> inits;
  for (Value buffer : carried)
    llvm::append_range(inits, valuesOf(b, buffer));
  auto newLoop =
      scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                         loop.getStep(), inits);
  Block *newBody = newLoop.getBody();
  Block *oldBody = loop.getBody();
  newBody->getOperations().splice(newBody->end(), oldBody->getOperations(),
                                  oldBody->begin(), std::prev(oldBody->end()));
  loop.getInductionVar().replaceAllUsesWith(newLoop.getInductionVar());
  // The carried buffers' slots, one after another in `flat`.
  auto bindCarried = [&](ValueRange flat) {
    int64_t at = 0;
    for (Value buffer : carried) {
      int64_t n = laneSlots(*rowLayoutOf(buffer.getType()));
      values[buffer] = llvm::to_vector(flat.slice(at, n));
      at += n;
    }
  };
  DenseMap<Value, SmallVector<Value>> before = values;
  bindCarried(newLoop.getRegionIterArgs());
  if (failed(lowerBlock(*newBody)))
    return failure();
  OpBuilder end = OpBuilder::atBlockEnd(newBody);
  // Every warp is done with this step's staged tiles before they are
  // overwritten (with cp.async, the next step's first barrier orders that).
  if (!distributor.asyncPrefetch)
    gpu::BarrierOp::create(end, loc);
  if (afterStep)
    afterStep(end);
  warpCodeSinceBarrier = false;
  SmallVector<Value> yielded;
  for (Value buffer : carried)
    llvm::append_range(yielded, valuesOf(end, buffer));
  scf::YieldOp::create(end, loc, yielded);

  // What the step defined stays in it; the carried buffers leave as the
  // loop's results (the others are written again before any read).
  values = std::move(before);
  bindCarried(newLoop.getResults());
  loop->erase();
  return success();
}

LogicalResult RowFragmentLowering::lowerBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (distributor.alreadyDistributed.contains(&op))
      continue;
    loc = op.getLoc();
    LogicalResult result = success();
    if (auto copy = dyn_cast<memref::CopyOp>(op))
      result = lowerCopy(copy, copy.getSource(), copy.getTarget());
    else if (auto copy = dyn_cast<linalg::CopyOp>(op))
      result = lowerCopy(copy, copy.getInputs()[0], copy.getOutputs()[0]);
    else if (auto fill = dyn_cast<linalg::FillOp>(op))
      result = lowerFill(fill);
    else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (std::optional<MmaContraction> mma = matchMmaContraction(linalgOp))
        result = lowerContraction(linalgOp, *mma);
      else
        result = lowerRowOp(linalgOp);
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      result = lowerLoop(loop);
    }
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult
BlockDistributor::distributeRowFragments(Block &block,
                                         const RowFragmentPlan &plan) {
  RowFragmentLowering lowering(*this, plan, tid);
  // After the shared-memory base, which the buffer placement put first.
  OpBuilder b = OpBuilder::atBlockBegin(&block);
  lowering.buildLaneCoordinates(b, block.getParentOp()->getLoc());
  if (failed(lowering.lowerBlock(block)))
    return failure();
  registerTiles += plan.promoted.size();
  for (Value buffer : plan.promoted) {
    Operation *alloc = buffer.getDefiningOp();
    if (!alloc->use_empty()) {
      whyNot = "a row tile kept in registers is still used in memory";
      return failure();
    }
    alloc->erase();
  }
  return success();
}
