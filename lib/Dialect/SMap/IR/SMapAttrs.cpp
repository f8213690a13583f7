//===- SMapAttrs.cpp - SpaceMapping attributes ----------------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::smap;

#define GET_ATTRDEF_CLASSES
#include "spacefusion/Dialect/SMap/IR/SMapAttrs.cpp.inc"

void SMapDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "spacefusion/Dialect/SMap/IR/SMapAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// DimAttr
//===----------------------------------------------------------------------===//

LogicalResult DimAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              StringAttr name, int64_t extent,
                              DimClass dimClass) {
  if (!name || name.getValue().empty())
    return emitError() << "dim name must not be empty";
  if (extent <= 0)
    return emitError() << "dim '" << name.getValue()
                       << "' must have a positive extent, got " << extent;
  return success();
}

//===----------------------------------------------------------------------===//
// MappingAttr
//===----------------------------------------------------------------------===//

LogicalResult MappingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  StringAttr dim, MappingKind kind,
                                  Combiner combiner) {
  if (!dim || dim.getValue().empty())
    return emitError() << "mapping dim name must not be empty";
  if (kind == MappingKind::A2O && combiner == Combiner::None)
    return emitError() << "a2o mapping along '" << dim.getValue()
                       << "' needs a combiner (add, max, min or mul)";
  if (kind != MappingKind::A2O && combiner != Combiner::None)
    return emitError() << stringifyMappingKind(kind) << " mapping along '"
                       << dim.getValue() << "' cannot have a combiner";
  return success();
}

//===----------------------------------------------------------------------===//
// SpaceAttr
//===----------------------------------------------------------------------===//

LogicalResult SpaceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                StringAttr name, ArrayAttr dims,
                                ArrayAttr operands, ArrayAttr reductions) {
  if (!name || name.getValue().empty())
    return emitError() << "space name must not be empty";
  llvm::StringSet<> seen;
  for (Attribute dim : dims) {
    auto dimName = dyn_cast<StringAttr>(dim);
    if (!dimName)
      return emitError() << "space '" << name.getValue()
                         << "' dims must be strings, got " << dim;
    if (!seen.insert(dimName.getValue()).second)
      return emitError() << "space '" << name.getValue() << "' lists dim '"
                         << dimName.getValue() << "' twice";
  }
  auto checkMapping = [&](Attribute attr) -> LogicalResult {
    auto mapping = dyn_cast<MappingAttr>(attr);
    if (!mapping)
      return emitError() << "space '" << name.getValue()
                         << "' expects #smap.mapping entries, got " << attr;
    if (!seen.contains(mapping.getDim().getValue()))
      return emitError() << "space '" << name.getValue()
                         << "' has a mapping along unknown dim '"
                         << mapping.getDim().getValue() << "'";
    return success();
  };
  for (Attribute operand : operands) {
    auto mappings = dyn_cast<ArrayAttr>(operand);
    if (!mappings)
      return emitError() << "space '" << name.getValue()
                         << "' expects one mapping list per operand";
    for (Attribute mapping : mappings) {
      if (failed(checkMapping(mapping)))
        return failure();
      if (cast<MappingAttr>(mapping).getKind() == MappingKind::A2O)
        return emitError() << "space '" << name.getValue()
                           << "' operand mappings cannot be a2o; list "
                              "reductions separately";
    }
  }
  for (Attribute reduction : reductions) {
    if (failed(checkMapping(reduction)))
      return failure();
    if (cast<MappingAttr>(reduction).getKind() != MappingKind::A2O)
      return emitError() << "space '" << name.getValue()
                         << "' reductions must be a2o mappings";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

/// Parses `[name = size, ...]`.
static ParseResult parseSliceList(AsmParser &parser,
                                  SmallVectorImpl<SliceSize> &sizes) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        std::string name;
        int64_t size;
        if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
            parser.parseInteger(size))
          return failure();
        sizes.push_back({parser.getBuilder().getStringAttr(name), size});
        return success();
      });
}

static void printSliceList(AsmPrinter &printer, ArrayRef<SliceSize> sizes) {
  printer << '[';
  llvm::interleaveComma(sizes, printer, [&](const SliceSize &s) {
    printer.printKeywordOrString(s.dim.getValue());
    printer << " = " << s.size;
  });
  printer << ']';
}

Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  SmallVector<SliceSize> spatial, temporal;
  SmallVector<int64_t> grid;
  int64_t threads, smem, regs;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword("spatial") ||
      parser.parseEqual() || parseSliceList(parser, spatial) ||
      parser.parseComma() || parser.parseKeyword("temporal") ||
      parser.parseEqual() || parseSliceList(parser, temporal) ||
      parser.parseComma() || parser.parseKeyword("grid") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() {
                                       return parser.parseInteger(
                                           grid.emplace_back());
                                     }) ||
      parser.parseComma() || parser.parseKeyword("threads") ||
      parser.parseEqual() || parser.parseInteger(threads) ||
      parser.parseComma() || parser.parseKeyword("smem") ||
      parser.parseEqual() || parser.parseInteger(smem) ||
      parser.parseComma() || parser.parseKeyword("regs") ||
      parser.parseEqual() || parser.parseInteger(regs))
    return {};
  KernelStrategy strategy = KernelStrategy::None;
  int64_t stages = 0, rowsPerBlock = 0, blocksPerSm = 0;
  if (succeeded(parser.parseOptionalComma())) {
    FailureOr<KernelStrategy> parsed;
    if (parser.parseKeyword("strategy") || parser.parseEqual() ||
        failed(parsed = FieldParser<KernelStrategy>::parse(parser)))
      return {};
    strategy = *parsed;
    while (succeeded(parser.parseOptionalComma())) {
      StringRef key;
      SMLoc keyLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&key) || parser.parseEqual())
        return {};
      int64_t *field = key == "stages"           ? &stages
                       : key == "rows_per_block" ? &rowsPerBlock
                       : key == "blocks_per_sm"  ? &blocksPerSm
                                                 : nullptr;
      if (!field) {
        parser.emitError(keyLoc, "expected 'stages', 'rows_per_block' or "
                                 "'blocks_per_sm'");
        return {};
      }
      if (parser.parseInteger(*field))
        return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<ScheduleAttr>(
      loc, parser.getContext(), spatial, temporal, grid, threads, smem, regs,
      strategy, stages, rowsPerBlock, blocksPerSm);
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  printer << "<spatial = ";
  printSliceList(printer, getSpatial());
  printer << ", temporal = ";
  printSliceList(printer, getTemporal());
  printer << ", grid = [";
  llvm::interleaveComma(getGrid(), printer);
  printer << "], threads = " << getThreads() << ", smem = " << getSmemBytes()
          << ", regs = " << getRegsPerThread();
  if (getStrategy() != KernelStrategy::None)
    printer << ", strategy = " << stringifyKernelStrategy(getStrategy());
  if (getStages())
    printer << ", stages = " << getStages();
  if (getRowsPerBlock())
    printer << ", rows_per_block = " << getRowsPerBlock();
  if (getBlocksPerSm())
    printer << ", blocks_per_sm = " << getBlocksPerSm();
  printer << ">";
}

/// Rows per block belong to the `rows` strategy, divide its rows and, above
/// one, come with a warp per row.
static LogicalResult
verifyRowsPerBlock(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> grid, int64_t threads,
                   KernelStrategy strategy, int64_t rowsPerBlock) {
  if (strategy != KernelStrategy::Rows) {
    if (rowsPerBlock != 0)
      return emitError() << "schedule rows_per_block is only for strategy "
                            "rows, got it with "
                         << stringifyKernelStrategy(strategy);
    return success();
  }
  int64_t rows = 1;
  for (int64_t g : grid)
    rows *= g;
  if (rowsPerBlock <= 0 || rows % rowsPerBlock != 0)
    return emitError() << "schedule rows_per_block must be positive and "
                          "divide the "
                       << rows << " rows, got " << rowsPerBlock;
  if (rowsPerBlock > 1 && threads != 32 * rowsPerBlock)
    return emitError() << "schedule rows_per_block = " << rowsPerBlock
                       << " needs a warp per row (threads = "
                       << 32 * rowsPerBlock << "), got threads = " << threads;
  return success();
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<SliceSize> spatial,
                                   ArrayRef<SliceSize> temporal,
                                   ArrayRef<int64_t> grid, int64_t threads,
                                   int64_t smemBytes, int64_t regsPerThread,
                                   KernelStrategy strategy, int64_t stages,
                                   int64_t rowsPerBlock, int64_t blocksPerSm) {
  llvm::StringSet<> seen;
  for (const SliceSize &s : llvm::concat<const SliceSize>(spatial, temporal)) {
    if (s.size <= 0)
      return emitError() << "schedule slice size of '" << s.dim.getValue()
                         << "' must be positive, got " << s.size;
    if (!seen.insert(s.dim.getValue()).second)
      return emitError() << "schedule slices dim '" << s.dim.getValue()
                         << "' more than once";
  }
  if (grid.size() != spatial.size())
    return emitError() << "schedule grid has " << grid.size()
                       << " entries but " << spatial.size()
                       << " dims are spatially sliced";
  if (llvm::any_of(grid, [](int64_t g) { return g <= 0; }))
    return emitError() << "schedule grid entries must be positive";
  if (threads <= 0)
    return emitError() << "schedule threads must be positive, got " << threads;
  if (smemBytes < 0 || regsPerThread < 0)
    return emitError() << "schedule resource estimates must not be negative";
  bool wgmma = strategy == KernelStrategy::WgmmaTma ||
               strategy == KernelStrategy::WgmmaTmaWarpSpecialized;
  bool rows = strategy == KernelStrategy::RowFragments ||
              strategy == KernelStrategy::RowFragmentsWgmma;
  bool sharedMemory = strategy == KernelStrategy::Simt ||
                      strategy == KernelStrategy::MmaSync;
  if (wgmma          ? stages < 2 || stages > 4
      : rows         ? stages < 1 || stages > 3
      : sharedMemory ? stages < 0 || stages > 3
                     : stages != 0)
    return emitError() << "schedule stages must be 2 to 4 for a wgmma "
                          "strategy, 1 to 3 for a row-fragment one, at most "
                          "3 for simt and mma_sync and absent otherwise, got "
                       << stages << " for "
                       << stringifyKernelStrategy(strategy);
  if (blocksPerSm < 0 ||
      (blocksPerSm > 0 &&
       (strategy == KernelStrategy::None || strategy == KernelStrategy::Loops ||
        regsPerThread == 0)))
    return emitError() << "schedule blocks_per_sm must be 0, or positive "
                          "with a GPU strategy and the registers it gives "
                          "each thread, got "
                       << blocksPerSm << " with "
                       << stringifyKernelStrategy(strategy)
                       << " and regs = " << regsPerThread;
  return verifyRowsPerBlock(emitError, grid, threads, strategy, rowsPerBlock);
}

static std::optional<int64_t> lookupSize(ArrayRef<SliceSize> sizes,
                                         StringRef dim) {
  for (const SliceSize &s : sizes)
    if (s.dim.getValue() == dim)
      return s.size;
  return std::nullopt;
}

std::optional<int64_t> ScheduleAttr::getSpatialSize(StringRef dim) const {
  return lookupSize(getSpatial(), dim);
}

std::optional<int64_t> ScheduleAttr::getTemporalSize(StringRef dim) const {
  return lookupSize(getTemporal(), dim);
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                   int64_t smemPerBlock, int64_t regsPerThread,
                   int64_t regsPerSm, int64_t smCount, int64_t maxThreads,
                   int64_t bandwidthGbps, int64_t f16Gflops, int64_t f32Gflops,
                   int64_t arch, ArrayAttr features, int64_t smemPerSm,
                   int64_t l2Bytes, int64_t mmaSyncGflops, int64_t l2Gbps) {
  if (name.empty())
    return emitError() << "target name must not be empty";
  std::pair<StringRef, int64_t> quantities[] = {
      {"smem_per_block", smemPerBlock}, {"regs_per_thread", regsPerThread},
      {"regs_per_sm", regsPerSm},       {"sm_count", smCount},
      {"max_threads", maxThreads},      {"bandwidth_gbps", bandwidthGbps},
      {"f16_gflops", f16Gflops},        {"f32_gflops", f32Gflops}};
  for (auto [key, value] : quantities)
    if (value <= 0)
      return emitError() << "target '" << name << "' " << key
                         << " must be positive, got " << value;
  std::pair<StringRef, int64_t> optional[] = {
      {"arch", arch},
      {"smem_per_sm", smemPerSm},
      {"l2_bytes", l2Bytes},
      {"mma_sync_gflops", mmaSyncGflops},
      {"l2_gbps", l2Gbps}};
  for (auto [key, value] : optional)
    if (value < 0)
      return emitError() << "target '" << name << "' " << key
                         << " must not be negative, got " << value;
  if (arch > 0 && maxThreads == 1)
    return emitError() << "target '" << name << "' is a GPU (arch " << arch
                       << ") and needs max_threads > 1";
  if (arch == 0 && features && !features.empty())
    return emitError() << "target '" << name
                       << "' is a CPU (arch 0) and has no GPU features";
  llvm::StringSet<> seen;
  for (Attribute feature : features ? features.getValue() : ArrayRef<Attribute>{}) {
    auto str = dyn_cast<StringAttr>(feature);
    if (!str || !symbolizeTargetFeature(str.getValue()))
      return emitError() << "target '" << name << "' has unknown feature "
                         << feature << " (known: mma_sync, wgmma, tma, "
                         << "setmaxnreg, cp_async, clusters, cache_hints)";
    if (!seen.insert(str.getValue()).second)
      return emitError() << "target '" << name << "' lists feature " << str
                         << " twice";
  }
  return success();
}

bool TargetAttr::hasFeature(TargetFeature feature) const {
  if (!getFeatures())
    return false;
  StringRef wanted = stringifyTargetFeature(feature);
  return llvm::any_of(getFeatures(), [&](Attribute a) {
    return cast<StringAttr>(a).getValue() == wanted;
  });
}

//===----------------------------------------------------------------------===//
// KernelAttr
//===----------------------------------------------------------------------===//

ArrayRef<StringRef> KernelAttr::getPartKeys() {
  // clang-format off
  static const StringRef keys[] = {
      "tile_m",         "tile_n",         "tile_k",         "stages",
      "consumers",      "producer_warps", "regs_entry",     "regs_producer",
      "regs_consumer",  "wgmma",          "mma_sync",       "ldmatrix",
      "warp_rows",      "row_replicas",   "register_tiles", "register_acc",
      "prefetch",       "cp_async",       "fma",            "fma_lanes",
      "rows",           "rows_per_block", "vector",         "chunks",
      "ragged",         "tiles",          "blocks_per_sm"};
  // clang-format on
  return keys;
}

std::string KernelAttr::describe() const {
  std::string text = "strategy=" + stringifyKernelStrategy(getStrategy()).str() +
                     " blocks=" + std::to_string(getBlocks()) +
                     " threads=" + std::to_string(getThreads()) +
                     " smem=" + std::to_string(getSmem());
  if (getScratch())
    text += " scratch=" + std::to_string(getScratch());
  for (StringRef key : getPartKeys())
    if (int64_t value = getPart(key))
      text += " " + key.str() + "=" + std::to_string(value);
  return text;
}

int64_t KernelAttr::getPart(StringRef key) const {
  if (!getParts())
    return 0;
  auto value = getParts().getAs<IntegerAttr>(key);
  return value ? value.getInt() : 0;
}

/// The fields of a kernel record's prediction.
static constexpr StringLiteral kPredictedFields[] = {
    "strategy", "blocks", "threads", "smem", "regs", "stages"};

DictionaryAttr KernelAttr::getPrediction(ScheduleAttr schedule) {
  Builder b(schedule.getContext());
  int64_t blocks = 1;
  for (int64_t g : schedule.getGrid())
    blocks *= g;
  if (schedule.getRowsPerBlock() > 0)
    blocks /= schedule.getRowsPerBlock();
  return b.getDictionaryAttr(
      {b.getNamedAttr("strategy", b.getStringAttr(stringifyKernelStrategy(
                                      schedule.getStrategy()))),
       b.getNamedAttr("blocks", b.getI64IntegerAttr(blocks)),
       b.getNamedAttr("threads", b.getI64IntegerAttr(schedule.getThreads())),
       b.getNamedAttr("smem", b.getI64IntegerAttr(schedule.getSmemBytes())),
       b.getNamedAttr("regs", b.getI64IntegerAttr(schedule.getRegsPerThread())),
       b.getNamedAttr("stages", b.getI64IntegerAttr(schedule.getStages()))});
}

/// Checks a kernel record's prediction (getPrediction's form).
static LogicalResult
verifyPrediction(function_ref<InFlightDiagnostic()> emitError,
                 DictionaryAttr predicted) {
  for (NamedAttribute field : predicted) {
    StringRef name = field.getName().getValue();
    if (!llvm::is_contained(kPredictedFields, name))
      return emitError() << "a kernel's prediction has no field '" << name
                         << "'";
    if (name == "strategy") {
      auto strategy = dyn_cast<StringAttr>(field.getValue());
      if (!strategy || !symbolizeKernelStrategy(strategy.getValue()))
        return emitError()
               << "a kernel's predicted strategy must name a strategy";
      continue;
    }
    auto value = dyn_cast<IntegerAttr>(field.getValue());
    if (!value || value.getInt() < 0)
      return emitError() << "a kernel's predicted '" << name
                         << "' must be a non-negative integer";
  }
  return success();
}

LogicalResult KernelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 KernelStrategy strategy, int64_t blocks,
                                 int64_t threads, int64_t smem, int64_t scratch,
                                 DictionaryAttr parts,
                                 DictionaryAttr predicted) {
  if (predicted && failed(verifyPrediction(emitError, predicted)))
    return failure();
  if (strategy == KernelStrategy::None)
    return emitError() << "a kernel's strategy must be a GPU strategy, got "
                       << stringifyKernelStrategy(strategy);
  // A loop kernel runs an op outside every graph: no schedule predicted it.
  if (strategy == KernelStrategy::Loops && (predicted || smem || scratch))
    return emitError() << "a loops kernel (an op outside every graph) has no "
                          "prediction, shared memory or scratch";
  if (blocks <= 0 || threads <= 0)
    return emitError() << "a kernel needs positive blocks and threads, got "
                       << blocks << " and " << threads;
  if (smem < 0 || scratch < 0)
    return emitError() << "a kernel's shared memory and scratch must not be "
                          "negative";
  for (NamedAttribute part : parts ? parts.getValue()
                                   : ArrayRef<NamedAttribute>{}) {
    if (!llvm::is_contained(getPartKeys(), part.getName().getValue()))
      return emitError() << "unknown kernel part '" << part.getName().getValue()
                         << "'";
    auto value = dyn_cast<IntegerAttr>(part.getValue());
    if (!value || value.getInt() < 0)
      return emitError() << "kernel part '" << part.getName().getValue()
                         << "' must be a non-negative integer";
  }
  return success();
}

std::string mlir::smap::getKernelName(StringRef host,
                                      std::optional<size_t> index,
                                      StringRef what, Type elementType) {
  std::string name = host.str();
  llvm::raw_string_ostream os(name);
  if (index)
    os << "_" << *index;
  os << "_" << what;
  if (elementType)
    os << "_" << elementType;
  return name;
}

std::string mlir::smap::getKernelTag(ScheduleAttr schedule) {
  std::string tag = stringifyKernelStrategy(schedule.getStrategy()).str();
  std::string tiles;
  for (ArrayRef<SliceSize> sizes :
       {schedule.getSpatial(), schedule.getTemporal()})
    for (const SliceSize &size : sizes)
      if (size.size > 1)
        tiles += (tiles.empty() ? "" : "x") + std::to_string(size.size);
  return tiles.empty() ? tag : tag + "_" + tiles;
}

llvm::json::Object KernelAttr::toJSON() const {
  llvm::json::Object parts;
  for (StringRef key : getPartKeys())
    if (int64_t value = getPart(key))
      parts[key] = value;
  llvm::json::Object record{
      {"strategy", stringifyKernelStrategy(getStrategy())},
      {"blocks", getBlocks()},
      {"threads", getThreads()},
      {"smem", getSmem()},
      {"scratch", getScratch()},
      {"parts", std::move(parts)}};
  if (getPredicted()) {
    llvm::json::Object predicted;
    for (NamedAttribute field : getPredicted()) {
      if (auto text = dyn_cast<StringAttr>(field.getValue()))
        predicted[field.getName().getValue()] = text.getValue();
      else
        predicted[field.getName().getValue()] =
            cast<IntegerAttr>(field.getValue()).getInt();
    }
    record["predicted"] = std::move(predicted);
  }
  return record;
}

DictionaryAttr KernelAttr::toDictionary() const {
  Builder b(getContext());
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("strategy",
                     b.getStringAttr(stringifyKernelStrategy(getStrategy()))),
      b.getNamedAttr("blocks", b.getI64IntegerAttr(getBlocks())),
      b.getNamedAttr("threads", b.getI64IntegerAttr(getThreads())),
      b.getNamedAttr("smem", b.getI64IntegerAttr(getSmem()))};
  if (getScratch())
    fields.push_back(
        b.getNamedAttr("scratch", b.getI64IntegerAttr(getScratch())));
  if (getParts())
    fields.push_back(b.getNamedAttr("parts", getParts()));
  if (getPredicted())
    fields.push_back(b.getNamedAttr("predicted", getPredicted()));
  return b.getDictionaryAttr(fields);
}

FailureOr<KernelAttr>
KernelAttr::fromDictionary(DictionaryAttr dict,
                           function_ref<InFlightDiagnostic()> emitError) {
  for (NamedAttribute field : dict)
    if (!llvm::is_contained({"strategy", "blocks", "threads", "smem", "scratch",
                             "parts", "predicted"},
                            field.getName().getValue())) {
      emitError() << "a kernel record has no field '"
                  << field.getName().getValue() << "'";
      return failure();
    }
  auto strategyName = dict.getAs<StringAttr>("strategy");
  std::optional<KernelStrategy> strategy =
      strategyName ? symbolizeKernelStrategy(strategyName.getValue())
                   : std::nullopt;
  if (!strategy) {
    emitError() << "a kernel record needs a known 'strategy' string";
    return failure();
  }
  auto integer = [&](StringRef key, bool required) -> std::optional<int64_t> {
    auto value = dict.getAs<IntegerAttr>(key);
    if (value)
      return value.getInt();
    if (!required)
      return 0;
    emitError() << "a kernel record needs an integer '" << key << "'";
    return std::nullopt;
  };
  std::optional<int64_t> blocks = integer("blocks", true),
                         threads = integer("threads", true),
                         smem = integer("smem", true),
                         scratch = integer("scratch", false);
  if (!blocks || !threads || !smem || !scratch)
    return failure();
  Attribute parts = dict.get("parts");
  if (parts && !isa<DictionaryAttr>(parts)) {
    emitError() << "a kernel record's 'parts' must be a dictionary";
    return failure();
  }
  auto partsDict = dyn_cast_or_null<DictionaryAttr>(parts);
  Attribute predicted = dict.get("predicted");
  if (predicted && !isa<DictionaryAttr>(predicted)) {
    emitError() << "a kernel record's 'predicted' must be a dictionary";
    return failure();
  }
  auto predictedDict = dyn_cast_or_null<DictionaryAttr>(predicted);
  if (failed(verify(emitError, *strategy, *blocks, *threads, *smem, *scratch,
                    partsDict, predictedDict)))
    return failure();
  return get(dict.getContext(), *strategy, *blocks, *threads, *smem, *scratch,
             partsDict, predictedDict);
}
