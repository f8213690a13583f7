"""SpaceFusion from Python: workload generators, ahead-of-time compilation
through the SpaceFusion pipeline, and execution with shape and dtype checks,
on the CPU (numpy arrays or torch tensors) and on NVIDIA GPUs (torch CUDA
tensors).

    import numpy as np
    import spacefusion as sf

    source = sf.workloads.layernorm(rows=256, hidden=1024, dtype="f32")
    fused = sf.compile(source, target="cpu")          # SpaceFusion pipeline
    x, gamma, beta = sf.random_inputs(fused, seed=0)
    (y,) = fused(x, gamma, beta)
    ref = sf.workloads.reference("layernorm", x, gamma, beta)
    assert np.allclose(y, ref, rtol=1e-4, atol=1e-5)

The CPU path (`compile`, `Module`) returns fresh outputs, or writes into
preallocated ones given as `module(*inputs, out=[...])` (as the GPU modules
take theirs). Progress is logged to the "spacefusion" logger (INFO: each
module compiled or found in the cache; DEBUG: each tool run and fusion
decision). A `CompileError` has the first error as its message's first line
(`error`), and everything the tool printed in `diagnostics`. bf16 has no numpy
dtype: bf16 functions take and return torch.bfloat16 tensors (numpy arrays
are rejected), and `random_inputs` makes torch.bfloat16 tensors for them.

The GPU path (`spacefusion.gpu`): `compile_gpu(source, directory)` builds a
shared object holding the cubin and host code, linked with SpaceFusion's
CUDA runtime (compiling needs a CUDA toolkit, running only the driver), and
`GPUModule(directory, name)(inputs..., outputs...)` runs it on contiguous,
16-byte aligned torch CUDA tensors of the exact dtype (f16, bf16, f32) into
preallocated outputs; errors the CUDA runtime records raise
`spacefusion.gpu.GPURuntimeError`. `python3 -m spacefusion cpu|gpu FILE -o DIR`
does either from the command line. Both paths export the same calling
convention: `_mlir_ciface_<function>(inputs..., outputs...)` on memref
descriptors.

Installing: `cmake --install BUILD --prefix PREFIX` puts the package under
PREFIX/lib/python (add it to PYTHONPATH), where it finds PREFIX/bin's
spacefusion-opt (and spacefusion-run beside it) and the LLVM the project was built with; `pip install
./python` installs the package alone, which then finds spacefusion-opt in
SPACEFUSION_BUILD_DIR/bin or on PATH (and LLVM's tools in
SPACEFUSION_LLVM_BIN, /usr/lib/llvm-22/bin or on PATH). Compiled CPU modules
are cached per user (XDG_CACHE_HOME or ~/.cache, `spacefusion/`), keyed by
the source, the options and the compiler binaries.
"""

# The project's version (CMakeLists.txt's project() VERSION; a test checks).
__version__ = "0.1.0"

from .compiler import CompileError, Module, compile, find_tools
from .memref import random_inputs
from . import workloads

__all__ = ["CompileError", "Module", "compile", "find_tools", "random_inputs",
           "workloads", "__version__"]
