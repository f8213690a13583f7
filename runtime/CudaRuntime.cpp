//===- CudaRuntime.cpp - SpaceFusion's CUDA runtime (mgpu* ABI) -----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Implements the mgpu* functions that MLIR's gpu-to-llvm host code calls
// (module load and unload, function lookup, launch with dynamic shared
// memory, streams, events, allocation, copies, memsets, host registration
// and TMA descriptors) on the CUDA driver API. Debian's MLIR does not ship
// libmlir_cuda_runtime; this library replaces it.
//
// The driver is loaded with dlopen, so the library loads on machines with
// no GPU and says so clearly instead of failing in the dynamic loader.
// Every failing driver call is reported on stderr with the call, the
// error's name and its description, and recorded: callers (an
// ahead-of-time entry point, the Python package) read it back with
// spacefusionRuntimeGetError() and fail instead of returning garbage.
//
//===----------------------------------------------------------------------===//

#include "spacefusion-runtime/Runtime.h"

#include <cuda.h>
#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

namespace {

/// The driver entry points, resolved once.
struct Driver {
#define SPACEFUSION_DRIVER_FN(name) decltype(&::name) name = nullptr;
  SPACEFUSION_DRIVER_FN(cuInit)
  SPACEFUSION_DRIVER_FN(cuGetErrorName)
  SPACEFUSION_DRIVER_FN(cuGetErrorString)
  SPACEFUSION_DRIVER_FN(cuDeviceGet)
  SPACEFUSION_DRIVER_FN(cuDeviceGetCount)
  SPACEFUSION_DRIVER_FN(cuDevicePrimaryCtxRetain)
  SPACEFUSION_DRIVER_FN(cuCtxSetCurrent)
  SPACEFUSION_DRIVER_FN(cuModuleLoadData)
  SPACEFUSION_DRIVER_FN(cuModuleLoadDataEx)
  SPACEFUSION_DRIVER_FN(cuModuleUnload)
  SPACEFUSION_DRIVER_FN(cuModuleGetFunction)
  SPACEFUSION_DRIVER_FN(cuFuncGetName)
  SPACEFUSION_DRIVER_FN(cuFuncSetAttribute)
  SPACEFUSION_DRIVER_FN(cuLaunchKernel)
  SPACEFUSION_DRIVER_FN(cuLaunchKernelEx)
  SPACEFUSION_DRIVER_FN(cuModuleGetGlobal)
  SPACEFUSION_DRIVER_FN(cuStreamCreate)
  SPACEFUSION_DRIVER_FN(cuStreamDestroy)
  SPACEFUSION_DRIVER_FN(cuStreamSynchronize)
  SPACEFUSION_DRIVER_FN(cuStreamWaitEvent)
  SPACEFUSION_DRIVER_FN(cuEventCreate)
  SPACEFUSION_DRIVER_FN(cuEventDestroy)
  SPACEFUSION_DRIVER_FN(cuEventRecord)
  SPACEFUSION_DRIVER_FN(cuEventSynchronize)
  SPACEFUSION_DRIVER_FN(cuMemAlloc)
  SPACEFUSION_DRIVER_FN(cuMemAllocManaged)
  SPACEFUSION_DRIVER_FN(cuMemFree)
  SPACEFUSION_DRIVER_FN(cuMemAllocAsync)
  SPACEFUSION_DRIVER_FN(cuMemFreeAsync)
  SPACEFUSION_DRIVER_FN(cuMemcpyAsync)
  SPACEFUSION_DRIVER_FN(cuMemsetD32Async)
  SPACEFUSION_DRIVER_FN(cuMemsetD16Async)
  SPACEFUSION_DRIVER_FN(cuMemHostRegister)
  SPACEFUSION_DRIVER_FN(cuMemHostUnregister)
  SPACEFUSION_DRIVER_FN(cuMemcpyHtoD)
  SPACEFUSION_DRIVER_FN(cuTensorMapEncodeTiled)
#undef SPACEFUSION_DRIVER_FN
  bool available = false;
  std::string whyNot;
};

std::once_flag driverOnce;
Driver driver;
int defaultDevice = 0;
/// A stream the caller owns (e.g. PyTorch's current stream): compiled code
/// enqueues on it and does not wait, like any other CUDA operation.
std::atomic<CUstream> externalStream{nullptr};
std::atomic<bool> useExternalStream{false};
std::atomic<int> lastError{0};
std::mutex messageMutex;
std::string lastMessage;
/// The kernels looked up so far, with their module and whether the module
/// declares that they wait for the grid before them
/// (SPACEFUSION_DEPENDENT_LAUNCH_PREFIX): those are launched with
/// programmatic stream serialization.
struct KernelLaunchKind {
  CUmodule module;
  bool early;
};
std::mutex dependentMutex;
std::unordered_map<CUfunction, KernelLaunchKind> kernelLaunchKinds;

/// With SPACEFUSION_RUNTIME_TRACE set, each entry point compiled code calls
/// reports its host time on stderr: where a call's host time goes when the
/// device waits for it.
struct TraceScope {
  explicit TraceScope(const char *name)
      : name(name), start(std::chrono::steady_clock::now()) {}
  ~TraceScope() {
    static const bool tracing = std::getenv("SPACEFUSION_RUNTIME_TRACE");
    if (!tracing)
      return;
    double us = std::chrono::duration<double, std::micro>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    std::fprintf(stderr, "spacefusion-runtime: %s %.1f us\n", name, us);
  }
  const char *name;
  std::chrono::steady_clock::time_point start;
};

void recordError(int code, const std::string &message) {
  std::lock_guard<std::mutex> lock(messageMutex);
  std::fprintf(stderr, "spacefusion-runtime: %s\n", message.c_str());
  int expected = 0;
  if (lastError.compare_exchange_strong(expected, code))
    lastMessage = message;
}

void loadDriver() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    driver.whyNot = "no CUDA driver on this machine (libcuda.so.1 could not "
                    "be loaded); use the CPU path instead";
    return;
  }
  using GetProc = CUresult (*)(const char *, void **, int, cuuint64_t,
                               CUdriverProcAddressQueryResult *);
  auto getProc = reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!getProc) {
    driver.whyNot = "the CUDA driver is too old (no cuGetProcAddress_v2)";
    return;
  }
  bool complete = true;
  // Entry points as of CUDA 12.3 (cuFuncGetName's first version); a missing
  // cuFuncGetName only makes messages name no kernel, a missing
  // cuLaunchKernelEx or cuModuleGetGlobal only launches every kernel after
  // the one before it has finished.
  auto optional = [](const char *name) {
    return std::strcmp(name, "cuFuncGetName") == 0 ||
           std::strcmp(name, "cuLaunchKernelEx") == 0 ||
           std::strcmp(name, "cuModuleGetGlobal") == 0;
  };
  auto resolve = [&](const char *name, auto &fn) {
    void *pfn = nullptr;
    CUdriverProcAddressQueryResult status;
    if (getProc(name, &pfn, 12030, CU_GET_PROC_ADDRESS_DEFAULT, &status) !=
            CUDA_SUCCESS ||
        !pfn) {
      if (optional(name))
        return;
      complete = false;
      driver.whyNot += std::string(driver.whyNot.empty() ? "" : ", ") + name;
      return;
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(pfn);
  };
#define SPACEFUSION_RESOLVE(name) resolve(#name, driver.name);
  SPACEFUSION_RESOLVE(cuInit)
  SPACEFUSION_RESOLVE(cuGetErrorName)
  SPACEFUSION_RESOLVE(cuGetErrorString)
  SPACEFUSION_RESOLVE(cuDeviceGet)
  SPACEFUSION_RESOLVE(cuDeviceGetCount)
  SPACEFUSION_RESOLVE(cuDevicePrimaryCtxRetain)
  SPACEFUSION_RESOLVE(cuCtxSetCurrent)
  SPACEFUSION_RESOLVE(cuModuleLoadData)
  SPACEFUSION_RESOLVE(cuModuleLoadDataEx)
  SPACEFUSION_RESOLVE(cuModuleUnload)
  SPACEFUSION_RESOLVE(cuModuleGetFunction)
  SPACEFUSION_RESOLVE(cuFuncGetName)
  SPACEFUSION_RESOLVE(cuFuncSetAttribute)
  SPACEFUSION_RESOLVE(cuLaunchKernel)
  SPACEFUSION_RESOLVE(cuLaunchKernelEx)
  SPACEFUSION_RESOLVE(cuModuleGetGlobal)
  SPACEFUSION_RESOLVE(cuStreamCreate)
  SPACEFUSION_RESOLVE(cuStreamDestroy)
  SPACEFUSION_RESOLVE(cuStreamSynchronize)
  SPACEFUSION_RESOLVE(cuStreamWaitEvent)
  SPACEFUSION_RESOLVE(cuEventCreate)
  SPACEFUSION_RESOLVE(cuEventDestroy)
  SPACEFUSION_RESOLVE(cuEventRecord)
  SPACEFUSION_RESOLVE(cuEventSynchronize)
  SPACEFUSION_RESOLVE(cuMemAlloc)
  SPACEFUSION_RESOLVE(cuMemAllocManaged)
  SPACEFUSION_RESOLVE(cuMemFree)
  SPACEFUSION_RESOLVE(cuMemAllocAsync)
  SPACEFUSION_RESOLVE(cuMemFreeAsync)
  SPACEFUSION_RESOLVE(cuMemcpyAsync)
  SPACEFUSION_RESOLVE(cuMemsetD32Async)
  SPACEFUSION_RESOLVE(cuMemsetD16Async)
  SPACEFUSION_RESOLVE(cuMemHostRegister)
  SPACEFUSION_RESOLVE(cuMemHostUnregister)
  SPACEFUSION_RESOLVE(cuMemcpyHtoD)
  SPACEFUSION_RESOLVE(cuTensorMapEncodeTiled)
#undef SPACEFUSION_RESOLVE
  if (!complete) {
    driver.whyNot = "the CUDA driver lacks " + driver.whyNot;
    return;
  }
  driver.available = true;
}

/// Formats and records a failing driver call; returns true when it failed.
bool failed(CUresult result, const char *call,
            const std::string &context = {}) {
  if (result == CUDA_SUCCESS)
    return false;
  const char *name = "unknown error";
  const char *text = "";
  if (driver.cuGetErrorName)
    driver.cuGetErrorName(result, &name);
  if (driver.cuGetErrorString)
    driver.cuGetErrorString(result, &text);
  recordError(static_cast<int>(result),
              (context.empty() ? std::string() : context + ": ") + call +
                  " failed: " + name + " (" + text + ")");
  return true;
}

/// "cuLaunchKernel" from "driver.cuLaunchKernel(f, ...)".
std::string callName(const char *expression) {
  std::string text(expression);
  size_t begin = text.find("driver.");
  begin = begin == std::string::npos ? 0 : begin + 7;
  return text.substr(begin, text.find('(', begin) - begin);
}

#define CHECK(call, ...) failed((call), callName(#call).c_str(), ##__VA_ARGS__)

/// Loads the driver and makes the default device's primary context current
/// on this thread; false (with the reason recorded) when there is no GPU.
bool ready() {
  std::call_once(driverOnce, loadDriver);
  if (!driver.available) {
    // Said once; every later call fails the same way.
    static std::once_flag reported;
    std::call_once(reported, [] { recordError(-1, driver.whyNot); });
    return false;
  }
  thread_local bool initialized = false;
  if (initialized)
    return true;
  if (CHECK(driver.cuInit(0)))
    return false;
  int count = 0;
  if (CHECK(driver.cuDeviceGetCount(&count)))
    return false;
  if (count <= defaultDevice) {
    recordError(-1, "no CUDA device " + std::to_string(defaultDevice) + " (" +
                        std::to_string(count) + " found)");
    return false;
  }
  CUdevice device;
  CUcontext context;
  if (CHECK(driver.cuDeviceGet(&device, defaultDevice)) ||
      CHECK(driver.cuDevicePrimaryCtxRetain(&context, device)) ||
      CHECK(driver.cuCtxSetCurrent(context)))
    return false;
  initialized = true;
  return true;
}

std::string kernelName(CUfunction function) {
  const char *name = nullptr;
  if (driver.cuFuncGetName && function &&
      driver.cuFuncGetName(&name, function) == CUDA_SUCCESS && name)
    return name;
  return "<unknown kernel>";
}

} // namespace

//===----------------------------------------------------------------------===//
// Error state
//===----------------------------------------------------------------------===//

extern "C" int spacefusionRuntimeGetError(void) { return lastError.load(); }

extern "C" const char *spacefusionRuntimeGetErrorMessage(void) {
  std::lock_guard<std::mutex> lock(messageMutex);
  return lastError.load() ? lastMessage.c_str() : "";
}

extern "C" void spacefusionRuntimeClearError(void) {
  std::lock_guard<std::mutex> lock(messageMutex);
  lastError.store(0);
  lastMessage.clear();
}

extern "C" void spacefusionRuntimeArgumentMismatch(const char *function,
                                                   int64_t argument,
                                                   int64_t dim,
                                                   int64_t expected,
                                                   int64_t actual) {
  recordError(-2, std::string(function) + ": argument " +
                      std::to_string(argument) + " has size " +
                      std::to_string(actual) + " in dim " +
                      std::to_string(dim) + ", the function was compiled for " +
                      std::to_string(expected) + "; nothing was launched");
}

extern "C" int spacefusionRuntimeHasDevice(void) {
  std::call_once(driverOnce, loadDriver);
  if (!driver.available || driver.cuInit(0) != CUDA_SUCCESS)
    return 0;
  int count = 0;
  return driver.cuDeviceGetCount(&count) == CUDA_SUCCESS && count > 0;
}

//===----------------------------------------------------------------------===//
// mgpu* ABI (as MLIR 22's gpu-to-llvm and LLVM IR translation call it)
//===----------------------------------------------------------------------===//

extern "C" void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

extern "C" CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  CUmodule module = nullptr;
  if (!ready() || CHECK(driver.cuModuleLoadData(&module, data)))
    return nullptr;
  return module;
}

extern "C" CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  CUmodule module = nullptr;
  if (!ready())
    return nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log))};
  if (CHECK(driver.cuModuleLoadDataEx(&module, data, 3, options, values),
            std::string("JIT-compiling PTX") + (log[0] ? ": " : "") + log))
    return nullptr;
  return module;
}

static void forgetDependentLaunch(CUmodule module);

extern "C" void mgpuModuleUnload(CUmodule module) {
  if (!module || !ready())
    return;
  forgetDependentLaunch(module);
  // Compiled code unloads its module from a global destructor, which may run
  // after the driver shut down at process exit: nothing is left to free.
  CUresult result = driver.cuModuleUnload(module);
  if (result != CUDA_ERROR_DEINITIALIZED)
    CHECK(result);
}

/// Whether `function` (`name` in `module`) waits for the grid before it:
/// its module defines SPACEFUSION_DEPENDENT_LAUNCH_PREFIX + `name` (a
/// missing global is no error).
static bool waitsOnPredecessor(CUmodule module, const char *name) {
  static const bool enabled = [] {
    const char *value = std::getenv("SPACEFUSION_DEPENDENT_LAUNCH");
    return !value || std::strcmp(value, "0") != 0;
  }();
  if (!enabled || !driver.cuModuleGetGlobal || !driver.cuLaunchKernelEx)
    return false;
  CUdeviceptr address = 0;
  size_t bytes = 0;
  std::string global = std::string(SPACEFUSION_DEPENDENT_LAUNCH_PREFIX) + name;
  return driver.cuModuleGetGlobal(&address, &bytes, module, global.c_str()) ==
         CUDA_SUCCESS;
}

/// Records how `function` (`name` in `module`) is launched, once.
static void noteLaunchKind(CUmodule module, CUfunction function,
                           const char *name) {
  std::lock_guard<std::mutex> lock(dependentMutex);
  // Unloading a module forgets its kernels (forgetDependentLaunch), so a
  // handle found here is this module's.
  if (kernelLaunchKinds.count(function))
    return;
  kernelLaunchKinds[function] = {module, waitsOnPredecessor(module, name)};
}

/// Forgets the kernels of `module` (a later module may get its handles).
static void forgetDependentLaunch(CUmodule module) {
  std::lock_guard<std::mutex> lock(dependentMutex);
  for (auto it = kernelLaunchKinds.begin(); it != kernelLaunchKinds.end();)
    it = it->second.module == module ? kernelLaunchKinds.erase(it)
                                     : std::next(it);
}

static bool launchesEarly(CUfunction function) {
  std::lock_guard<std::mutex> lock(dependentMutex);
  auto found = kernelLaunchKinds.find(function);
  return found != kernelLaunchKinds.end() && found->second.early;
}

extern "C" CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  TraceScope trace("mgpuModuleGetFunction");
  CUfunction function = nullptr;
  if (!module) {
    recordError(-1, std::string("looking up kernel '") + name +
                        "' in a module that failed to load");
    return nullptr;
  }
  if (!ready() || CHECK(driver.cuModuleGetFunction(&function, module, name),
                        std::string("looking up kernel '") + name + "'"))
    return nullptr;
  noteLaunchKind(module, function, name);
  return function;
}

/// The launch of a kernel that waits for the grid before it
/// (griddepcontrol.wait) before touching memory: programmatic stream
/// serialization lets it start as soon as that grid allows. `attribute`
/// holds the setting the configuration points to.
static CUlaunchConfig getEarlyLaunchConfig(intptr_t gridX, intptr_t gridY,
                                           intptr_t gridZ, intptr_t blockX,
                                           intptr_t blockY, intptr_t blockZ,
                                           int32_t smem, CUstream stream,
                                           CUlaunchAttribute &attribute) {
  attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attribute.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig config{};
  config.gridDimX = gridX;
  config.gridDimY = gridY;
  config.gridDimZ = gridZ;
  config.blockDimX = blockX;
  config.blockDimY = blockY;
  config.blockDimZ = blockZ;
  config.sharedMemBytes = smem;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

extern "C" void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                 intptr_t gridY, intptr_t gridZ,
                                 intptr_t blockX, intptr_t blockY,
                                 intptr_t blockZ, int32_t smem, CUstream stream,
                                 void **params, void **extra,
                                 size_t /*paramsCount*/) {
  TraceScope trace("mgpuLaunchKernel");
  if (!function) {
    recordError(-1, "launching a kernel that was not found");
    return;
  }
  if (!ready())
    return;
  std::string context = "launching kernel '" + kernelName(function) + "'";
  // Dynamic shared memory above 48 KiB must be opted into per function.
  if (smem > 48 * 1024 &&
      CHECK(
          driver.cuFuncSetAttribute(
              function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
          context + " with " + std::to_string(smem) +
              " bytes of dynamic shared memory"))
    return;
  std::string shape = " (grid " + std::to_string(gridX) + "x" +
                      std::to_string(gridY) + "x" + std::to_string(gridZ) +
                      ", block " + std::to_string(blockX) + "x" +
                      std::to_string(blockY) + "x" + std::to_string(blockZ) +
                      ", " + std::to_string(smem) + " bytes of shared memory)";
  if (launchesEarly(function)) {
    CUlaunchAttribute early;
    CUlaunchConfig config = getEarlyLaunchConfig(
        gridX, gridY, gridZ, blockX, blockY, blockZ, smem, stream, early);
    CHECK(driver.cuLaunchKernelEx(&config, function, params, extra),
          context + " early" + shape);
    return;
  }
  CHECK(driver.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                              blockZ, smem, stream, params, extra),
        context + shape);
}

extern "C" void spacefusionRuntimeSetStream(void *stream) {
  externalStream.store(static_cast<CUstream>(stream));
  useExternalStream.store(true);
}

extern "C" void spacefusionRuntimeResetStream(void) {
  useExternalStream.store(false);
  externalStream.store(nullptr);
}

extern "C" CUstream mgpuStreamCreate() {
  TraceScope trace("mgpuStreamCreate");
  if (useExternalStream.load())
    return externalStream.load();
  CUstream stream = nullptr;
  if (!ready() || CHECK(driver.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING)))
    return nullptr;
  return stream;
}

extern "C" void mgpuStreamDestroy(CUstream stream) {
  TraceScope trace("mgpuStreamDestroy");
  if (useExternalStream.load() && stream == externalStream.load())
    return;
  if (stream && ready())
    CHECK(driver.cuStreamDestroy(stream));
}

extern "C" void mgpuStreamSynchronize(CUstream stream) {
  TraceScope trace("mgpuStreamSynchronize");
  if (useExternalStream.load() && stream == externalStream.load())
    return; // the caller synchronizes its own stream
  if (ready())
    CHECK(driver.cuStreamSynchronize(stream),
          "waiting for the stream (a kernel launched on it may have failed)");
}

extern "C" void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (ready())
    CHECK(driver.cuStreamWaitEvent(stream, event, 0));
}

extern "C" CUevent mgpuEventCreate() {
  CUevent event = nullptr;
  if (!ready() || CHECK(driver.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING)))
    return nullptr;
  return event;
}

extern "C" void mgpuEventDestroy(CUevent event) {
  if (event && ready())
    CHECK(driver.cuEventDestroy(event));
}

extern "C" void mgpuEventSynchronize(CUevent event) {
  if (ready())
    CHECK(driver.cuEventSynchronize(event));
}

extern "C" void mgpuEventRecord(CUevent event, CUstream stream) {
  if (ready())
    CHECK(driver.cuEventRecord(event, stream));
}

namespace {
/// Buffers freed on the caller's stream, kept for the next allocation of the
/// same size on it (see spacefusionRuntimeReleaseCachedMemory). Reuse needs
/// no synchronization: the next user is ordered after the last one on that
/// stream. Bounded: past kMaxCachedBytes a freed buffer goes to the driver.
struct BufferCache {
  static constexpr uint64_t kMaxCachedBytes = uint64_t(8) << 30;
  std::mutex mutex;
  /// Buffers allocated on the caller's stream: their stream and size.
  std::unordered_map<CUdeviceptr, std::pair<CUstream, uint64_t>> live;
  std::multimap<std::pair<CUstream, uint64_t>, CUdeviceptr> idle;
  uint64_t idleBytes = 0;
};
BufferCache bufferCache;
} // namespace

extern "C" void spacefusionRuntimeReleaseCachedMemory(void) {
  std::lock_guard<std::mutex> lock(bufferCache.mutex);
  for (auto &[key, ptr] : bufferCache.idle) {
    bufferCache.live.erase(ptr);
    if (ready())
      key.first ? CHECK(driver.cuMemFreeAsync(ptr, key.first))
                : CHECK(driver.cuMemFree(ptr));
  }
  bufferCache.idle.clear();
  bufferCache.idleBytes = 0;
}

// Device buffers are stream-ordered (cuMemAllocAsync / cuMemFreeAsync) when
// a stream is given: they follow the kernels on it without synchronizing the
// device, and can be captured in a CUDA graph. On the caller's stream they
// are cached (BufferCache).
extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, CUstream stream,
                              bool isHostShared) {
  TraceScope trace("mgpuMemAlloc");
  if (!ready())
    return nullptr;
  CUdeviceptr ptr = 0;
  if (sizeBytes == 0)
    return nullptr;
  bool cached = !isHostShared && useExternalStream.load() &&
                stream == externalStream.load();
  if (cached) {
    std::lock_guard<std::mutex> lock(bufferCache.mutex);
    auto found = bufferCache.idle.find({stream, sizeBytes});
    if (found != bufferCache.idle.end()) {
      ptr = found->second;
      bufferCache.idle.erase(found);
      bufferCache.idleBytes -= sizeBytes;
      return reinterpret_cast<void *>(ptr);
    }
  }
  std::string context = "allocating " + std::to_string(sizeBytes) + " bytes";
  bool failedToAllocate =
      isHostShared ? CHECK(driver.cuMemAllocManaged(&ptr, sizeBytes,
                                                    CU_MEM_ATTACH_GLOBAL),
                           context)
      : stream ? CHECK(driver.cuMemAllocAsync(&ptr, sizeBytes, stream), context)
               : CHECK(driver.cuMemAlloc(&ptr, sizeBytes), context);
  if (failedToAllocate)
    return nullptr;
  if (cached) {
    std::lock_guard<std::mutex> lock(bufferCache.mutex);
    bufferCache.live[ptr] = {stream, sizeBytes};
  }
  return reinterpret_cast<void *>(ptr);
}

extern "C" void mgpuMemFree(void *ptr, CUstream stream) {
  TraceScope trace("mgpuMemFree");
  auto device = reinterpret_cast<CUdeviceptr>(ptr);
  {
    std::lock_guard<std::mutex> lock(bufferCache.mutex);
    auto found = bufferCache.live.find(device);
    if (found != bufferCache.live.end() && found->second.first == stream &&
        bufferCache.idleBytes + found->second.second <=
            BufferCache::kMaxCachedBytes) {
      bufferCache.idle.emplace(found->second, device);
      bufferCache.idleBytes += found->second.second;
      return;
    }
    if (found != bufferCache.live.end())
      bufferCache.live.erase(found);
  }
  if (ptr && ready())
    stream ? CHECK(driver.cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                                         stream))
           : CHECK(driver.cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           CUstream stream) {
  // A tensor with no elements has a null buffer (mgpuMemAlloc).
  if (sizeBytes && ready())
    CHECK(driver.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                               reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                               stream),
          "copying " + std::to_string(sizeBytes) + " bytes");
}

extern "C" void mgpuMemset32(void *dst, uint32_t value, size_t count,
                             CUstream stream) {
  if (ready())
    CHECK(driver.cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                  count, stream));
}

extern "C" void mgpuMemset16(void *dst, uint16_t value, size_t count,
                             CUstream stream) {
  if (ready())
    CHECK(driver.cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                  count, stream));
}

namespace {
/// The layout of a ranked memref descriptor with `rank` dims.
struct MemRefView {
  char *allocated;
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};
MemRefView viewOf(int64_t rank, void *descriptor) {
  auto *fields = static_cast<int64_t *>(descriptor);
  MemRefView view;
  std::memcpy(&view.allocated, &fields[0], sizeof(void *));
  std::memcpy(&view.aligned, &fields[1], sizeof(void *));
  view.offset = fields[2];
  view.sizes = &fields[3];
  view.strides = &fields[3 + rank];
  return view;
}
} // namespace

extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  if (!ready())
    return;
  MemRefView view = viewOf(rank, descriptor);
  int64_t elements = 1;
  for (int64_t i = 0; i < rank; ++i)
    elements *= view.sizes[i];
  CHECK(driver.cuMemHostRegister(view.aligned + view.offset * elementSizeBytes,
                                 elements * elementSizeBytes, 0),
        "registering host memory");
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  if (!ready())
    return;
  MemRefView view = viewOf(rank, descriptor);
  CHECK(driver.cuMemHostUnregister(view.aligned +
                                   view.offset * elementSizeBytes));
}

/// Builds a TMA descriptor for a memref (innermost dim first for the
/// driver) and copies it to device memory, where kernels read it.
extern "C" void *
mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *rankedDescriptor,
                               int64_t tensorDataType, int64_t interleave,
                               int64_t swizzle, int64_t l2Promotion,
                               int64_t oobFill, void *inputBoxDims) {
  TraceScope trace("mgpuTensorMapEncodeTiledMemref");
  if (!ready())
    return nullptr;
  if (tensorRank < 1 || tensorRank > 5) {
    recordError(-1, "TMA descriptors take ranks 1 to 5, got " +
                        std::to_string(tensorRank));
    return nullptr;
  }
  static const int64_t elementBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  int64_t bytes = tensorDataType >= 0 && tensorDataType < 13
                      ? elementBytes[tensorDataType]
                      : 0;
  if (!bytes) {
    recordError(-1,
                "unknown TMA element type " + std::to_string(tensorDataType));
    return nullptr;
  }
  MemRefView view = viewOf(tensorRank, rankedDescriptor);
  auto *box = static_cast<int64_t *>(inputBoxDims);
  cuuint64_t globalDim[5], globalStrides[5];
  cuuint32_t boxDim[5], elementStrides[5];
  for (int64_t i = 0; i < tensorRank; ++i) {
    int64_t dim = tensorRank - 1 - i;
    globalDim[i] = view.sizes[dim];
    boxDim[i] = static_cast<cuuint32_t>(box[dim]);
    elementStrides[i] = 1;
    if (i > 0)
      globalStrides[i - 1] = view.strides[dim] * bytes;
  }
  // The cache key: everything the encoding depends on, so that a hit
  // skips the encoding too (a launch's host time matters for small GEMMs).
  int64_t inputs[] = {tensorRank, tensorDataType, interleave,
                      swizzle,    l2Promotion,    oobFill};
  std::string key(reinterpret_cast<const char *>(inputs), sizeof(inputs));
  char *base = view.aligned + view.offset * bytes;
  key.append(reinterpret_cast<const char *>(&base), sizeof(base));
  key.append(reinterpret_cast<const char *>(globalDim),
             sizeof(cuuint64_t) * tensorRank);
  key.append(reinterpret_cast<const char *>(globalStrides),
             sizeof(cuuint64_t) * (tensorRank - 1));
  key.append(reinterpret_cast<const char *>(boxDim),
             sizeof(cuuint32_t) * tensorRank);
  static std::mutex cacheMutex;
  static std::unordered_map<std::string, CUdeviceptr> cache;
  static std::deque<std::string> age;
  std::lock_guard<std::mutex> lock(cacheMutex);
  auto found = cache.find(key);
  if (found != cache.end())
    return reinterpret_cast<void *>(found->second);
  CUtensorMap map;
  if (CHECK(driver.cuTensorMapEncodeTiled(
                &map, static_cast<CUtensorMapDataType>(tensorDataType),
                static_cast<cuuint32_t>(tensorRank), base, globalDim,
                globalStrides, boxDim, elementStrides,
                static_cast<CUtensorMapInterleave>(interleave),
                static_cast<CUtensorMapSwizzle>(swizzle),
                static_cast<CUtensorMapL2promotion>(l2Promotion),
                static_cast<CUtensorMapFloatOOBfill>(oobFill)),
            "encoding a TMA descriptor"))
    return nullptr;
  // A kernel reads the descriptor from device memory. The same tensor and
  // box (every call of a compiled function on the same buffers) reuse one
  // copy. A new one is copied on the caller's stream when there is one
  // (stream-ordered: no device-wide synchronization, so a buffer allocated
  // per call costs an asynchronous 128-byte copy), synchronously otherwise
  // (each launch then has its own stream and is waited for).
  CUstream stream = useExternalStream.load() ? externalStream.load() : nullptr;
  // Bounded: the oldest copy goes, after the kernels already on its stream.
  constexpr size_t kMaxCachedDescriptors = 1024;
  if (cache.size() >= kMaxCachedDescriptors) {
    CUdeviceptr oldest = cache[age.front()];
    cache.erase(age.front());
    age.pop_front();
    if (stream ? CHECK(driver.cuMemFreeAsync(oldest, stream))
               : CHECK(driver.cuMemFree(oldest)))
      return nullptr;
  }
  CUdeviceptr devMap = 0;
  if (stream ? CHECK(driver.cuMemAllocAsync(&devMap, sizeof(map), stream)) ||
                   CHECK(driver.cuMemcpyAsync(
                       devMap, reinterpret_cast<CUdeviceptr>(&map), sizeof(map),
                       stream))
             : CHECK(driver.cuMemAlloc(&devMap, sizeof(map))) ||
                   CHECK(driver.cuMemcpyHtoD(devMap, &map, sizeof(map))))
    return nullptr;
  cache.emplace(key, devMap);
  age.push_back(std::move(key));
  return reinterpret_cast<void *>(devMap);
}
