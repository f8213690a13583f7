"""Compiles linalg on tensors into a shared object and calls it.

The fused version runs the SpaceFusion pipeline (fusion groups, Space-Mapping
Graph, schedule, spatial and temporal slicing) before the CPU lowering; the
unfused version (fused=False) lowers the same function directly. Both go
through `spacefusion-opt --spacefusion-lower-cpu`, `mlir-translate` and
`clang -shared`.
"""

import ctypes
import hashlib
import logging
import json
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np

from .memref import BF16_NAN, DTYPES, STORAGE, bf16_bits, bf16_tensor, descriptor, is_torch_tensor, \
    torch_dtype

# Compile progress: INFO per module (compiled or cached), DEBUG per tool run
# and per fusion decision.
_log = logging.getLogger("spacefusion")

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:  # written by `cmake --install` next to the installed package
    from . import _config
except ImportError:  # a source checkout, or `pip install ./python`
    _config = None


class CompileError(RuntimeError):
    """A tool failed, or the input cannot be compiled. `error` is the first
    error (the message's first line), `diagnostics` everything the tool
    printed (notes, the IR it was working on), `tool` the tool's name (None
    when no tool ran)."""

    def __init__(self, error, diagnostics="", tool=None):
        self.error = error
        self.diagnostics = diagnostics
        self.tool = tool
        super().__init__(error + ("\n" + diagnostics if diagnostics else ""))

    @classmethod
    def from_tool(cls, tool, stderr):
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        first = next((line for line in lines if "error:" in line), lines[0] if lines else "no message")
        return cls("%s failed: %s" % (tool, first), stderr, tool)


def _spacefusion_bin_dirs(build_dir):
    """Where spacefusion-opt may be, in order: the build directory asked for
    (argument or SPACEFUSION_BUILD_DIR), the install prefix this package
    came with, the source checkout's build/ (then PATH)."""
    build_dir = build_dir or os.environ.get("SPACEFUSION_BUILD_DIR")
    if build_dir:
        return [os.path.join(build_dir, "bin")]
    dirs = [_config.BIN_DIR] if _config else []
    return dirs + [os.path.join(_ROOT, "build", "bin")]


def _llvm_bin_dirs():
    """Where mlir-translate and clang may be: SPACEFUSION_LLVM_BIN, the LLVM
    SpaceFusion was built with (as recorded at install), Debian's LLVM 22
    (then PATH)."""
    dirs = [os.environ["SPACEFUSION_LLVM_BIN"]] if os.environ.get("SPACEFUSION_LLVM_BIN") else []
    if _config:
        dirs.append(_config.LLVM_BIN)
    return dirs + ["/usr/lib/llvm-22/bin"]


def _find_tool(name, dirs, hint):
    for d in dirs:
        path = os.path.join(d, name)
        if os.path.exists(path):
            return path
    found = shutil.which(name)
    if not found:
        raise CompileError("%s not found (looked in %s and PATH); %s" % (name, ", ".join(dirs), hint))
    return found


def find_tools(build_dir=None):
    """Paths of spacefusion-opt, spacefusion-run, mlir-translate and clang."""
    hint = "build SpaceFusion first (scripts/build.sh), or set SPACEFUSION_BUILD_DIR"
    tools = {"spacefusion-opt": _find_tool("spacefusion-opt", _spacefusion_bin_dirs(build_dir), hint)}
    # spacefusion-run from the same build or install, never another one.
    run = os.path.join(os.path.dirname(tools["spacefusion-opt"]), "spacefusion-run")
    if not os.access(run, os.X_OK):
        raise CompileError("spacefusion-run is not next to %s: %s" % (tools["spacefusion-opt"], hint))
    tools["spacefusion-run"] = run
    hint = "install LLVM 22, or set SPACEFUSION_LLVM_BIN"
    for name in ("mlir-translate", "clang"):
        tools[name] = _find_tool(name, _llvm_bin_dirs(), hint)
    tools["lib"] = os.path.join(os.path.dirname(tools["mlir-translate"]), "..", "lib")
    return tools


def compiler_identity(tools):
    """A digest of the tools' paths, sizes and modification times: a cached
    module is reused only with the compiler that built it."""
    stamp = []
    for name in ("spacefusion-opt", "spacefusion-run", "mlir-translate", "clang"):
        info = os.stat(tools[name])
        stamp.append("%s:%d:%d" % (os.path.realpath(tools[name]), info.st_size, info.st_mtime_ns))
    return hashlib.sha256("|".join(stamp).encode()).hexdigest()[:16]


def default_cache_dir():
    """The user's cache (XDG_CACHE_HOME or ~/.cache) for compiled modules."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "spacefusion")


def _signature(source, entry, tools):
    """(name, inputs, outputs) of the entry function (`entry`, or the first
    with a body), each tensor as (shape, dtype), read by the compiler
    (spacefusion-run --print-signature), not parsed from the text."""
    cmd = [tools["spacefusion-run"], "--print-signature", "-"]
    if entry:
        cmd.append("--entry=" + entry)
    signature = json.loads(_run(cmd, stdin=source))
    if not signature["outputs"]:
        raise CompileError("@%s returns no tensor" % signature["name"])
    tensors = lambda ts: [(tuple(t["shape"]), t["dtype"]) for t in ts]
    return signature["name"], tensors(signature["inputs"]), tensors(signature["outputs"])


def _run(cmd, stdin=None, env=None, with_stderr=False):
    """The tool's output (and its stderr too, with `with_stderr`)."""
    _log.debug("running %s", " ".join(cmd))
    result = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise CompileError.from_tool(os.path.basename(cmd[0]), result.stderr)
    return (result.stdout, result.stderr) if with_stderr else result.stdout


# How a function's shared object is linked. -Bsymbolic: the function's own
# name binds to its own definition, not to a library's of the same name (a
# function @select called libc's select and crashed).
SHARED_OBJECT_FLAGS = ["-O2", "-shared", "-fPIC", "-Wno-override-module", "-Wl,-Bsymbolic"]


def _fusion_pipeline(target, spatial, temporal, tf32=False):
    """spacefusion-opt's own pipeline up to the sliced graphs as loops (the
    normalizations, fusion, schedule and slicing spacefusion-run and
    --spacefusion-pipeline run), so that the package compiles what the
    tools compile."""
    options = ["target=" + target, "lower-to-loops=true"]
    if tf32:
        options.append("tf32=true")
    if spatial:
        options.append("spatial=" + ",".join("%s:%d" % kv for kv in spatial.items()))
    if temporal:
        options.append("temporal=" + ",".join("%s:%d" % kv for kv in temporal.items()))
    return "builtin.module(spacefusion-pipeline{%s})" % " ".join(options)


class Module:
    """A compiled function: call it with arrays, get arrays back (see
    __call__; bf16 takes and gives torch.bfloat16 tensors)."""

    def __init__(self, path, name, inputs, outputs, decisions):
        self.path = path
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.decisions = decisions
        self._lib = ctypes.CDLL(path)
        self._fn = getattr(self._lib, "_mlir_ciface_" + name)
        self._fn.restype = None

    def __repr__(self):
        def types(values):
            return ", ".join("%s[%s]" % (dtype, "x".join(map(str, shape))) for shape, dtype in values)
        return "<spacefusion.Module @%s (%s) -> (%s) from %s>" % (
            self.name, types(self.inputs), types(self.outputs), self.path)

    @staticmethod
    def _host_array(array, shape, dtype, what):
        """`array` (numpy, or a torch CPU tensor) as a host array of the
        storage dtype, checked against `shape` and `dtype`: a torch tensor's
        numpy view (bf16: its uint16 bits), a numpy array as it is."""
        if is_torch_tensor(array):
            expected = torch_dtype(dtype)
            if array.dtype != expected:
                raise TypeError("%s must be %s (%s), got %s" % (what, dtype, expected, array.dtype))
            array = bf16_bits(array) if dtype == "bf16" else array.detach().cpu().numpy()
        elif dtype == "bf16":
            raise TypeError("%s is bf16, which numpy cannot hold: pass a torch.bfloat16 "
                            "tensor (got %s)" % (what, type(array).__name__))
        else:
            array = np.asarray(array)
            if array.dtype != DTYPES[dtype]:
                raise TypeError("%s must be %s (%s), got %s"
                                % (what, dtype, np.dtype(DTYPES[dtype]).name, array.dtype))
        if tuple(array.shape) != shape:
            raise ValueError("%s must have shape %s, got %s" % (what, shape, tuple(array.shape)))
        return array

    def _check(self, arrays):
        """The inputs as C-contiguous host arrays of the storage dtype."""
        if len(arrays) != len(self.inputs):
            raise TypeError("@%s takes %d inputs, got %d" % (self.name, len(self.inputs), len(arrays)))
        return [np.ascontiguousarray(self._host_array(array, shape, dtype, "input #%d" % i))
                for i, (array, (shape, dtype)) in enumerate(zip(arrays, self.inputs))]

    def _check_outputs(self, out):
        """Preallocated outputs as host arrays sharing their memory: numpy
        arrays or contiguous torch CPU tensors, C-contiguous and writable."""
        if len(out) != len(self.outputs):
            raise TypeError("@%s has %d outputs, got %d in out=" % (self.name, len(self.outputs), len(out)))
        views = []
        for i, (array, (shape, dtype)) in enumerate(zip(out, self.outputs)):
            what = "output #%d" % i
            if is_torch_tensor(array) and (array.device.type != "cpu" or not array.is_contiguous()):
                raise ValueError("%s must be a contiguous CPU tensor" % what)
            if not is_torch_tensor(array) and not isinstance(array, np.ndarray):
                raise TypeError("%s must be a numpy array or a torch tensor, got %s"
                                % (what, type(array).__name__))
            view = self._host_array(array, shape, dtype, what)
            if not view.flags.c_contiguous or not view.flags.writeable:
                raise ValueError("%s must be C-contiguous and writable" % what)
            views.append(view)
        return views

    def __call__(self, *arrays, out=None):
        """Inputs (numpy arrays or torch CPU tensors; bf16 ones torch.bfloat16
        tensors) in, a list of the outputs back: fresh ones (numpy arrays,
        torch.bfloat16 tensors for bf16), or `out`'s arrays written in place
        when given (as the GPU modules take theirs)."""
        inputs = self._check(arrays)
        if out is not None:
            outputs = self._check_outputs(out)
        else:
            outputs = []
            for shape, dtype in self.outputs:
                array = np.empty(shape, dtype=STORAGE[dtype])
                array.fill(BF16_NAN if dtype == "bf16" else np.nan)  # poisoned: an unwritten element shows
                outputs.append(array)
        descriptors = [descriptor(a) for a in inputs + outputs]
        self._fn(*[ctypes.byref(d) for d in descriptors])
        if out is not None:
            return list(out)
        return [bf16_tensor(array) if dtype == "bf16" else array
                for array, (_, dtype) in zip(outputs, self.outputs)]


def compile(source, entry=None, target="cpu", fused=True, spatial=None, temporal=None,
            cache_dir=None, build_dir=None, tf32=False):
    """Compiles `source` (MLIR text, linalg on tensors) into a shared object.

    spatial / temporal force a schedule, e.g. spatial={"m": 16}, temporal={"n": 128}.
    tf32=True rounds the f32 contractions' factors to TF32 (the pipelines'
    tf32 option), fused or not, so that the CPU computes the products a
    TF32 tensor core would.
    Returns a Module; raises CompileError with the tools' diagnostics.
    """
    tools = find_tools(build_dir)
    name, inputs, outputs = _signature(source, entry, tools)
    pipeline = _fusion_pipeline(target, spatial, temporal, tf32)
    key = hashlib.sha256(("%s|%s|%s|%s|%s|%s" % (source, name, fused, pipeline, compiler_identity(tools),
                                                  " ".join(SHARED_OBJECT_FLAGS)))
                         .encode()).hexdigest()[:16]
    if not cache_dir:
        cache_dir = default_cache_dir()
        try:
            os.makedirs(cache_dir, exist_ok=True)
        except OSError:  # no writable home: the user's own directory in /tmp
            cache_dir = os.path.join(tempfile.gettempdir(), "spacefusion-cache-%d" % os.getuid())
    os.makedirs(cache_dir, exist_ok=True)
    so = os.path.join(cache_dir, "%s-%s.so" % (name, key))
    decisions = []
    _log.info("compiling @%s (%s, %s)", name, target, "fused" if fused else "unfused")
    if fused:
        # One run: the fused IR on stdout, the remarks on stderr.
        fused_ir, remarks = _run([tools["spacefusion-opt"],
                                  "--pass-pipeline=" + pipeline,
                                  "--remarks-filter=smap", "--remark-format=emitRemark", "-"],
                                 stdin=source, with_stderr=True)
        decisions = re.findall(r'Remark="([^"]*)"', remarks)
        for decision in decisions:
            _log.debug("@%s: %s", name, decision)
        source = fused_ir
    elif tf32:
        source = _run([tools["spacefusion-opt"], "--smap-generalize-named-ops",
                       "--smap-round-contractions-to-tf32", "-"], stdin=source)
    if os.path.exists(so):
        _log.info("@%s: cached %s", name, so)
    else:
        llvm_dialect = _run([tools["spacefusion-opt"], "--spacefusion-lower-cpu", "-"], stdin=source)
        llvm_ir = _run([tools["mlir-translate"], "--mlir-to-llvmir", "-"], stdin=llvm_dialect)
        with tempfile.NamedTemporaryFile("w", suffix=".ll", delete=False) as f:
            f.write(llvm_ir)
        try:
            lib = os.path.abspath(tools["lib"])
            _run([tools["clang"]] + SHARED_OBJECT_FLAGS +
                 [f.name, "-o", so + ".tmp", "-L" + lib, "-lmlir_c_runner_utils", "-Wl,-rpath," + lib, "-lm",
                  # f32 -> bf16 truncation calls __truncsfbf2, which libgcc
                  # before GCC 13 lacks: MLIR's float16 utils define it.
                  "-lmlir_float16_utils"])
            os.replace(so + ".tmp", so)
        finally:
            os.unlink(f.name)
    return Module(so, name, inputs, outputs, decisions)
