//===- SpaceFusion.cpp - SpaceFusion C API --------------------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion-c/SpaceFusion.h"

#include "spacefusion/Dialect/SMap/IR/SMap.h"
#include "spacefusion/InitAll.h"
#include "spacefusion/Version.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(SMap, smap, mlir::smap::SMapDialect)

const char *spacefusionGetVersion(void) { return SPACEFUSION_VERSION_STRING; }

void spacefusionRegisterDialects(MlirDialectRegistry registry) {
  spacefusion::registerAllDialects(*unwrap(registry));
}

void spacefusionRegisterAllPasses(void) { spacefusion::registerAllPasses(); }

using PipelineOptions = spacefusion::SpaceFusionPipelineOptions;

/// `options` parsed, or null with the option parser's message in `error`.
static std::unique_ptr<PipelineOptions> parseOptions(StringRef options,
                                                     std::string &error) {
  auto parsed = std::make_unique<PipelineOptions>();
  llvm::raw_string_ostream os(error);
  if (failed(parsed->parseFromString(options, os)))
    return nullptr;
  return parsed;
}

static std::string describeParseError(StringRef options, StringRef error) {
  return ("spacefusion: cannot parse pipeline options '" + options + "': " +
          StringRef(error).trim())
      .str();
}

MlirLogicalResult spacefusionAddPipeline(MlirOpPassManager pm,
                                         MlirStringRef options,
                                         MlirStringCallback errorCallback,
                                         void *userData) {
  std::string error;
  std::unique_ptr<PipelineOptions> parsed =
      parseOptions(unwrap(options), error);
  if (!parsed) {
    if (errorCallback)
      errorCallback(wrap(StringRef(describeParseError(unwrap(options), error))),
                    userData);
    return mlirLogicalResultFailure();
  }
  spacefusion::buildSpaceFusionPipeline(*unwrap(pm), *parsed);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult spacefusionRunPipeline(MlirModule module,
                                         MlirStringRef options) {
  ModuleOp op = unwrap(module);
  std::string error;
  std::unique_ptr<PipelineOptions> parsed =
      parseOptions(unwrap(options), error);
  if (!parsed) {
    op.emitError(describeParseError(unwrap(options), error));
    return mlirLogicalResultFailure();
  }
  PassManager pm(op.getContext(), ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  spacefusion::buildSpaceFusionPipeline(pm, *parsed);
  return wrap(pm.run(op));
}

//===----------------------------------------------------------------------===//
// smap attributes
//===----------------------------------------------------------------------===//

using smap::DimAttr;
using smap::KernelAttr;
using smap::ScheduleAttr;

bool spacefusionAttributeIsADim(MlirAttribute attr) {
  return isa<DimAttr>(unwrap(attr));
}

MlirStringRef spacefusionDimAttrGetName(MlirAttribute attr) {
  return wrap(cast<DimAttr>(unwrap(attr)).getName().getValue());
}

int64_t spacefusionDimAttrGetExtent(MlirAttribute attr) {
  return cast<DimAttr>(unwrap(attr)).getExtent();
}

MlirStringRef spacefusionDimAttrGetClass(MlirAttribute attr) {
  return wrap(
      smap::stringifyDimClass(cast<DimAttr>(unwrap(attr)).getDimClass()));
}

bool spacefusionAttributeIsASchedule(MlirAttribute attr) {
  return isa<ScheduleAttr>(unwrap(attr));
}

static ScheduleAttr unwrapSchedule(MlirAttribute attr) {
  return cast<ScheduleAttr>(unwrap(attr));
}

MlirStringRef spacefusionScheduleAttrGetStrategy(MlirAttribute attr) {
  return wrap(
      smap::stringifyKernelStrategy(unwrapSchedule(attr).getStrategy()));
}

int64_t spacefusionScheduleAttrGetThreads(MlirAttribute attr) {
  return unwrapSchedule(attr).getThreads();
}

int64_t spacefusionScheduleAttrGetSmem(MlirAttribute attr) {
  return unwrapSchedule(attr).getSmemBytes();
}

int64_t spacefusionScheduleAttrGetRegisters(MlirAttribute attr) {
  return unwrapSchedule(attr).getRegsPerThread();
}

int64_t spacefusionScheduleAttrGetStages(MlirAttribute attr) {
  return unwrapSchedule(attr).getStages();
}

int64_t spacefusionScheduleAttrGetRowsPerBlock(MlirAttribute attr) {
  return unwrapSchedule(attr).getRowsPerBlock();
}

static ArrayRef<smap::SliceSize> getSlices(MlirAttribute attr, bool temporal) {
  ScheduleAttr schedule = unwrapSchedule(attr);
  return temporal ? schedule.getTemporal() : schedule.getSpatial();
}

intptr_t spacefusionScheduleAttrGetNumSlices(MlirAttribute attr,
                                             bool temporal) {
  return getSlices(attr, temporal).size();
}

MlirStringRef spacefusionScheduleAttrGetSliceDim(MlirAttribute attr,
                                                 bool temporal, intptr_t pos) {
  return wrap(getSlices(attr, temporal)[pos].dim.getValue());
}

int64_t spacefusionScheduleAttrGetSliceSize(MlirAttribute attr, bool temporal,
                                            intptr_t pos) {
  return getSlices(attr, temporal)[pos].size;
}

intptr_t spacefusionScheduleAttrGetGridRank(MlirAttribute attr) {
  return unwrapSchedule(attr).getGrid().size();
}

int64_t spacefusionScheduleAttrGetGrid(MlirAttribute attr, intptr_t pos) {
  return unwrapSchedule(attr).getGrid()[pos];
}

bool spacefusionAttributeIsAKernel(MlirAttribute attr) {
  return isa<KernelAttr>(unwrap(attr));
}

static KernelAttr unwrapKernel(MlirAttribute attr) {
  return cast<KernelAttr>(unwrap(attr));
}

MlirStringRef spacefusionKernelAttrGetStrategy(MlirAttribute attr) {
  return wrap(smap::stringifyKernelStrategy(unwrapKernel(attr).getStrategy()));
}

int64_t spacefusionKernelAttrGetBlocks(MlirAttribute attr) {
  return unwrapKernel(attr).getBlocks();
}

int64_t spacefusionKernelAttrGetThreads(MlirAttribute attr) {
  return unwrapKernel(attr).getThreads();
}

int64_t spacefusionKernelAttrGetSmem(MlirAttribute attr) {
  return unwrapKernel(attr).getSmem();
}

int64_t spacefusionKernelAttrGetScratch(MlirAttribute attr) {
  return unwrapKernel(attr).getScratch();
}

int64_t spacefusionKernelAttrGetPart(MlirAttribute attr, MlirStringRef key) {
  return unwrapKernel(attr).getPart(unwrap(key));
}

void spacefusionKernelAttrPrintJSON(MlirAttribute attr,
                                    MlirStringCallback callback,
                                    void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << llvm::json::Value(unwrapKernel(attr).toJSON());
  stream.flush();
}

//===----------------------------------------------------------------------===//
// Remarks
//===----------------------------------------------------------------------===//

namespace {
/// Hands each remark to a C callback, its strings as MlirStringRefs.
class CallbackRemarkStreamer : public remark::detail::MLIRRemarkStreamerBase {
public:
  CallbackRemarkStreamer(SpacefusionRemarkCallback callback, void *userData)
      : callback(callback), userData(userData) {}

  void streamOptimizationRemark(const remark::detail::Remark &remark) override {
    std::string message = remark.getMsg();
    SmallVector<MlirStringRef> keys, values;
    for (const remark::detail::Remark::Arg &arg : remark.getArgs()) {
      keys.push_back(wrap(StringRef(arg.key)));
      values.push_back(wrap(StringRef(arg.val)));
    }
    SpacefusionRemark record = {wrap(remark.getRemarkTypeString()),
                                wrap(remark.getCombinedCategoryName()),
                                wrap(remark.getRemarkName()),
                                wrap(remark.getFunction()),
                                wrap(StringRef(message)),
                                wrap(remark.getLocation()),
                                static_cast<intptr_t>(keys.size()),
                                keys.data(),
                                values.data()};
    callback(&record, userData);
  }

private:
  SpacefusionRemarkCallback callback;
  void *userData;
};
} // namespace

MlirLogicalResult spacefusionEnableRemarks(MlirContext ctx,
                                           MlirStringRef categoryFilter,
                                           SpacefusionRemarkCallback callback,
                                           void *userData) {
  MLIRContext *context = unwrap(ctx);
  if (!callback) {
    emitError(UnknownLoc::get(context))
        << "spacefusion: spacefusionEnableRemarks needs a callback";
    return mlirLogicalResultFailure();
  }
  // Anchored here, so the filter matches the whole category whatever the
  // remark engine does with it.
  std::string filter = "^(" + unwrap(categoryFilter).str() + ")$";
  std::string regexError;
  if (!llvm::Regex(filter).isValid(regexError)) {
    emitError(UnknownLoc::get(context))
        << "spacefusion: invalid remark category filter '"
        << unwrap(categoryFilter) << "': " << regexError;
    return mlirLogicalResultFailure();
  }
  if (context->getRemarkEngine()) {
    emitError(UnknownLoc::get(context))
        << "spacefusion: the context already has a remark engine";
    return mlirLogicalResultFailure();
  }
  // Each kind is enabled by its own filter; the engine anchors them.
  remark::RemarkCategories categories;
  categories.passed = categories.missed = categories.analysis =
      categories.failed = filter;
  return wrap(remark::enableOptimizationRemarks(
      *context, std::make_unique<CallbackRemarkStreamer>(callback, userData),
      std::make_unique<remark::RemarkEmittingPolicyAll>(), categories));
}
