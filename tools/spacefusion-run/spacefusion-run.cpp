//===- spacefusion-run.cpp - Run fused and unfused linalg on the CPU ------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The differential checker of the CPU path. It compiles one linalg function
// twice, unfused (upstream bufferization and loops) and fused (the
// SpaceFusion passes, then the same lowering), runs both with MLIR's
// ExecutionEngine on the same random inputs, and compares the outputs with
// a stated tolerance: for every element,
//   |fused - reference| <= atol * max|reference| + rtol * |reference|,
// i.e. atol is relative to the output's largest magnitude, since reordered
// float sums err in proportion to the magnitude of what they sum. It prints the fusion decisions, both times and the errors,
// and exits 1 when the results differ.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/InitAll.h"
#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <random>

using namespace mlir;

namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required);
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to run (default: the "
                                           "first function with a body)"));
static cl::opt<std::string> target("target", cl::desc("Target to schedule for"),
                                   cl::init("cpu"));
static cl::opt<std::string>
    spatial("spatial", cl::desc("Force spatial tiles (dim:size,...)"));
static cl::opt<std::string>
    temporal("temporal", cl::desc("Force the temporal slice (dim:size)"));
static cl::opt<bool> allowUta("allow-uta", cl::desc("Allow UTA rewrites"),
                              cl::init(true));
static cl::opt<double> absTolerance(
    "atol", cl::desc("Tolerance relative to the largest reference magnitude"),
    cl::init(2e-5));
static cl::opt<double> relTolerance("rtol", cl::desc("Relative tolerance"),
                            cl::init(1e-4));
static cl::opt<unsigned> reps("reps", cl::desc("Timed runs of each version"),
                              cl::init(3));
static cl::opt<unsigned> seed("seed", cl::desc("Random seed"), cl::init(1));
static cl::opt<bool> printFused("print-fused",
                                cl::desc("Print the fused IR before lowering"));

/// The fused pipeline up to loops on tensors (passes on the module).
static std::string fusionPipeline() {
  std::string schedule;
  if (!spatial.empty())
    schedule += " spatial=" + spatial;
  if (!temporal.empty())
    schedule += " temporal=" + temporal;
  return "smap-form-graphs,smap-set-target{target=" + target +
         "},smap-analyze{allow-uta=" + (allowUta ? "true" : "false") +
         "},smap-schedule{" + schedule + "},smap-spatial-slice," +
         "smap-temporal-slice";
}

/// Linalg on tensors to LLVM, shared by both versions (and by the Python
/// package's shared objects).
static const char *kLoweringPipeline = "spacefusion-lower-cpu";

static LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module.getContext());
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return failure();
  return pm.run(module);
}

namespace {
/// A dense f32 or f64 buffer with the memref descriptor the compiled code
/// expects: allocated and aligned pointers, offset, sizes, strides.
struct Buffer {
  RankedTensorType type;
  std::vector<double> values; // reference copy, as double
  std::vector<char> storage;
  std::vector<int64_t> descriptor;

  explicit Buffer(RankedTensorType type) : type(type) {
    int64_t n = type.getNumElements();
    storage.resize(n * bytesPerElement());
    descriptor.resize(3 + 2 * type.getRank());
    char *data = storage.data();
    descriptor[0] = reinterpret_cast<int64_t>(data);
    descriptor[1] = reinterpret_cast<int64_t>(data);
    descriptor[2] = 0;
    int64_t stride = 1;
    for (int64_t j = type.getRank() - 1; j >= 0; --j) {
      descriptor[3 + j] = type.getDimSize(j);
      descriptor[3 + type.getRank() + j] = stride;
      stride *= type.getDimSize(j);
    }
  }
  bool isF64() const { return type.getElementType().isF64(); }
  int64_t bytesPerElement() const { return isF64() ? 8 : 4; }
  int64_t size() const { return type.getNumElements(); }
  double get(int64_t i) const {
    if (isF64())
      return reinterpret_cast<const double *>(storage.data())[i];
    return reinterpret_cast<const float *>(storage.data())[i];
  }
  void set(int64_t i, double v) {
    if (isF64())
      reinterpret_cast<double *>(storage.data())[i] = v;
    else
      reinterpret_cast<float *>(storage.data())[i] = static_cast<float>(v);
  }
  void appendArgs(SmallVectorImpl<void *> &args) {
    for (int64_t &field : descriptor)
      args.push_back(&field);
  }
};
} // namespace

static FailureOr<std::unique_ptr<ExecutionEngine>> compile(ModuleOp module) {
  auto optimize = makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                            /*targetMachine=*/nullptr);
  ExecutionEngineOptions options;
  options.transformer = optimize;
  // memrefCopy and friends, for copies bufferization leaves.
  SmallVector<StringRef> libs{SPACEFUSION_C_RUNNER_UTILS};
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine) {
    llvm::errs() << "spacefusion-run: cannot JIT the module: "
                 << llvm::toString(engine.takeError()) << "\n";
    return failure();
  }
  return std::move(*engine);
}

/// Runs `name` `runs` times; returns the median time in milliseconds.
static FailureOr<double> run(ExecutionEngine &engine, StringRef name,
                             MutableArrayRef<Buffer> inputs,
                             MutableArrayRef<Buffer> outputs, unsigned runs) {
  SmallVector<double> times;
  for (unsigned r = 0; r < std::max(1u, runs); ++r) {
    for (Buffer &out : outputs)
      for (int64_t i = 0; i < out.size(); ++i)
        out.set(i, std::nan(""));
    SmallVector<void *> args;
    for (Buffer &in : inputs)
      in.appendArgs(args);
    for (Buffer &out : outputs)
      out.appendArgs(args);
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error = engine.invokePacked(name, args)) {
      llvm::errs() << "spacefusion-run: calling @" << name << " failed: "
                   << llvm::toString(std::move(error)) << "\n";
      return failure();
    }
    auto end = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(end - start)
                        .count());
  }
  llvm::sort(times);
  return times[times.size() / 2];
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllPasses();
  spacefusion::registerAllPasses();
  cl::ParseCommandLineOptions(
      argc, argv,
      "spacefusion-run: run a linalg function fused and unfused on the CPU "
      "and compare\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  spacefusion::registerAllDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> reference =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, ParserConfig(&context));
  if (!reference)
    return 2;
  OwningOpRef<ModuleOp> fused = reference->clone();

  // The entry function and its signature, before anything is lowered.
  func::FuncOp function;
  for (auto fn : reference->getOps<func::FuncOp>())
    if (!fn.isExternal() && (entry.empty() || fn.getName() == entry)) {
      function = fn;
      break;
    }
  if (!function) {
    llvm::errs() << "spacefusion-run: no function "
                 << (entry.empty() ? "with a body" : "@" + entry) << "\n";
    return 2;
  }
  std::string name = function.getName().str();
  SmallVector<Buffer> inputs, refOutputs, fusedOutputs;
  for (Type t : llvm::concat<const Type>(function.getArgumentTypes(),
                                         function.getResultTypes())) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || !type.hasStaticShape() ||
        !(type.getElementType().isF32() || type.getElementType().isF64())) {
      llvm::errs() << "spacefusion-run: @" << name
                   << " must take and return static f32 or f64 tensors, got "
                   << t << "\n";
      return 2;
    }
  }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (Type t : function.getArgumentTypes()) {
    Buffer &in = inputs.emplace_back(cast<RankedTensorType>(t));
    for (int64_t i = 0; i < in.size(); ++i)
      in.set(i, uniform(rng));
  }
  for (Type t : function.getResultTypes()) {
    refOutputs.emplace_back(cast<RankedTensorType>(t));
    fusedOutputs.emplace_back(cast<RankedTensorType>(t));
  }

  // Fuse, report the decisions, lower both.
  if (failed(runPipeline(*fused, fusionPipeline()))) {
    llvm::errs() << "spacefusion-run: the fusion pipeline failed\n";
    return 2;
  }
  // The decisions, as the graphs carry them.
  std::string decisions;
  llvm::raw_string_ostream os(decisions);
  unsigned graphCount = 0;
  fused->walk([&](smap::GraphOp graph) {
    if (graph->getParentOfType<smap::GraphOp>())
      return;
    os << "  graph " << graphCount++ << ": ";
    if (smap::ScheduleAttr schedule = graph.getScheduleAttr())
      os << schedule;
    else
      os << "no schedule";
    unsigned temporal = 0;
    graph->walk([&](smap::TemporalSliceOp op) {
      temporal += !op->hasAttr("smap.final_pass");
    });
    os << (temporal ? ", temporally sliced" : "") << "\n";
  });
  if (printFused)
    fused->print(llvm::outs());
  if (failed(runPipeline(*fused, "smap-lower-to-loops")) ||
      failed(runPipeline(*reference, kLoweringPipeline)) ||
      failed(runPipeline(*fused, kLoweringPipeline))) {
    llvm::errs() << "spacefusion-run: lowering to LLVM failed\n";
    return 2;
  }
  FailureOr<std::unique_ptr<ExecutionEngine>> refEngine = compile(*reference);
  FailureOr<std::unique_ptr<ExecutionEngine>> fusedEngine = compile(*fused);
  if (failed(refEngine) || failed(fusedEngine))
    return 2;

  FailureOr<double> refTime =
      run(**refEngine, name, inputs, refOutputs, reps);
  FailureOr<double> fusedTime =
      run(**fusedEngine, name, inputs, fusedOutputs, reps);
  if (failed(refTime) || failed(fusedTime))
    return 2;

  double maxAbs = 0, maxRel = 0;
  int64_t bad = 0, total = 0;
  for (auto [ref, out] : llvm::zip(refOutputs, fusedOutputs)) {
    double scale = 0;
    for (int64_t i = 0; i < ref.size(); ++i)
      scale = std::max(scale, std::fabs(ref.get(i)));
    for (int64_t i = 0; i < ref.size(); ++i, ++total) {
      double a = out.get(i), b = ref.get(i);
      double err = std::fabs(a - b);
      if (std::isnan(a) || std::isnan(b))
        err = INFINITY;
      maxAbs = std::max(maxAbs, err);
      maxRel = std::max(maxRel, err / std::max(std::fabs(b), 1e-30));
      if (!(err <= absTolerance * scale + relTolerance * std::fabs(b)))
        ++bad;
    }
  }
  bool pass = bad == 0;
  llvm::outs() << llvm::formatv(
      "@{0} on {1}, {2} fusion graph(s):\n{3}"
      "  unfused: {4:F3} ms, fused: {5:F3} ms (median of {6}), "
      "speedup {7:F2}x\n"
      "  max abs error {8:E2}, max rel error {9:E2} over {10} outputs "
      "(atol {11:E1} x max|ref|, rtol {12:E1}): {13}\n",
      name, target, graphCount, decisions, *refTime, *fusedTime,
      std::max(1u, reps.getValue()), *refTime / *fusedTime, maxAbs, maxRel,
      total, absTolerance.getValue(), relTolerance.getValue(),
      pass ? "PASS"
           : "FAIL (" + std::to_string(bad) + " outputs out of tolerance)");
  return pass ? 0 : 1;
}
