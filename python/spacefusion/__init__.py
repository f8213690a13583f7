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

The CPU path (`compile`, `Module`) returns fresh outputs. bf16 has no numpy
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
"""

from .compiler import CompileError, Module, compile, find_tools
from .memref import random_inputs
from . import workloads

__all__ = ["CompileError", "Module", "compile", "find_tools", "random_inputs",
           "workloads"]
