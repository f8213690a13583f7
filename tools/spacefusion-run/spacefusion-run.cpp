//===- spacefusion-run.cpp - Run fused and unfused linalg on the CPU ------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The differential checker of the CPU path. It compiles one linalg function
// twice, as a reference (upstream bufferization and loops) and fused (the
// SpaceFusion passes, then the same lowering), runs both with MLIR's
// ExecutionEngine on the same random inputs, and compares the outputs.
//
// * The reference computes in f64 (PromoteToF64.h): the function is cloned
//   and every float type in it widened, so that the fused program, which
//   runs in the function's own dtypes, is measured against (nearly) exact
//   math. Against a reference in the function's precision, a fused program
//   more accurate than the reference (Chan/Welford LayerNorm at a large
//   offset) would be called wrong. `--reference=native` keeps that
//   comparison.
// * Inputs are uniform in [-1, 1], rounded once to each argument's dtype
//   (f16, bf16, f32 or f64), so both versions see exactly the same values;
//   integer inputs (i32, i64: lengths, indices) uniform in --int-range,
//   i1 ones (masks) 0 or 1 with equal odds.
//   Every run, repetitions included, gets a fresh copy of every input, and
//   a run that changes one fails: a function's tensors are values.
// * For every element, with tolerances per output dtype,
//     |fused - reference| <= atol * max|reference| + rtol * |reference|,
//   atol being relative to the output's largest finite magnitude, since
//   reordered float sums err in proportion to the magnitude of what they
//   sum. NaN against NaN and equal infinities agree; any other non-finite
//   element, and an element either version never wrote, is a mismatch.
// * Buffers are counted before anything is allocated or compiled, and a
//   function whose buffers exceed --max-buffer-gib is refused.
//
// It prints the fusion decisions, both times, the errors and, per output,
// the number of mismatching elements and the first one, and exits 1 when
// the results differ, 2 when it cannot check the function. `--dump=DIR`
// also writes the inputs and the reference and unfused outputs as raw files
// with a manifest, so that another device (the GPU) can be checked against
// this run by the same rule.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "PromoteToF64.h"

#include "spacefusion/Dialect/SMap/IR/SMap.h"
#include "spacefusion/InitAll.h"

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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <random>

using namespace mlir;
using namespace mlir::spacefusion::run;

namespace cl = llvm::cl;

// --help lists these, not the hundreds of options LLVM's libraries register.
static cl::OptionCategory runOptions("spacefusion-run options");

static cl::opt<std::string> inputFile(cl::cat(runOptions), cl::Positional,
                                      cl::desc("<input.mlir>"), cl::Required);
static cl::opt<std::string> entry(cl::cat(runOptions), "entry",
                                  cl::desc("Function to run (default: the "
                                           "first function with a body)"));
static cl::opt<std::string> target(cl::cat(runOptions), "target",
                                   cl::desc("Target to schedule for"),
                                   cl::init("cpu"));
static cl::opt<std::string>
    spatial(cl::cat(runOptions), "spatial",
            cl::desc("Force spatial tiles (dim:size,...)"));
static cl::opt<std::string>
    temporal(cl::cat(runOptions), "temporal",
             cl::desc("Force the temporal slice (dim:size)"));
static cl::opt<std::string>
    split(cl::cat(runOptions), "split",
          cl::desc("Split a temporal dim into parts run side by side and a "
                   "merge (dim:parts, smap-schedule's split option)"));
static cl::opt<bool> allowUta(cl::cat(runOptions), "allow-uta",
                              cl::desc("Allow UTA rewrites"), cl::init(true));
static cl::opt<bool>
    widenAccumulators(cl::cat(runOptions), "widen-accumulators",
                      cl::desc("Accumulate 16-bit contractions and sums in f32 "
                               "(smap-widen-accumulators), as the compiler "
                               "pipelines do, in the fused and the unfused "
                               "program (whose error is the fused one's "
                               "baseline)"),
                      cl::init(true));
static cl::opt<bool>
    tf32(cl::cat(runOptions), "tf32",
         cl::desc("Round the f32 contractions' factors to TF32 "
                  "(smap-round-contractions-to-tf32, the pipelines' tf32 "
                  "option) in every version, the f64 reference included; "
                  "f32 outputs then default to TF32's tolerance (atol "
                  "2^-9 x max|ref|, rtol 2^-10), since a factor the fused "
                  "program computes in another order may round to a "
                  "neighbouring TF32 value"),
         cl::init(false));
static cl::opt<double> baselineSlack(
    cl::cat(runOptions), "baseline-slack",
    cl::desc("Against the f64 reference, let an element err by this many "
             "times the unfused program's largest error in the same output "
             "(0: off)"),
    cl::init(2.0));
static cl::opt<double> absTolerance(
    cl::cat(runOptions), "atol",
    cl::desc("Tolerance relative to the largest reference magnitude, for "
             "every output (default per dtype: f64 4e-14, f32 2e-5, f16 "
             "2^-9, bf16 2^-6)"));
static cl::opt<double>
    relTolerance(cl::cat(runOptions), "rtol",
                 cl::desc("Relative tolerance, for every output (default per "
                          "dtype: f64 2e-13, f32 1e-4, f16 2^-10, bf16 2^-7)"));

enum class ReferencePrecision { F64, Native };
static cl::opt<ReferencePrecision> referencePrecision(
    cl::cat(runOptions), "reference",
    cl::desc("Precision of the reference run"),
    cl::values(clEnumValN(ReferencePrecision::F64, "f64",
                          "the function widened to f64 (default)"),
               clEnumValN(ReferencePrecision::Native, "native",
                          "the function's own dtypes, as the fused run")),
    cl::init(ReferencePrecision::F64));
static cl::opt<double> maxBufferGiB(
    cl::cat(runOptions), "max-buffer-gib",
    cl::desc("Refuse functions whose buffers (inputs, outputs and their "
             "copies, or any one tensor of the body) exceed this many GiB"),
    cl::init(4));
static cl::opt<unsigned> reps(cl::cat(runOptions), "reps",
                              cl::desc("Timed runs of each version"),
                              cl::init(3));
static cl::opt<unsigned> seed(cl::cat(runOptions), "seed",
                              cl::desc("Random seed"), cl::init(1));
static cl::opt<std::string> intRange(
    cl::cat(runOptions), "int-range", cl::value_desc("lo:hi"),
    cl::desc("Integer inputs (lengths, indices) are uniform in [lo, hi]"),
    cl::init("0:16"));
static cl::opt<bool> printFused(cl::cat(runOptions), "print-fused",
                                cl::desc("Print the fused IR before lowering"));
static cl::opt<bool>
    printReference(cl::cat(runOptions), "print-reference",
                   cl::desc("Print the reference IR before lowering"));
static cl::opt<bool> printSignature(
    cl::cat(runOptions), "print-signature",
    cl::desc("Print the entry function's name, input and output tensor types "
             "as JSON and exit (what the Python package reads instead of "
             "parsing MLIR text)"));
static cl::opt<std::string> dumpDir(
    cl::cat(runOptions), "dump", cl::value_desc("dir"),
    cl::desc("Write the inputs, the reference and unfused outputs (raw, "
             "row-major) and manifest.json into this directory"));

/// The fused pipeline up to loops on tensors (passes on the module).
static std::string fusionPipeline() {
  std::string schedule;
  if (!spatial.empty())
    schedule += " spatial=" + spatial;
  if (!temporal.empty())
    schedule += " temporal=" + temporal;
  if (!split.empty())
    schedule += " split=" + split;
  // The front of buildSpaceFusionPipeline: what the compiler fuses
  // (addNormalization's passes, in its order).
  std::string normalize = "smap-generalize-named-ops,smap-decompose-aggregates,"
                          "smap-fold-empty-domains,smap-store-indices-as-i64,"
                          "smap-fold-broadcasts,smap-specialize-fills,"
                          "smap-split-contraction-operands,";
  if (widenAccumulators)
    normalize += "smap-widen-accumulators,";
  normalize += "smap-fold-contraction-relayouts,smap-specialize-fills,";
  return normalize + "smap-form-graphs,smap-set-target{target=" + target +
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

//===----------------------------------------------------------------------===//
// Signature, size and inputs
//===----------------------------------------------------------------------===//

/// The argument and result types of a function, all static tensors of a
/// dtype Buffer stores.
struct Signature {
  SmallVector<RankedTensorType> args, results;
};

static FailureOr<Signature> getSignature(func::FuncOp function) {
  Signature signature;
  auto check = [&](Type t, SmallVectorImpl<RankedTensorType> &into) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (type && type.hasStaticShape() && getDtype(type.getElementType())) {
      into.push_back(type);
      return true;
    }
    llvm::errs() << "spacefusion-run: @" << function.getName()
                 << " must take and return static f16, bf16, f32, f64, i1, i32 "
                    "or i64 tensors, got "
                 << t << "\n";
    return false;
  };
  for (Type t : function.getArgumentTypes())
    if (!check(t, signature.args))
      return failure();
  for (Type t : function.getResultTypes())
    if (!check(t, signature.results))
      return failure();
  return signature;
}

static Dtype dtypeOf(RankedTensorType type) {
  return *getDtype(type.getElementType());
}

/// Element count and bytes, saturating instead of overflowing, for shapes
/// as large as a type can spell.
static uint64_t getElementCount(ShapedType type) {
  uint64_t count = 1;
  for (int64_t size : type.getShape())
    count = llvm::SaturatingMultiply(count, static_cast<uint64_t>(size));
  return count;
}

static uint64_t getBytes(ShapedType type, unsigned bytesPerElement) {
  return llvm::SaturatingMultiply(getElementCount(type),
                                  uint64_t(bytesPerElement));
}

/// "4.0 GiB", "12.5 MiB", "16.0 KiB".
static std::string formatBytes(uint64_t bytes) {
  const char *unit = "GiB";
  double scale = double(1ull << 30);
  if (bytes < (1ull << 20)) {
    unit = "KiB";
    scale = 1024;
  } else if (bytes < (1ull << 30)) {
    unit = "MiB";
    scale = double(1ull << 20);
  }
  return llvm::formatv("{0:F1} {1}", double(bytes) / scale, unit);
}

/// The bytes the checker holds at once: each input as double and, while a
/// version runs, a pristine and a working copy of it in that version's
/// dtype; the outputs of every version (unfused, fused, f64 reference).
static uint64_t getCheckerBytes(const Signature &signature, bool f64Reference) {
  uint64_t bytes = 0;
  for (RankedTensorType type : signature.args) {
    unsigned widest = f64Reference ? 8 : getByteWidth(dtypeOf(type));
    bytes = llvm::SaturatingAdd(bytes, getBytes(type, 8 + 2 * widest));
  }
  for (RankedTensorType type : signature.results) {
    unsigned perElement =
        2 * getByteWidth(dtypeOf(type)) + (f64Reference ? 8 : 0);
    bytes = llvm::SaturatingAdd(bytes, getBytes(type, perElement));
  }
  return bytes;
}

/// Refuses, before anything is allocated or compiled, a function whose
/// buffers would not fit: allocating them would end in "LLVM ERROR: out of
/// memory" or a crash instead of an answer. Tensors of the body are
/// allocated by the compiled code; each must fit on its own (in f64, as the
/// reference holds them).
static LogicalResult checkSize(func::FuncOp function,
                               const Signature &signature, bool f64Reference) {
  auto cap = static_cast<uint64_t>(maxBufferGiB * double(1ull << 30));
  uint64_t bytes = getCheckerBytes(signature, f64Reference);
  if (bytes > cap) {
    llvm::errs() << "spacefusion-run: @" << function.getName() << " needs "
                 << formatBytes(bytes)
                 << " of buffers (inputs, outputs and their copies), more "
                    "than the limit of "
                 << formatBytes(cap) << " (--max-buffer-gib); not running it\n";
    return failure();
  }
  WalkResult walk = function.walk([&](Operation *op) {
    for (Type t : op->getResultTypes()) {
      auto type = dyn_cast<RankedTensorType>(t);
      if (!type || !type.hasStaticShape())
        continue;
      uint64_t tensorBytes = getBytes(type, 8);
      if (tensorBytes <= cap)
        continue;
      op->emitError() << "spacefusion-run: this " << type << " takes up to "
                      << formatBytes(tensorBytes) << ", more than the limit of "
                      << formatBytes(cap)
                      << " (--max-buffer-gib); not running it";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// The bounds --int-range gives, or an error.
static FailureOr<std::pair<int64_t, int64_t>> getIntRange() {
  auto [lo, hi] = StringRef(intRange).split(':');
  int64_t low, high;
  if (lo.trim().getAsInteger(10, low) || hi.trim().getAsInteger(10, high) ||
      low > high) {
    llvm::errs() << "spacefusion-run: --int-range must be lo:hi with lo <= "
                    "hi, got '"
                 << intRange << "'\n";
    return failure();
  }
  return std::make_pair(low, high);
}

/// Uniform values in [-1, 1], rounded to each argument's dtype, so that
/// every version, whatever its precision, runs on exactly these values;
/// integers uniform in `ints`.
static SmallVector<std::vector<double>>
makeInputs(const Signature &signature, std::pair<int64_t, int64_t> ints) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> uniformInt(ints.first, ints.second);
  std::bernoulli_distribution coin;
  SmallVector<std::vector<double>> inputs;
  for (RankedTensorType type : signature.args) {
    Dtype dtype = dtypeOf(type);
    std::vector<double> &values = inputs.emplace_back(type.getNumElements());
    for (double &value : values)
      value = dtype == Dtype::I1 ? double(coin(rng))
              : isInteger(dtype) ? roundTo(dtype, double(uniformInt(rng)))
                                 : roundTo(dtype, uniform(rng));
  }
  return inputs;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

namespace {
/// One version of the function: its module, the types it runs on (taken
/// before lowering, which erases them), and the compiled code.
struct Version {
  OwningOpRef<ModuleOp> module;
  Signature signature;
  std::unique_ptr<ExecutionEngine> engine;
  SmallVector<Buffer> outputs;
  double medianMs = 0;
};
} // namespace

static FailureOr<Signature> getSignature(ModuleOp module, StringRef name) {
  return getSignature(module.lookupSymbol<func::FuncOp>(name));
}

/// Lowers `version` to LLVM and JIT-compiles it.
static LogicalResult lowerAndCompile(Version &version) {
  if (failed(runPipeline(*version.module, kLoweringPipeline))) {
    llvm::errs() << "spacefusion-run: lowering to LLVM failed\n";
    return failure();
  }
  FailureOr<std::unique_ptr<ExecutionEngine>> engine = compile(*version.module);
  if (failed(engine))
    return failure();
  version.engine = std::move(*engine);
  return success();
}

/// The inputs in the dtypes of `types`; exact, since the values are already
/// rounded to the function's.
static SmallVector<Buffer> makeBuffers(ArrayRef<RankedTensorType> types,
                                       ArrayRef<std::vector<double>> inputs) {
  SmallVector<Buffer> buffers;
  for (auto [type, values] : llvm::zip(types, inputs)) {
    Buffer &buffer = buffers.emplace_back(dtypeOf(type), type.getShape());
    for (auto [i, value] : llvm::enumerate(values))
      buffer.set(i, value);
  }
  return buffers;
}

/// A call must leave its inputs as they were: tensors are values, and the
/// pipelines mark the arguments read-only for bufferization.
static LogicalResult checkInputsUnchanged(StringRef name, ArrayRef<Buffer> args,
                                          ArrayRef<Buffer> pristine) {
  for (auto [i, pair] : llvm::enumerate(llvm::zip(args, pristine))) {
    auto &[arg, original] = pair;
    if (arg.getBytes() == original.getBytes())
      continue;
    llvm::errs() << "spacefusion-run: @" << name << " changed its input #" << i
                 << "\n";
    return failure();
  }
  return success();
}

/// Runs `name` `runs` times on `inputs`; keeps the last outputs and the
/// median time in milliseconds.
static LogicalResult run(Version &version, StringRef name,
                         ArrayRef<std::vector<double>> inputs, unsigned runs) {
  SmallVector<Buffer> pristine = makeBuffers(version.signature.args, inputs);
  version.outputs.clear();
  for (RankedTensorType type : version.signature.results)
    version.outputs.emplace_back(dtypeOf(type), type.getShape());

  SmallVector<double> times;
  for (unsigned r = 0; r < std::max(1u, runs); ++r) {
    // A fresh copy of every input for every run, so that a call that
    // writes into one is caught (checkInputsUnchanged) and nothing else.
    SmallVector<Buffer> args = llvm::map_to_vector(
        pristine, [](const Buffer &buffer) { return buffer.clone(); });
    SmallVector<void *> packed;
    for (Buffer &in : args)
      in.appendArgs(packed);
    for (Buffer &out : version.outputs) {
      out.fillWithPoison();
      out.appendArgs(packed);
    }
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error = version.engine->invokePacked(name, packed)) {
      llvm::errs() << "spacefusion-run: calling @" << name
                   << " failed: " << llvm::toString(std::move(error)) << "\n";
      return failure();
    }
    auto end = std::chrono::steady_clock::now();
    if (failed(checkInputsUnchanged(name, args, pristine)))
      return failure();
    times.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
  }
  llvm::sort(times);
  version.medianMs = times[times.size() / 2];
  return success();
}

//===----------------------------------------------------------------------===//
// Comparing
//===----------------------------------------------------------------------===//

namespace {
struct Tolerance {
  double atol, rtol;
};

/// How one output compares: the errors of the elements finite on both
/// sides, and a count of each way an element can be non-finite.
struct Comparison {
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t firstMismatch = -1;
  double maxAbs = 0, maxRel = 0;
  int64_t nanBoth = 0, nanRefOnly = 0, nanFusedOnly = 0;
  int64_t infEqual = 0, infRefOnly = 0, infFusedOnly = 0, infOpposite = 0;
  int64_t unwritten = 0;

  void addError(double error, double reference) {
    maxAbs = std::max(maxAbs, error);
    maxRel = std::max(maxRel, error / std::max(std::fabs(reference), 1e-30));
  }
  void addMismatch(int64_t i) {
    if (firstMismatch < 0)
      firstMismatch = i;
    ++mismatches;
  }
  bool hasNonFinite() const {
    return nanBoth || nanRefOnly || nanFusedOnly || infEqual || infRefOnly ||
           infFusedOnly || infOpposite || unwritten;
  }
};
} // namespace

/// Defaults per output dtype. f32: about 170 ulps of max|ref| plus 840 ulps
/// of |ref|, room for sums of thousands of terms reassociated across
/// slices; f64 allows the same numbers of its own ulps. f16 and bf16
/// programs compute in f32 between casts (mixed precision), so they err by
/// a few roundings to 16 bits: 2 ulps (of 1.0) of max|ref| plus 1 of |ref|.
static Tolerance getDefaultTolerance(Dtype dtype) {
  switch (dtype) {
  case Dtype::F64:
    return {4e-14, 2e-13};
  case Dtype::F32:
    return {2e-5, 1e-4};
  case Dtype::F16:
    return {0x1p-9, 0x1p-10};
  case Dtype::BF16:
    return {0x1p-6, 0x1p-7};
  case Dtype::I1:
  case Dtype::I32:
  case Dtype::I64:
    return {0, 0};
  }
  llvm_unreachable("unknown dtype");
}

static Tolerance getTolerance(Dtype dtype) {
  Tolerance tolerance = getDefaultTolerance(dtype);
  // With --tf32 an f32 program rounds factors to TF32's 10-bit mantissa. A
  // factor the fused program computes otherwise than the reference (the
  // unnormalized probabilities an online softmax rounds, docs/Rationale.md
  // "TF32") may round to a neighbouring TF32 value: 2 ulps (of 1.0) of
  // max|ref| plus 1 of |ref|, as for the 16-bit types.
  if (tf32 && dtype == Dtype::F32)
    tolerance = {0x1p-9, 0x1p-10};
  if (absTolerance.getNumOccurrences())
    tolerance.atol = absTolerance;
  if (relTolerance.getNumOccurrences())
    tolerance.rtol = relTolerance;
  return tolerance;
}

/// Classifies an element where either side is NaN or infinite; returns
/// whether the two agree (both NaN, or the same infinity).
static bool compareNonFinite(double fused, double ref, Comparison &c) {
  bool fusedNaN = std::isnan(fused), refNaN = std::isnan(ref);
  if (fusedNaN && refNaN)
    ++c.nanBoth;
  else if (refNaN)
    ++c.nanRefOnly;
  else if (fusedNaN)
    ++c.nanFusedOnly;
  else if (fused == ref)
    ++c.infEqual;
  else if (std::isinf(fused) && std::isinf(ref))
    ++c.infOpposite;
  else if (std::isinf(ref))
    ++c.infRefOnly;
  else
    ++c.infFusedOnly;
  return (fusedNaN && refNaN) || fused == ref;
}

/// The largest finite error of `baseline` against `ref`: the rounding
/// noise of the program the fused one replaces.
static double getNoiseFloor(const Buffer &ref, const Buffer &baseline) {
  double floor = 0;
  for (int64_t i = 0; i < ref.size(); ++i) {
    double error = std::fabs(baseline.get(i) - ref.get(i));
    if (!ref.isPoison(i) && !baseline.isPoison(i) && std::isfinite(error))
      floor = std::max(floor, error);
  }
  return floor;
}

/// Compares `fused` with `ref` element by element. With a `baseline` (the
/// unfused program, against an f64 reference), an element may also err by
/// twice the baseline's largest error in the output: an ill-conditioned
/// output (a cancellation, a normalization of a tiny row, a sum of
/// normalized values) is not the fusion's fault when the program it
/// replaces is as far off, and rounding in another order puts that noise
/// at other elements than the baseline's.
static Comparison compare(const Buffer &ref, const Buffer &fused,
                          Tolerance tolerance,
                          const Buffer *baseline = nullptr) {
  // The scale of the output: its largest finite magnitude (an infinity
  // would make every error look small).
  double scale = 0;
  for (int64_t i = 0; i < ref.size(); ++i)
    if (std::isfinite(ref.get(i)))
      scale = std::max(scale, std::fabs(ref.get(i)));
  double noise = baseline ? baselineSlack * getNoiseFloor(ref, *baseline) : 0;
  Comparison c;
  for (int64_t i = 0; i < ref.size(); ++i, ++c.elements) {
    if (ref.isPoison(i) || fused.isPoison(i)) {
      ++c.unwritten;
      c.addError(INFINITY, 1);
      c.addMismatch(i);
      continue;
    }
    double a = fused.get(i), b = ref.get(i);
    if (!std::isfinite(a) || !std::isfinite(b)) {
      if (!compareNonFinite(a, b, c)) {
        c.addError(INFINITY, 1);
        c.addMismatch(i);
      }
      continue;
    }
    double error = std::fabs(a - b);
    c.addError(error, b);
    double allowed =
        tolerance.atol * scale + tolerance.rtol * std::fabs(b) + noise;
    if (!(error <= allowed))
      c.addMismatch(i);
  }
  return c;
}

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

/// The fusion decisions, as the outermost graphs carry them; counts them.
static std::string describeDecisions(ModuleOp fused, unsigned &graphCount) {
  std::string decisions;
  llvm::raw_string_ostream os(decisions);
  graphCount = 0;
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
      temporal +=
          !op->hasAttr(smap::SMapDialect::FinalPassAttrHelper::getNameStr());
    });
    os << (temporal ? ", temporally sliced" : "") << "\n";
  });
  return decisions;
}

/// One line per output with non-finite or unwritten elements.
static void printNonFinite(ArrayRef<Comparison> comparisons) {
  for (auto [i, c] : llvm::enumerate(comparisons)) {
    if (!c.hasNonFinite())
      continue;
    llvm::outs() << llvm::formatv(
        "  output #{0}: NaN in both {1}, only in the reference {2}, only in "
        "the fused result {3}; equal inf {4}, inf only in the reference {5}, "
        "only in the fused result {6}, of opposite signs {7}; never written "
        "{8}\n",
        i, c.nanBoth, c.nanRefOnly, c.nanFusedOnly, c.infEqual, c.infRefOnly,
        c.infFusedOnly, c.infOpposite, c.unwritten);
  }
}

/// "f32: atol 2.0E-05 x max|ref|, rtol 1.0E-04", for each dtype among the
/// outputs.
static std::string describeTolerances(const Signature &signature) {
  SmallVector<Dtype> dtypes;
  for (RankedTensorType type : signature.results)
    if (!llvm::is_contained(dtypes, dtypeOf(type)))
      dtypes.push_back(dtypeOf(type));
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      dtypes, os,
      [&](Dtype dtype) {
        Tolerance tolerance = getTolerance(dtype);
        os << llvm::formatv("{0}: atol {1:E1} x max|ref|, rtol {2:E1}",
                            getName(dtype), tolerance.atol, tolerance.rtol);
      },
      "; ");
  return text;
}

/// "#0 3 of 1024 first at [0, 5], #1 0 of 64".
static std::string describeMismatches(ArrayRef<Comparison> comparisons,
                                      ArrayRef<Buffer> outputs) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [i, c] : llvm::enumerate(comparisons)) {
    os << (i ? ", #" : "#") << i << " " << c.mismatches << " of " << c.elements;
    if (c.firstMismatch >= 0)
      os << " first at " << outputs[i].formatIndex(c.firstMismatch);
  }
  return text;
}

/// Compares every output of `version` with the reference's.
static SmallVector<Comparison>
compareOutputs(const Version &version, const Version &reference,
               const Version *baseline = nullptr) {
  SmallVector<Comparison> comparisons;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(reference.outputs, version.outputs))) {
    auto &[ref, out] = pair;
    comparisons.push_back(compare(ref, out, getTolerance(out.getDtype()),
                                  baseline ? &baseline->outputs[i] : nullptr));
  }
  return comparisons;
}

namespace {
/// The errors over all outputs.
struct Summary {
  double maxAbs = 0, maxRel = 0;
  int64_t mismatches = 0, elements = 0;

  explicit Summary(ArrayRef<Comparison> comparisons) {
    for (const Comparison &c : comparisons) {
      maxAbs = std::max(maxAbs, c.maxAbs);
      maxRel = std::max(maxRel, c.maxRel);
      mismatches += c.mismatches;
      elements += c.elements;
    }
  }
};
} // namespace

/// Prints the decisions, the times and the verdict of `fused` against
/// `reference`; `unfused` is timed, and when it is not the reference its
/// own errors are printed too, to tell how accurate the fusion is compared
/// with the program it replaces. Returns the exit status.
static int printVerdict(StringRef name, StringRef decisions,
                        unsigned graphCount, const Version &unfused,
                        const Version &fused, const Version &reference) {
  StringRef against =
      referencePrecision == ReferencePrecision::F64 ? "f64" : "native";
  llvm::outs() << llvm::formatv(
      "@{0} on {1}, {2} fusion graph(s):\n{3}"
      "  unfused: {4:F3} ms, fused: {5:F3} ms (median of {6}), "
      "speedup {7:F2}x\n",
      name, target, graphCount, decisions, unfused.medianMs, fused.medianMs,
      std::max(1u, reps.getValue()), unfused.medianMs / fused.medianMs);
  if (&unfused != &reference) {
    Summary summary(compareOutputs(unfused, reference));
    llvm::outs() << llvm::formatv(
        "  unfused against the {0} reference: max abs error {1:E2}, max rel "
        "error {2:E2}\n",
        against, summary.maxAbs, summary.maxRel);
  }
  bool withBaseline = &unfused != &reference && baselineSlack > 0;
  if (withBaseline)
    llvm::outs() << llvm::formatv(
        "  each element may also err by {0} x the unfused program's largest "
        "error in the same output\n",
        baselineSlack.getValue());
  SmallVector<Comparison> comparisons =
      compareOutputs(fused, reference, withBaseline ? &unfused : nullptr);
  printNonFinite(comparisons);
  Summary summary(comparisons);
  bool pass = summary.mismatches == 0;
  llvm::outs() << llvm::formatv(
      "  max abs error {0:E2}, max rel error {1:E2} over {2} outputs against "
      "the {3} reference ({4}), out of tolerance: {5}: {6}\n",
      summary.maxAbs, summary.maxRel, summary.elements, against,
      describeTolerances(fused.signature),
      describeMismatches(comparisons, fused.outputs),
      pass ? "PASS"
           : "FAIL (" + std::to_string(summary.mismatches) +
                 " elements out of tolerance)");
  return pass ? 0 : 1;
}

//===----------------------------------------------------------------------===//
// Dumping
//===----------------------------------------------------------------------===//

/// Writes `bytes` to `dir`/`file`.
static LogicalResult writeFile(StringRef dir, StringRef file,
                               ArrayRef<char> bytes) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (!error) {
    os.write(bytes.data(), bytes.size());
    os.close();
    error = os.error();
  }
  if (error)
    llvm::errs() << "spacefusion-run: cannot write " << path << ": "
                 << error.message() << "\n";
  return failure(bool(error));
}

/// --dump: writes to `dir` input<i>.bin (in the function's dtypes),
/// reference<i>.bin (f64, or native with --reference=native) and
/// unfused<i>.bin (native, its 16-bit sums widened as the fused program's
/// are, --widen-accumulators), all raw and row-major as the compiled code
/// reads and writes them, and manifest.json listing them with the seed and
/// the tolerances, so that another device's outputs (the GPU's) can be
/// checked by the same rule.
static LogicalResult dump(StringRef dir, StringRef name,
                          ArrayRef<std::vector<double>> inputs,
                          const Version &unfused, const Version &reference) {
  if (std::error_code error = llvm::sys::fs::create_directories(dir)) {
    llvm::errs() << "spacefusion-run: cannot create " << dir << ": "
                 << error.message() << "\n";
    return failure();
  }
  llvm::json::Array inputsJson, outputsJson;
  for (auto [i, in] :
       llvm::enumerate(makeBuffers(unfused.signature.args, inputs))) {
    std::string file = llvm::formatv("input{0}.bin", i);
    if (failed(writeFile(dir, file, in.getBytes())))
      return failure();
    inputsJson.push_back(
        llvm::json::Object{{"shape", llvm::json::Array(in.getShape())},
                           {"dtype", getName(in.getDtype())},
                           {"file", file}});
  }
  for (auto [i, out] : llvm::enumerate(unfused.outputs)) {
    const Buffer &ref = reference.outputs[i];
    std::string unfusedFile = llvm::formatv("unfused{0}.bin", i);
    std::string referenceFile = llvm::formatv("reference{0}.bin", i);
    if (failed(writeFile(dir, unfusedFile, out.getBytes())) ||
        failed(writeFile(dir, referenceFile, ref.getBytes())))
      return failure();
    outputsJson.push_back(
        llvm::json::Object{{"shape", llvm::json::Array(out.getShape())},
                           {"dtype", getName(out.getDtype())},
                           {"unfused", unfusedFile},
                           {"reference", referenceFile},
                           {"reference_dtype", getName(ref.getDtype())}});
  }
  llvm::json::Object tolerances;
  for (const Buffer &out : unfused.outputs) {
    Tolerance tolerance = getTolerance(out.getDtype());
    tolerances[getName(out.getDtype())] =
        llvm::json::Object{{"atol", tolerance.atol}, {"rtol", tolerance.rtol}};
  }
  // As printVerdict: the slack applies only against the f64 reference.
  bool f64 = &unfused != &reference;
  llvm::json::Object manifest{
      {"function", name},
      {"seed", seed.getValue()},
      {"reference", f64 ? "f64" : "native"},
      {"baseline_slack", f64 ? baselineSlack.getValue() : 0.0},
      {"tolerances", std::move(tolerances)},
      {"inputs", std::move(inputsJson)},
      {"outputs", std::move(outputsJson)}};
  std::string text =
      llvm::formatv("{0:2}\n", llvm::json::Value(std::move(manifest)));
  return writeFile(dir, "manifest.json", ArrayRef<char>(text.data(), text.size()));
}

/// {"name": N, "inputs": [{"shape": [..], "dtype": "f16"}, ..], "outputs":
/// [..]} for --print-signature.
static void printSignatureJSON(StringRef name, const Signature &signature) {
  auto tensors = [](ArrayRef<RankedTensorType> types) {
    llvm::json::Array array;
    for (RankedTensorType type : types) {
      std::string dtype;
      llvm::raw_string_ostream os(dtype);
      os << type.getElementType();
      array.push_back(llvm::json::Object{
          {"shape", llvm::json::Array(type.getShape())}, {"dtype", dtype}});
    }
    return array;
  };
  llvm::outs() << llvm::json::Value(llvm::json::Object{
                      {"name", name},
                      {"inputs", tensors(signature.args)},
                      {"outputs", tensors(signature.results)}})
               << "\n";
}

/// The function to check: --entry, or the first with a body.
static func::FuncOp findEntry(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal() && (entry.empty() || fn.getName() == entry))
      return fn;
  llvm::errs() << "spacefusion-run: no function "
               << (entry.empty() ? "with a body" : "@" + entry) << "\n";
  return nullptr;
}

/// The f64 reference: `source` cloned and widened.
static FailureOr<Version> makeF64Reference(ModuleOp source, StringRef name) {
  Version widened;
  widened.module = source.clone();
  if (failed(promoteToF64(*widened.module))) {
    llvm::errs() << "spacefusion-run: cannot compute the reference in f64 "
                    "(--reference=native runs it in the function's dtypes)\n";
    return failure();
  }
  widened.signature = *getSignature(*widened.module, name);
  return widened;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::spacefusion::registerVersionPrinter();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllPasses();
  spacefusion::registerAllPasses();
  cl::HideUnrelatedOptions(runOptions);
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
  Version unfused, fused;
  unfused.module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, ParserConfig(&context));
  if (!unfused.module)
    return 2;
  func::FuncOp function = findEntry(*unfused.module);
  if (!function)
    return 2;
  std::string name = function.getName().str();
  bool f64Reference = referencePrecision == ReferencePrecision::F64;
  FailureOr<Signature> signature = getSignature(function);
  if (succeeded(signature) && printSignature) {
    printSignatureJSON(name, *signature);
    return 0;
  }
  if (failed(signature) ||
      failed(checkSize(function, *signature, f64Reference)))
    return 2;
  unfused.signature = fused.signature = *signature;
  // The rounding is the program's, for every version.
  if (tf32 &&
      failed(runPipeline(*unfused.module, "smap-generalize-named-ops,"
                                          "smap-round-contractions-to-tf32")))
    return 2;
  fused.module = unfused.module->clone();
  // The f64 reference is a third version; the unfused program in the
  // function's dtypes is still compiled, for its time.
  std::optional<Version> widened;
  if (f64Reference) {
    FailureOr<Version> f64 = makeF64Reference(*unfused.module, name);
    if (failed(f64))
      return 2;
    widened = std::move(*f64);
  }
  // The unfused program accumulates in f32 where the compiler does, so that
  // the baseline it gives the fused program's error has the same roundings
  // (the f64 reference is taken before: it has none).
  if (widenAccumulators &&
      failed(runPipeline(*unfused.module,
                         "smap-generalize-named-ops,smap-decompose-aggregates,"
                         "smap-widen-accumulators")))
    return 2;
  Version &reference = widened ? *widened : unfused;
  if (printReference)
    reference.module->print(llvm::outs());

  // Fuse, report the decisions, lower every version.
  if (failed(runPipeline(*fused.module, fusionPipeline()))) {
    llvm::errs() << "spacefusion-run: the fusion pipeline failed\n";
    return 2;
  }
  unsigned graphCount;
  std::string decisions = describeDecisions(*fused.module, graphCount);
  if (printFused)
    fused.module->print(llvm::outs());
  if (failed(runPipeline(*fused.module, "convert-smap-to-scf")) ||
      failed(lowerAndCompile(unfused)) || failed(lowerAndCompile(fused)) ||
      (widened && failed(lowerAndCompile(*widened))))
    return 2;

  FailureOr<std::pair<int64_t, int64_t>> ints = getIntRange();
  if (failed(ints))
    return 2;
  SmallVector<std::vector<double>> inputs = makeInputs(*signature, *ints);
  if (failed(run(unfused, name, inputs, reps)) ||
      failed(run(fused, name, inputs, reps)) ||
      (widened && failed(run(*widened, name, inputs, /*runs=*/1))))
    return 2;
  if (!dumpDir.empty() &&
      failed(dump(dumpDir, name, inputs, unfused, reference)))
    return 2;
  return printVerdict(name, decisions, graphCount, unfused, fused, reference);
}
