//===- WriteKernelManifest.cpp - The kernels of each function as JSON -----===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/IR/SMap.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPWRITEKERNELMANIFESTPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {
struct WriteKernelManifestPass
    : public smap::impl::SMapWriteKernelManifestPassBase<
          WriteKernelManifestPass> {
  using Base::Base;
  void runOnOperation() override {
    auto helper = getContext()
                      .getOrLoadDialect<SMapDialect>()
                      ->getKernelsAttrHelper();
    llvm::json::Array functions;
    getOperation()->walk([&](Operation *op) {
      ArrayAttr kernels = helper.getAttr(op);
      auto name = op->getAttrOfType<StringAttr>(
          SymbolTable::getSymbolAttrName());
      if (!kernels || !name)
        return;
      llvm::json::Array list;
      for (Attribute record : kernels) {
        FailureOr<KernelAttr> kernel = KernelAttr::fromDictionary(
            cast<DictionaryAttr>(record), [&] { return op->emitError(); });
        if (succeeded(kernel))
          list.push_back(kernel->toJSON());
      }
      functions.push_back(llvm::json::Object{{"name", name.getValue()},
                                             {"kernels", std::move(list)}});
    });
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      getOperation()->emitError("smap-write-kernel-manifest: ") << error;
      return signalPassFailure();
    }
    file->os() << llvm::formatv(
                      "{0:2}",
                      llvm::json::Value(llvm::json::Object{
                          {"functions", std::move(functions)}}))
               << "\n";
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
