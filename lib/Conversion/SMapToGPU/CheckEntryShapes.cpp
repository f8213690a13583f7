//===- CheckEntryShapes.cpp - Check memref sizes at entry points ----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPCHECKENTRYSHAPESPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

static constexpr llvm::StringLiteral kMismatchFn =
    "spacefusionRuntimeArgumentMismatch";

/// The memref type a static argument is taken as: the same element type and
/// rank with every size dynamic (identity layout, so the same descriptor).
static MemRefType dynamicArgType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() == 0 || !memref.hasStaticShape() ||
      !memref.getLayout().isIdentity())
    return {};
  SmallVector<int64_t> sizes(memref.getRank(), ShapedType::kDynamic);
  return MemRefType::get(sizes, memref.getElementType(), AffineMap(),
                         memref.getMemorySpace());
}

/// A null-terminated global holding `text`, created once per module.
static Value functionNameAddress(OpBuilder &builder, ModuleOp module,
                                 Location loc, StringRef text) {
  std::string symbol = ("__smap_entry_name_" + text).str();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(symbol);
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    std::string value = text.str();
    value.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), value.size());
    global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, symbol,
                                    builder.getStringAttr(value));
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

namespace {
/// A size of a static argument the entry block compares: `matches` is
/// `actual` == `expected`, dim `dim` of argument `argument`.
struct SizeCheck {
  Value matches, actual;
  int64_t argument, dim, expected;
};
} // namespace

/// The public definitions of `module` that take a static memref argument.
static SmallVector<func::FuncOp> entriesToCheck(ModuleOp module) {
  SmallVector<func::FuncOp> entries;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal() &&
        llvm::any_of(fn.getArgumentTypes(),
                     [](Type t) { return bool(dynamicArgType(t)); }))
      entries.push_back(fn);
  return entries;
}

/// Declares the runtime's mismatch report in `module` unless it is there.
static void declareMismatchFn(OpBuilder &builder, ModuleOp module) {
  if (module.lookupSymbol<func::FuncOp>(kMismatchFn))
    return;
  auto i64 = builder.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  auto decl = func::FuncOp::create(
      builder, module.getLoc(), kMismatchFn,
      builder.getFunctionType({ptr, i64, i64, i64, i64}, {}));
  decl.setPrivate();
}

/// Fills `entry` (on the `newTypes` arguments): compares every size of the
/// static `argTypes`, then branches to `body` on the arguments cast back to
/// them, or to `mismatch`. Returns the comparisons, in order.
static SmallVector<SizeCheck> buildSizeChecks(OpBuilder &builder, Location loc,
                                              Block *entry, Block *body,
                                              Block *mismatch,
                                              ArrayRef<Type> argTypes,
                                              ArrayRef<Type> newTypes) {
  builder.setInsertionPointToStart(entry);
  Value ok = arith::ConstantIntOp::create(builder, loc, 1, 1);
  SmallVector<SizeCheck> checks;
  SmallVector<Value> forwarded;
  for (auto [index, type] : llvm::enumerate(argTypes)) {
    Value arg = entry->getArgument(index);
    if (newTypes[index] == type) {
      forwarded.push_back(arg);
      continue;
    }
    auto memref = cast<MemRefType>(type);
    for (int64_t dim = 0; dim < memref.getRank(); ++dim) {
      Value actual = memref::DimOp::create(builder, loc, arg, dim);
      Value expected =
          arith::ConstantIndexOp::create(builder, loc, memref.getDimSize(dim));
      Value same = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         actual, expected);
      checks.push_back({same, actual, static_cast<int64_t>(index), dim,
                        memref.getDimSize(dim)});
      ok = arith::AndIOp::create(builder, loc, ok, same);
    }
    forwarded.push_back(memref::CastOp::create(builder, loc, type, arg));
  }
  cf::CondBranchOp::create(builder, loc, ok, body, forwarded, mismatch,
                           ValueRange{});
  return checks;
}

/// Fills `mismatch` (and blocks before `body`): reports the first size of
/// `checks` that differs, then returns from `fn`.
static void buildMismatchReports(OpBuilder &builder, ModuleOp module,
                                 func::FuncOp fn, Block *body, Block *mismatch,
                                 ArrayRef<SizeCheck> checks) {
  Location loc = fn.getLoc();
  auto i64 = builder.getI64Type();
  builder.setInsertionPointToStart(mismatch);
  Value name = functionNameAddress(builder, module, loc, fn.getSymName());
  Block *current = mismatch;
  for (const SizeCheck &check : checks) {
    Block *report = builder.createBlock(body);
    Block *next = builder.createBlock(body);
    builder.setInsertionPointToEnd(current);
    cf::CondBranchOp::create(builder, loc, check.matches, next, report);
    builder.setInsertionPointToStart(report);
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(builder, loc, v, 64);
    };
    Value actual = arith::IndexCastOp::create(builder, loc, i64, check.actual);
    func::CallOp::create(builder, loc, kMismatchFn, TypeRange{},
                         ValueRange{name, constant(check.argument),
                                    constant(check.dim),
                                    constant(check.expected), actual});
    func::ReturnOp::create(builder, loc);
    current = next;
  }
  builder.setInsertionPointToEnd(current);
  func::ReturnOp::create(builder, loc);
}

/// Makes `fn` take its static memref arguments with dynamic sizes and
/// check them on entry against the static ones.
static void checkEntryShapes(OpBuilder &builder, ModuleOp module,
                             func::FuncOp fn) {
  Location loc = fn.getLoc();
  Block *body = &fn.getBody().front();
  SmallVector<Type> argTypes(fn.getArgumentTypes());
  SmallVector<Type> newTypes;
  for (Type t : argTypes) {
    MemRefType dynamic = dynamicArgType(t);
    newTypes.push_back(dynamic ? Type(dynamic) : t);
  }
  SmallVector<Location> locs(argTypes.size(), loc);

  // entry: compare every size; mismatch: report and return; body: the
  // original entry block, on the arguments cast back to static types.
  Block *entry = builder.createBlock(body, newTypes, locs);
  Block *mismatch = builder.createBlock(body);
  SmallVector<SizeCheck> checks =
      buildSizeChecks(builder, loc, entry, body, mismatch, argTypes, newTypes);
  // Reports the first size that differs.
  buildMismatchReports(builder, module, fn, body, mismatch, checks);

  fn.setFunctionType(builder.getFunctionType(newTypes, fn.getResultTypes()));
  fn->setAttr(smap::SMapDialect::CheckedEntryAttrHelper::getNameStr(),
              builder.getUnitAttr());
}

namespace {
struct CheckEntryShapesPass
    : public smap::impl::SMapCheckEntryShapesPassBase<CheckEntryShapesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder builder(module.getContext());
    SmallVector<func::FuncOp> entries = entriesToCheck(module);
    if (entries.empty())
      return;
    declareMismatchFn(builder, module);
    for (func::FuncOp fn : entries)
      checkEntryShapes(builder, module, fn);
  }
};
} // namespace
