"""The GPU path up to the launch, on any machine with a CUDA toolkit (no GPU
needed): compile to a shared object, its metadata and C entry point, the
diagnostics for graphs the row kernels do not take, and argument checks that
run before anything is launched, and errors the CUDA runtime records raising
in Python. The launches themselves run in bench/ on the GPU machine."""

import ctypes
import json
import os

import numpy as np
import pytest

import spacefusion as sf
from spacefusion.gpu import GPUModule, GPURuntimeError, compile_gpu

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="the argument checks take torch tensors")

CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")
pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(CUDA_HOME, "nvvm", "libdevice", "libdevice.10.bc"))
    or not os.path.exists(os.path.join(CUDA_HOME, "bin", "ptxas")),
    reason="needs a CUDA toolkit (libdevice, ptxas)")


@pytest.fixture(scope="module")
def layernorm(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("layernorm"))
    try:
        compile_gpu(sf.workloads.layernorm(64, 768, dtype="f16"), directory)
    except sf.CompileError as error:
        if "libspacefusion_cuda_runtime.so is not built" in str(error):
            pytest.skip(str(error))
        raise
    return directory


def test_shared_object_and_metadata(layernorm):
    with open(os.path.join(layernorm, "layernorm.json")) as f:
        meta = json.load(f)
    assert meta["inputs"] == [[[64, 768], "f16"], [[768], "f16"], [[768], "f16"]]
    assert meta["outputs"] == [[[64, 768], "f16"]]
    # 768 f16 = 24 per lane: one warp per row, 3 16-byte accesses per lane.
    # Built as its schedule predicted it.
    assert meta["kernels"] == [{"strategy": "rows", "blocks": 32, "threads": 64, "smem": 0, "scratch": 0,
                                "parts": {"rows": 64, "rows_per_block": 2, "vector": 8, "chunks": 3},
                                "predicted": {"strategy": "rows", "blocks": 32, "threads": 64, "smem": 0,
                                              "regs": 0, "stages": 0}}]
    assert meta["kernel"] == "rows blocks=32 threads=64 smem=0 chunks=3 rows=64 rows_per_block=2 vector=8"
    lib = ctypes.CDLL(os.path.join(layernorm, meta["library"]))
    assert hasattr(lib, "_mlir_ciface_layernorm")
    assert hasattr(lib, "spacefusionRuntimeGetError")


@needs_torch
@pytest.mark.parametrize("x_shape, x_dtype, error, message", [
    ((64, 512), "float16", ValueError, r"input #0 must have shape \(64, 768\), got \(64, 512\)"),
    ((64, 768), "float32", TypeError, r"input #0 must be f16 \(torch.float16\), got torch.float32"),
    # Same element size as f16, still the wrong dtype.
    ((64, 768), "bfloat16", TypeError, r"input #0 must be f16 \(torch.float16\), got torch.bfloat16"),
    # Right shape and dtype, but in host memory.
    ((64, 768), "float16", ValueError, "input #0 must be a contiguous CUDA tensor"),
])
def test_bad_arguments_are_rejected_before_launch(layernorm, x_shape, x_dtype, error, message):
    module = GPUModule(layernorm, "layernorm")
    x = torch.zeros(*x_shape, dtype=getattr(torch, x_dtype))
    g = torch.zeros(768, dtype=torch.float16)
    with pytest.raises(error, match=message):
        module(x, g, g, torch.zeros(64, 768, dtype=torch.float16))


@needs_torch
def test_wrong_arity_is_rejected(layernorm):
    module = GPUModule(layernorm, "layernorm")
    with pytest.raises(TypeError, match="takes 3 inputs and 1 outputs, got 1 tensors"):
        module(torch.zeros(64, 768, dtype=torch.float16))


def test_numpy_arrays_are_rejected(layernorm):
    module = GPUModule(layernorm, "layernorm")
    x, g = np.zeros((64, 768), np.float16), np.zeros(768, np.float16)
    with pytest.raises(TypeError, match=r"input #0 must be a torch CUDA tensor, got numpy.ndarray "
                                        r"\(GPU kernels take torch CUDA tensors"):
        module(x, g, g, np.zeros((64, 768), np.float16))


def test_runtime_errors_raise(layernorm, monkeypatch):
    """An error the runtime records during a call raises GPURuntimeError and
    is cleared. The kernel entry point is replaced by a runtime call that
    fails without a GPU (a kernel lookup in a module that failed to load),
    and the argument checks (tested above) by nothing."""
    module = GPUModule(layernorm, "layernorm")
    module.runtime.spacefusionRuntimeClearError()  # e.g. "no CUDA driver" from loading here
    monkeypatch.setattr(module, "_descriptors", lambda args: [])
    monkeypatch.setattr(module, "_fn", lambda: module.runtime.mgpuModuleGetFunction(None, b"kernel"))
    with pytest.raises(GPURuntimeError, match="looking up kernel 'kernel' in a module that failed to load") as info:
        module()
    assert info.value.code == -1
    assert module.error() is None
    call = module.bind()
    with pytest.raises(GPURuntimeError, match="looking up kernel 'kernel'"):
        call()
    assert module.error() is None


def test_f16_gemm_runs_on_tensor_cores(tmp_path):
    compile_gpu(sf.workloads.gemm(256, 384, 128, dtype="f16"), str(tmp_path))
    meta = json.loads((tmp_path / "gemm.json").read_text())
    [kernel] = meta["kernels"]
    assert kernel["strategy"] == "mma_sync"
    assert kernel["parts"]["mma_sync"] == 1 and kernel["parts"]["ldmatrix"] == 2


def test_f32_gemm_runs_on_cuda_cores(tmp_path):
    compile_gpu(sf.workloads.gemm(128, 128, 64, dtype="f32"), str(tmp_path))
    meta = json.loads((tmp_path / "gemm.json").read_text())
    assert "fma=1" in meta["kernel"] and "mma.sync" not in meta["kernel"]
