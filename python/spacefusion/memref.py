"""Memref descriptors for numpy arrays, the C ABI of the shared objects.

A ranked memref is passed as a pointer to
    struct { T *allocated; T *aligned; int64_t offset;
             int64_t sizes[rank]; int64_t strides[rank]; }
(strides in elements); the function `_mlir_ciface_NAME` takes one pointer per
input, then one per output, which it fills.
"""

import ctypes

import numpy as np

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def descriptor_type(rank):
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank),
                   ("strides", ctypes.c_int64 * rank)]
    return type("MemRef%dD" % rank, (ctypes.Structure,), {"_fields_": fields})


def descriptor(array):
    """A descriptor viewing `array` (C-contiguous), kept alive by the caller."""
    desc = descriptor_type(array.ndim)()
    pointer = array.ctypes.data_as(ctypes.c_void_p)
    desc.allocated = pointer
    desc.aligned = pointer
    desc.offset = 0
    for i, (size, stride) in enumerate(zip(array.shape, array.strides)):
        desc.sizes[i] = size
        desc.strides[i] = stride // array.itemsize
    return desc


def random_inputs(module, seed=0, low=-1.0, high=1.0):
    """Uniform random arrays matching `module`'s inputs."""
    rng = np.random.default_rng(seed)
    return [rng.uniform(low, high, size=shape).astype(DTYPES[dtype])
            for shape, dtype in module.inputs]
