"""Memref descriptors for numpy arrays, the C ABI of the shared objects.

A ranked memref is passed as a pointer to
    struct { T *allocated; T *aligned; int64_t offset;
             int64_t sizes[rank]; int64_t strides[rank]; }
(strides in elements); the function `_mlir_ciface_NAME` takes one pointer per
input, then one per output, which it fills.

Element types: f16, f32, f64, i32 and i64 map to numpy dtypes. bf16 has no numpy dtype:
MLIR stores it as 16 bits, so bf16 arguments are torch.bfloat16 tensors,
passed to the shared object as uint16 views of their storage (`bf16_bits`)
and returned as torch.bfloat16 tensors (`bf16_tensor`); numpy arrays are
rejected for bf16 (a bf16 kernel needs torch).
"""

import ctypes
import sys

import numpy as np

# The numpy dtype of each element type numpy can hold (not bf16); integers
# are lengths and indices, i1 masks (a byte of 0 or 1, as LLVM stores i1).
DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_, "i32": np.int32,
          "i64": np.int64}
# The numpy dtype of the storage handed to the shared object.
STORAGE = dict(DTYPES, bf16=np.uint16)
# The torch dtype (by name) of each element type.
TORCH_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
                "i1": "bool", "i32": "int32", "i64": "int64"}
# A quiet NaN of bf16, as its bits: poisons unwritten outputs.
BF16_NAN = 0x7FC0


def is_torch_tensor(value):
    """True for a torch.Tensor (without importing torch when nobody has)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def torch_dtype(dtype):
    """The torch dtype of the element type `dtype` ("f16", "bf16", ...)."""
    import torch
    return getattr(torch, TORCH_DTYPES[dtype])


def bf16_bits(tensor):
    """The bits of a torch.bfloat16 tensor as a C-contiguous uint16 array on
    the host (sharing its storage when it already is one)."""
    import torch
    bits = tensor.detach().cpu().contiguous().view(torch.int16).numpy()
    return bits.view(np.uint16)


def bf16_tensor(bits):
    """A torch.bfloat16 tensor sharing the storage of uint16 array `bits`."""
    import torch
    return torch.from_numpy(np.ascontiguousarray(bits).view(np.int16)).view(torch.bfloat16)


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
    """Uniform random arrays matching `module`'s inputs: numpy arrays, and
    torch.bfloat16 tensors for bf16 inputs (which need torch)."""
    rng = np.random.default_rng(seed)
    inputs = []
    for shape, dtype in module.inputs:
        values = rng.uniform(low, high, size=shape)
        if dtype == "bf16":
            try:
                import torch
            except ImportError:
                raise TypeError("bf16 inputs are torch.bfloat16 tensors (numpy has no bfloat16): "
                                "install torch") from None
            inputs.append(torch.from_numpy(values.astype(np.float32)).to(torch.bfloat16))
        elif dtype == "i1":  # masks: 0 or 1 with equal odds
            inputs.append(rng.integers(0, 2, size=shape).astype(np.bool_))
        else:
            inputs.append(values.astype(DTYPES[dtype]))
    return inputs
