"""Every workload, compiled fused (SpaceFusion) and unfused, run on the CPU on
random inputs and compared with a float32 numpy reference.

Tolerance: |out - ref| <= atol * max|ref| + rtol * |ref| with (atol, rtol) =
(2e-5, 1e-4) for f32, (1e-2, 1e-2) for f16 (whose inputs and outputs are
rounded to 11 bits; the computation runs in f32) and (1e-2, 1e-2) for bf16:
the reference takes the inputs as rounded to bf16, the computation runs in
f32, so the error is the final rounding of each output to 8 significant bits
(at most 2^-8 = 3.9e-3 relative) plus f32 noise.

bf16 has no numpy dtype: its inputs and outputs are torch.bfloat16 tensors
(the bf16 cases need torch).
"""

import numpy as np
import pytest

import spacefusion as sf

try:
    import torch
except ImportError:
    torch = None

TOLERANCE = {"f32": (2e-5, 1e-4), "f16": (1e-2, 1e-2), "bf16": (1e-2, 1e-2)}

# name, generator arguments, forced schedules (None: searched).
CASES = [
    ("gemm", dict(m=32, n=48, k=64), [None, dict(spatial={"m": 8}, temporal={"k": 16})]),
    ("softmax", dict(rows=16, cols=256), [None, dict(temporal={"n": 64})]),
    ("layernorm", dict(rows=16, hidden=256), [None, dict(spatial={"m": 4}, temporal={"n": 64})]),
    ("rmsnorm", dict(rows=16, hidden=256), [None, dict(temporal={"n": 32})]),
    ("attention", dict(batch=1, heads=2, seq=64, head_dim=16),
     [None, dict(spatial={"h": 1, "m": 16}, temporal={"l": 16})]),
    ("attention", dict(batch=1, heads=2, seq=16, head_dim=16, kv_seq=96),
     [None, dict(spatial={"h": 1}, temporal={"l": 32})]),
    ("attention_causal", dict(batch=1, heads=2, seq=64, head_dim=16, causal=True),
     [None, dict(spatial={"h": 1, "m": 16}, temporal={"l": 16})]),
    ("attention_window", dict(batch=1, heads=2, seq=64, head_dim=16, window=24),
     [None, dict(spatial={"h": 1, "m": 16}, temporal={"l": 16})]),
    # A prefix LM: causal, the first 40 keys seen by every query.
    ("attention_prefix", dict(batch=1, heads=2, seq=64, head_dim=16, prefix=40),
     [None, dict(spatial={"h": 1, "m": 16}, temporal={"l": 16})]),
    ("attention_mask", dict(batch=1, heads=2, seq=64, head_dim=16, mask=True),
     [None, dict(spatial={"h": 1}, temporal={"l": 32})]),
    ("attention_kt", dict(batch=1, heads=2, seq=64, head_dim=16, k_transposed=True),
     [None, dict(spatial={"h": 1, "m": 16}, temporal={"l": 16})]),
    ("mlp", dict(tokens=16, hidden=32, inner=64), [None, dict(temporal={"l": 16})]),
    ("gemm_chain", dict(m=16, dims=[32, 48, 32, 16]), [None]),
    ("lstm_cell", dict(batch=8, inputs=32, hidden=16), [None]),
    ("linear_layernorm", dict(tokens=16, hidden=64, inner=32), [None]),
    ("batch_matmul", dict(batch=2, m=32, n=48, k=64), [None]),
    ("batch_matmul_nk", dict(batch=2, m=32, n=48, k=64, b_layout="nk"), [None]),
    ("batch_matmul_shared", dict(batch=2, m=32, n=48, k=64, b_layout="shared"), [None]),
]


def generate(name, args, dtype):
    family = next((f for f in ("attention", "batch_matmul") if name.startswith(f)), name)
    generator = getattr(sf.workloads, family)
    return generator(dtype=dtype, **args)


def check(outputs, references, dtype):
    atol, rtol = TOLERANCE[dtype]
    for out, ref in zip(outputs, references):
        if dtype == "bf16":
            assert isinstance(out, torch.Tensor) and out.dtype == torch.bfloat16
            out = out.float().numpy()
        out = out.astype(np.float32)
        assert np.all(np.isfinite(out)), "an output was left unwritten or is not finite"
        bound = atol * np.abs(ref).max() + rtol * np.abs(ref)
        err = np.abs(out - ref)
        assert np.all(err <= bound), "max error %g exceeds the tolerance" % err.max()


@pytest.mark.parametrize("dtype", ["f32", "f16", pytest.param(
    "bf16", marks=pytest.mark.skipif(torch is None, reason="bf16 values are torch tensors"))])
@pytest.mark.parametrize("name,args,schedules", CASES, ids=[c[0] for c in CASES])
def test_fused_matches_reference(name, args, schedules, dtype):
    source = generate(name, args, dtype)
    for schedule in schedules:
        module = sf.compile(source, **(schedule or {}))
        inputs = sf.random_inputs(module, seed=1)
        check(module(*inputs), sf.workloads.reference(name, *inputs, window=args.get("window"),
                                                      prefix=args.get("prefix")), dtype)


@pytest.mark.parametrize("name,args,schedules", CASES[:4], ids=[c[0] for c in CASES[:4]])
def test_unfused_matches_reference(name, args, schedules):
    module = sf.compile(generate(name, args, "f32"), fused=False)
    inputs = sf.random_inputs(module, seed=2)
    check(module(*inputs), sf.workloads.reference(name, *inputs), "f32")


@pytest.mark.skipif(torch is None, reason="bf16 values are torch tensors")
@pytest.mark.parametrize("name,args", [(c[0], c[1]) for c in CASES[1:3]], ids=[c[0] for c in CASES[1:3]])
def test_bf16_unfused_matches_reference(name, args):
    module = sf.compile(generate(name, args, "bf16"), fused=False)
    inputs = sf.random_inputs(module, seed=3)
    assert all(t.dtype == torch.bfloat16 for t in inputs)
    check(module(*inputs), sf.workloads.reference(name, *inputs), "bf16")


def test_bf16_needs_torch_tensors():
    module = sf.compile(sf.workloads.softmax(8, 64, dtype="bf16"))
    with pytest.raises(TypeError, match="input #0 is bf16, which numpy cannot hold: pass a torch.bfloat16"):
        module(np.zeros((8, 64), np.float32))
    if torch is not None:
        with pytest.raises(TypeError, match=r"input #0 must be bf16 \(torch.bfloat16\), got torch.float16"):
            module(torch.zeros(8, 64, dtype=torch.float16))


def test_decisions_are_reported():
    module = sf.compile(sf.workloads.attention(1, 2, 64, 16), spatial={"h": 1}, temporal={"l": 16})
    text = "\n".join(module.decisions)
    assert "dim 'l' (64) is temporal" in text
    assert "dim 'l' sliced temporally by 16" in text
