//===- DumpKernels.cpp - Each GPU kernel's IR, code and record as files ---===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// One kernel at a time, as a compiler engineer looks at it: its sliced smap
// IR (stage=smap), its GPU IR and the record of what was predicted and built
// (stage=gpu), then its code (stage=binary), in files named after the
// kernel.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/IR/SMap.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPDUMPKERNELSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

/// "file:line:col" of the first file location in `loc`, or its printed form.
static std::string describeLocation(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn())
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

/// The schedule as JSON: its printed form and the fields tools read.
static llvm::json::Object scheduleToJSON(ScheduleAttr schedule) {
  auto sizes = [](ArrayRef<SliceSize> list) {
    llvm::json::Object object;
    for (const SliceSize &size : list)
      object[size.dim.getValue()] = size.size;
    return object;
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  Attribute(schedule).print(os);
  return llvm::json::Object{
      {"attribute", text},
      {"strategy", stringifyKernelStrategy(schedule.getStrategy())},
      {"spatial", sizes(schedule.getSpatial())},
      {"temporal", sizes(schedule.getTemporal())},
      {"threads", schedule.getThreads()},
      {"smem", schedule.getSmemBytes()},
      {"regs", schedule.getRegsPerThread()},
      {"stages", schedule.getStages()}};
}

namespace {
struct DumpKernelsPass
    : public smap::impl::SMapDumpKernelsPassBase<DumpKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (directory.empty()) {
      emitError(getOperation().getLoc(),
                "smap-dump-kernels: no directory (dir=...)");
      return signalPassFailure();
    }
    if (std::error_code error = llvm::sys::fs::create_directories(directory)) {
      emitError(getOperation().getLoc(), "smap-dump-kernels: cannot create '")
          << directory << "': " << error.message();
      return signalPassFailure();
    }
    LogicalResult written = failure();
    if (stage == "smap")
      written = dumpGraphs();
    else if (stage == "gpu")
      written = dumpGPU();
    else if (stage == "llvm")
      written = dumpLLVM();
    else if (stage == "binary")
      written = dumpBinaries();
    else
      emitError(getOperation().getLoc(), "smap-dump-kernels: unknown stage '")
          << stage << "' (smap, gpu, llvm or binary)";
    if (failed(written))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

private:
  LogicalResult write(StringRef name, StringRef extension,
                      function_ref<void(raw_ostream &)> print);
  LogicalResult writeRecord(StringRef name, func::FuncOp host, Location loc,
                            KernelAttr kernel, ScheduleAttr schedule);
  LogicalResult dumpLaunch(func::FuncOp host, gpu::LaunchOp launch);
  /// An outlined launch, the `position`-th kernel `host` launches (its
  /// record's position in `host`'s `smap.kernels`).
  LogicalResult dumpOutlined(func::FuncOp host, gpu::LaunchFuncOp launch,
                             unsigned position);
  LogicalResult dumpGraphs();
  LogicalResult dumpLLVM();
  LogicalResult dumpGPU();
  LogicalResult dumpBinaries();
};
} // namespace

LogicalResult DumpKernelsPass::write(StringRef name, StringRef extension,
                                     function_ref<void(raw_ostream &)> print) {
  SmallString<128> path(directory);
  llvm::sys::path::append(path, name + extension);
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error)
    return emitError(getOperation().getLoc(),
                     "smap-dump-kernels: cannot write '")
           << path << "': " << error.message();
  print(os);
  return success();
}

LogicalResult DumpKernelsPass::writeRecord(StringRef name, func::FuncOp host,
                                           Location loc, KernelAttr kernel,
                                           ScheduleAttr schedule) {
  llvm::json::Object record{{"kernel", name},
                            {"function", host.getName()},
                            {"location", describeLocation(loc)}};
  if (kernel)
    record["built"] = kernel.toJSON();
  if (schedule)
    record["schedule"] = scheduleToJSON(schedule);
  return write(name, ".json", [&](raw_ostream &os) {
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(record))) << "\n";
  });
}

/// A block kernel: still a gpu.launch (named by smap-distribute-blocks,
/// carrying its record and its schedule).
LogicalResult DumpKernelsPass::dumpLaunch(func::FuncOp host,
                                          gpu::LaunchOp launch) {
  std::optional<StringRef> name = launch.getFunction();
  if (!name)
    return success();
  SMapDialect *smap = getContext().getOrLoadDialect<SMapDialect>();
  OpPrintingFlags flags;
  flags.useLocalScope();
  if (failed(write(*name, ".gpu.mlir",
                   [&](raw_ostream &os) { launch->print(os, flags); })))
    return failure();
  return writeRecord(*name, host, launch.getLoc(),
                     smap->getKernelAttrHelper().getAttr(launch),
                     smap->getScheduleAttrHelper().getAttr(launch));
}

/// A row kernel: outlined already, its host function holding its record.
LogicalResult DumpKernelsPass::dumpOutlined(func::FuncOp host,
                                            gpu::LaunchFuncOp launch,
                                            unsigned position) {
  auto gpuModule = getOperation().lookupSymbol<gpu::GPUModuleOp>(
      launch.getKernelModuleName());
  if (!gpuModule)
    return success();
  SMapDialect *smap = getContext().getOrLoadDialect<SMapDialect>();
  KernelAttr kernel;
  ArrayAttr records = smap->getKernelsAttrHelper().getAttr(host);
  if (records && position < records.size()) {
    FailureOr<KernelAttr> record =
        KernelAttr::fromDictionary(cast<DictionaryAttr>(records[position]),
                                   [&] { return host->emitError(); });
    if (failed(record))
      return failure();
    kernel = *record;
  }
  StringRef name = launch.getKernelName().getValue();
  OpPrintingFlags flags;
  flags.useLocalScope();
  if (failed(write(name, ".gpu.mlir",
                   [&](raw_ostream &os) { gpuModule->print(os, flags); })))
    return failure();
  return writeRecord(name, host, host.getLoc(), kernel, {});
}

/// Each scheduled graph after slicing, named as smap-distribute-blocks will
/// name its kernel (the graphs of a function in order, numbered when there
/// are several; the function's first argument gives the element type).
LogicalResult DumpKernelsPass::dumpGraphs() {
  // Numbered in its function's scope, so that its operands are named as
  // the function's arguments and values.
  OpPrintingFlags flags;
  for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
    // The kernels in order: the graphs, and the row kernels built in place
    // (launched already). A sliced graph holds its block's graph, which is
    // not a kernel.
    SmallVector<std::pair<size_t, GraphOp>> graphs;
    size_t kernels = 0;
    fn.walk([&](Operation *op) {
      auto graph = dyn_cast<GraphOp>(op);
      if (graph && graph.getSchedule() && !graph->getParentOfType<GraphOp>())
        graphs.emplace_back(kernels++, graph);
      else if (isa<gpu::LaunchFuncOp>(op))
        ++kernels;
    });
    Type elementType =
        fn.getNumArguments() ? getElementTypeOrSelf(fn.getArgument(0)) : Type();
    for (auto [position, graph] : graphs) {
      std::optional<size_t> index;
      if (kernels > 1)
        index = position;
      std::string name = getKernelName(
          fn.getName(), index, getKernelTag(*graph.getSchedule()), elementType);
      // C++17 lambdas cannot capture a structured binding.
      GraphOp kernelGraph = graph;
      if (failed(write(name, ".smap.mlir", [&](raw_ostream &os) {
            kernelGraph->print(os, flags);
          })))
        return failure();
    }
  }
  return success();
}

LogicalResult DumpKernelsPass::dumpGPU() {
  for (func::FuncOp host : getOperation().getOps<func::FuncOp>()) {
    unsigned position = 0;
    WalkResult result = host.walk([&](Operation *op) {
      LogicalResult written = success();
      if (auto launch = dyn_cast<gpu::LaunchOp>(op))
        written = dumpLaunch(host, launch);
      else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
        written = dumpOutlined(host, launch, position);
      if (isa<gpu::LaunchOp, gpu::LaunchFuncOp>(op))
        ++position;
      return failed(written) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return success();
}

/// Each GPU module (one kernel, named as it) translated to LLVM IR: what
/// the NVVM target's serialization starts from, before it links libdevice
/// and optimizes.
LogicalResult DumpKernelsPass::dumpLLVM() {
  for (auto gpuModule : getOperation().getOps<gpu::GPUModuleOp>()) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module =
        translateModuleToLLVMIR(gpuModule, context, gpuModule.getName());
    if (!module)
      return gpuModule.emitError("smap-dump-kernels: cannot translate '")
             << gpuModule.getName() << "' to LLVM IR";
    if (failed(write(gpuModule.getName(), ".ll",
                     [&](raw_ostream &os) { module->print(os, nullptr); })))
      return failure();
  }
  return success();
}

/// The extension of an object of `format`.
static StringRef objectExtension(gpu::CompilationTarget format) {
  switch (format) {
  case gpu::CompilationTarget::Assembly:
    return ".ptx";
  case gpu::CompilationTarget::Binary:
    return ".cubin";
  case gpu::CompilationTarget::Fatbin:
    return ".fatbin";
  case gpu::CompilationTarget::Offload:
    return ".bc";
  }
  return ".bin";
}

LogicalResult DumpKernelsPass::dumpBinaries() {
  for (auto binary : getOperation().getOps<gpu::BinaryOp>())
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (failed(write(binary.getName(), objectExtension(object.getFormat()),
                       [&](raw_ostream &os) {
                         os << object.getObject().getValue();
                       })))
        return failure();
    }
  return success();
}
