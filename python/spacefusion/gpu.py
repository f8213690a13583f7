"""The GPU path: compile a workload into a shared object holding its kernel
(cubin for the chip) and host code, linked with SpaceFusion's CUDA runtime;
call it with device tensors.

Compiling needs this project's build (MLIR); running needs only the NVIDIA
driver, numpy/torch and the two shared objects, so objects built on a
machine without a GPU run on one that has one.
"""

import ctypes
import json
import os
import shutil

from .compiler import SHARED_OBJECT_FLAGS, CompileError, _run, _signature, find_tools
from .memref import is_torch_tensor, torch_dtype


_DESCRIPTOR_TYPES = {}


def _descriptor_type(rank):
    """The ctypes struct of a rank-`rank` memref descriptor, made once: making a
    ctypes class per call costs tens of microseconds, more than a small kernel."""
    if rank not in _DESCRIPTOR_TYPES:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p), ("offset", ctypes.c_int64)]
        if rank:
            fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
        _DESCRIPTOR_TYPES[rank] = type("MemRef%dD" % rank, (ctypes.Structure,), {"_fields_": fields})
    return _DESCRIPTOR_TYPES[rank]


class GPURuntimeError(RuntimeError):
    """A failure the CUDA runtime recorded while a module ran (or loaded):
    `code` is the CUDA error code (-1 for the runtime's own errors),
    `message` names the call, the kernel and the CUDA error."""

    def __init__(self, code, message):
        super().__init__("CUDA runtime error %d: %s" % (code, message))
        self.code = code
        self.message = message


def _cuda_env():
    """The environment for the NVVM serialization, which links CUDA's libdevice
    (the math functions) and runs ptxas from the toolkit that CUDA_HOME names."""
    env = dict(os.environ)
    home = next((env[v] for v in ("CUDA_HOME", "CUDA_ROOT", "CUDA_PATH") if env.get(v)),
                "/usr/local/cuda")
    if not os.path.exists(os.path.join(home, "nvvm", "libdevice", "libdevice.10.bc")):
        raise CompileError("CUDA's libdevice was not found under %s: set CUDA_HOME to a CUDA "
                           "toolkit (needed for math functions and ptxas)" % home)
    env["CUDA_HOME"] = home
    return env


def compile_gpu(source, out_dir, chip="sm_90a", entry=None, build_dir=None, options=""):
    """Compiles `source` for the GPU into `out_dir`; returns the path of the
    shared object. The function becomes `_mlir_ciface_NAME(inputs..., outputs...)`
    on memref descriptors of device pointers. `options` are more options of
    --spacefusion-lower-gpu, e.g. "rows-per-block=8 approx-math=false"."""
    tools = find_tools(build_dir)
    name, inputs, outputs = _signature(source, entry, tools)
    os.makedirs(out_dir, exist_ok=True)
    # A cubin, so that the shared object needs only the driver at run time.
    manifest = os.path.join(out_dir, name + ".kernels.json")
    lowered = _run([tools["spacefusion-opt"], "--mlir-print-op-on-diagnostic=false",
                    "--spacefusion-lower-gpu=chip=%s format=bin opt-level=3 kernel-manifest=%s %s"
                    % (chip, manifest, options),
                    "-"],
                   stdin=source, env=_cuda_env())
    llvm_ir = _run([tools["mlir-translate"], "--mlir-to-llvmir", "-"], stdin=lowered)
    runtime = os.path.join(os.path.dirname(tools["spacefusion-opt"]), "..", "lib",
                           "libspacefusion_cuda_runtime.so")
    if not os.path.exists(runtime):
        raise CompileError("libspacefusion_cuda_runtime.so is not built (cuda.h was not found)")
    shutil.copy(runtime, os.path.join(out_dir, "libspacefusion_cuda_runtime.so"))
    ll = os.path.join(out_dir, name + ".ll")
    with open(ll, "w") as f:
        f.write(llvm_ir)
    so = os.path.join(out_dir, "lib%s.so" % name)
    _run([tools["clang"]] + SHARED_OBJECT_FLAGS +
         [ll, "-o", so, "-L" + out_dir, "-lspacefusion_cuda_runtime", "-Wl,-rpath,$ORIGIN"])
    kernels = read_kernel_manifest(manifest).get(name, [])
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump({"name": name, "inputs": inputs, "outputs": outputs, "library": os.path.basename(so),
                   "kernels": kernels,
                   "kernel": "; ".join(describe_kernel(k) for k in kernels) or None}, f)
    return so


def read_kernel_manifest(path):
    """{function name: [kernel records]} from smap-write-kernel-manifest's JSON:
    each record has strategy, blocks, threads, smem, scratch and parts."""
    with open(path) as f:
        manifest = json.load(f)
    return {fn["name"]: fn["kernels"] for fn in manifest["functions"]}


def describe_kernel(kernel):
    """'wgmma_tma blocks=6 threads=128 smem=66560 stages=2 ...' for tables."""
    text = "%s blocks=%d threads=%d smem=%d" % (kernel["strategy"], kernel["blocks"],
                                              kernel["threads"], kernel["smem"])
    if kernel.get("scratch"):
        text += " scratch=%d" % kernel["scratch"]
    for key, value in sorted(kernel.get("parts", {}).items()):
        text += " %s=%d" % (key, value)
    return text


class GPUModule:
    """A compiled GPU function, called with torch CUDA tensors (contiguous,
    16-byte aligned, of the exact dtype: f16 torch.float16, bf16
    torch.bfloat16, f32 torch.float32). A failure the CUDA runtime records
    during a call (including a module that failed to load, e.g. no driver)
    raises GPURuntimeError after it; with `use_stream`, errors of the kernel's
    execution itself surface at a later call or through `check()` after a
    synchronization.
    """

    def __init__(self, directory, name):
        with open(os.path.join(directory, name + ".json")) as f:
            meta = json.load(f)
        self.name = name
        self.inputs = [(tuple(s), t) for s, t in meta["inputs"]]
        self.outputs = [(tuple(s), t) for s, t in meta["outputs"]]
        self._lib = ctypes.CDLL(os.path.join(directory, meta["library"]))
        # The runtime the kernel library is linked with (one per process,
        # whichever copy was loaded first): look its functions up through the
        # kernel library, never by a path of its own.
        self.runtime = self._lib
        self.runtime.spacefusionRuntimeGetErrorMessage.restype = ctypes.c_char_p
        self._get_error = self.runtime.spacefusionRuntimeGetError
        self._fn = getattr(self._lib, "_mlir_ciface_" + name)
        self._fn.restype = None

    def use_stream(self, stream):
        """Enqueue on `stream` (a CUstream handle, e.g.
        torch.cuda.current_stream().cuda_stream) and return without waiting."""
        self.runtime.spacefusionRuntimeSetStream(ctypes.c_void_p(stream))

    def error(self):
        """The first error the runtime recorded since it was last cleared, as
        (code, message), or None; it stays recorded (see `check`)."""
        code = self._get_error()
        return (code, self.runtime.spacefusionRuntimeGetErrorMessage().decode()) if code else None

    def check(self):
        """Raises GPURuntimeError if the runtime recorded an error, and clears
        it (the runtime keeps only the first error until cleared)."""
        error = self.error()
        if error:
            self.runtime.spacefusionRuntimeClearError()
            raise GPURuntimeError(*error)

    def _descriptor(self, tensor, shape, dtype, what):
        if not is_torch_tensor(tensor):
            raise TypeError("%s must be a torch CUDA tensor, got %s.%s (GPU kernels take torch CUDA tensors, "
                            "e.g. torch.from_numpy(a).cuda())"
                            % (what, type(tensor).__module__, type(tensor).__qualname__))
        if tuple(tensor.shape) != shape:
            raise ValueError("%s must have shape %s, got %s" % (what, shape, tuple(tensor.shape)))
        expected = torch_dtype(dtype)
        if tensor.dtype != expected:
            raise TypeError("%s must be %s (%s), got %s" % (what, dtype, expected, tensor.dtype))
        if not tensor.is_cuda or not tensor.is_contiguous():
            raise ValueError("%s must be a contiguous CUDA tensor" % what)
        if tensor.data_ptr() % 16:
            # The kernels use 16-byte vector accesses (see convert-smap-to-gpu).
            raise ValueError("%s must be 16-byte aligned (a view at an offset is not)" % what)
        desc = _descriptor_type(len(shape))()
        desc.allocated = desc.aligned = tensor.data_ptr()
        desc.offset = 0
        for i, (size, stride) in enumerate(zip(tensor.shape, tensor.stride())):
            desc.sizes[i], desc.strides[i] = size, stride
        return desc

    def bind(self, *args, check=True):
        """A zero-argument callable running on these tensors, with the
        descriptors built once (the argument checks run here, not per call).
        With check=False it skips reading the runtime's error state after
        each call (one ctypes call); call `check()` yourself then."""
        descs = self._descriptors(args)
        refs = [ctypes.byref(d) for d in descs]
        fn = self._fn
        if not check:
            return lambda: fn(*refs)
        get_error, check_error = self._get_error, self.check

        def call():
            fn(*refs)
            if get_error():
                check_error()
        return call

    def __call__(self, *args):
        """Inputs, then preallocated outputs (CUDA tensors). Raises
        GPURuntimeError if the runtime recorded an error."""
        self._fn(*[ctypes.byref(d) for d in self._descriptors(args)])
        self.check()

    def _descriptors(self, args):
        expected = len(self.inputs) + len(self.outputs)
        if len(args) != expected:
            raise TypeError("@%s takes %d inputs and %d outputs, got %d tensors"
                            % (self.name, len(self.inputs), len(self.outputs), len(args)))
        specs = self.inputs + self.outputs
        return [self._descriptor(t, s, d, ("input #%d" % i) if i < len(self.inputs)
                                 else "output #%d" % (i - len(self.inputs)))
                for i, (t, (s, d)) in enumerate(zip(args, specs))]
