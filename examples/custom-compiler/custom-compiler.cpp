//===- custom-compiler.cpp - A compiler that embeds SpaceFusion -----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The shape of a host compiler: parse linalg, run its own cleanup passes,
// then SpaceFusion's pipeline, then print the sliced IR, a summary of the
// fusion decisions, or the host code with its gpu.binary. It uses only the
// installed SpaceFusion package.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/IR/SMap.h"
#include "spacefusion/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input.mlir>"),
                                            llvm::cl::Required);
static llvm::cl::opt<std::string> target("target",
                                         llvm::cl::desc("sm_90a, sm_80, cpu"),
                                         llvm::cl::init("sm_90a"));
static llvm::cl::opt<std::string>
    emit("emit",
         llvm::cl::desc("What to print: mlir (the sliced graphs), summary "
                        "(each graph's dim classes) or binary (host code "
                        "plus gpu.binary, for an sm_* target)"),
         llvm::cl::init("mlir"));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv, "custom compiler\n");

  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  math::MathDialect, tensor::TensorDialect>();
  spacefusion::registerAllDialects(registry);
  if (emit == "binary")
    spacefusion::registerGPUPipelineDependencies(registry);
  else if (emit != "mlir" && emit != "summary") {
    llvm::errs() << "custom-compiler: --emit=" << emit
                 << " is none of mlir, summary, binary\n";
    return 1;
  }
  MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, ParserConfig(&context));
  if (!module) {
    llvm::errs() << "custom-compiler: cannot parse '" << inputFile << "'\n";
    return 1;
  }

  // The host's own passes, then SpaceFusion's.
  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  spacefusion::SpaceFusionPipelineOptions options;
  options.target = target;
  options.lowerToGPU = emit == "binary";
  spacefusion::buildSpaceFusionPipeline(pm, options);
  if (failed(pm.run(*module))) {
    llvm::errs() << "custom-compiler: the pipeline failed\n";
    return 1;
  }

  if (emit == "summary") {
    module->walk([](smap::GraphOp graph) {
      llvm::outs() << "graph at " << graph.getLoc() << " for "
                   << graph.getTargetAttr().getName() << ":";
      for (Attribute attr : graph.getDimsAttr()) {
        auto dim = cast<smap::DimAttr>(attr);
        llvm::outs() << " " << dim.getName().getValue() << "="
                     << smap::stringifyDimClass(dim.getDimClass());
      }
      llvm::outs() << "\n";
    });
    return 0;
  }
  module->print(llvm::outs());
  return 0;
}
