"""SpaceFusion from Python: workload generators, ahead-of-time compilation
through the SpaceFusion pipeline, and execution with numpy arrays (or torch
tensors) with shape and dtype checks.

    import numpy as np
    import spacefusion as sf

    source = sf.workloads.layernorm(rows=256, hidden=1024, dtype="f32")
    fused = sf.compile(source, target="cpu")          # SpaceFusion pipeline
    x, gamma, beta = sf.random_inputs(fused, seed=0)
    (y,) = fused(x, gamma, beta)
    ref = sf.workloads.reference("layernorm", x, gamma, beta)
    assert np.allclose(y, ref, rtol=1e-4, atol=1e-5)

Only the CPU path exists today; the GPU path will reuse the same calling
convention (a shared object exporting `_mlir_ciface_<function>`).
"""

from .compiler import CompileError, Module, compile, find_tools
from .memref import random_inputs
from . import workloads

__all__ = ["CompileError", "Module", "compile", "find_tools", "random_inputs",
           "workloads"]
