#!/usr/bin/env python3
"""Runs the compute-bound fused graphs on the GPU machine: correctness first
(fresh random inputs, outputs poisoned, a float32 numpy reference, every
runtime error checked), then, for the shapes of ../shared/docs/baselines.md,
median times of SpaceFusion's kernels against PyTorch eager, torch.compile,
SDPA (FlashAttention-2, cuDNN and memory-efficient backends) for attention
and cuBLAS for GEMM, in the same process, with the cuBLAS ceiling (an
8192^3 fp16 GEMM) measured in the same process too. After timing, every
kernel's outputs are checked again.

    python3 bench/run_fused.py build/fused-bundle OUTDIR [--ours-only] [--only REGEX]

Writes OUTDIR/fused.json and OUTDIR/fused.md. `--ours-only` skips the
baselines and `--only` keeps the bundle directories matching REGEX (quick
checks while developing; the recorded results use neither).
"""
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from spacefusion import workloads  # noqa: E402
from spacefusion.gpu import GPUModule  # noqa: E402
from common import describe, gemm_ceiling_TFLOPs, machine_info, median_ms, run_checked  # noqa: E402

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "i64": torch.int64}


def padded_lengths(batch, keys):
    """The per-batch valid lengths the padded workloads run with: spread
    evenly from a quarter of the keys to all of them (as a batch of
    requests of mixed lengths), the same for every run."""
    return [max(1, round(keys * (0.25 + 0.75 * i / max(1, batch - 1)))) for i in range(batch)]


def flops(name, args):
    if name in ("attention", "attention_mask"):
        # (b, h, s, d), or (b, h, queries, keys, d).
        b, h, s, t, d = args if len(args) == 5 else args[:3] + [args[2], args[3]]
        return 4 * b * h * s * t * d
    if name == "attention_causal":
        # The multiply-adds of the unmasked pairs (FlashAttention counts
        # causal attention as half of the dense one).
        b, h, s, d = args
        return 4 * b * h * d * s * (s + 1) // 2
    if name == "attention_window":
        b, h, s, d, w = args
        return 4 * b * h * d * sum(min(i + 1, w) for i in range(s))
    if name == "attention_prefix":
        b, h, s, d, prefix = args
        return 4 * b * h * d * sum(max(i + 1, prefix) for i in range(s))
    if name == "attention_padded":
        # Every query against the valid keys of its batch.
        b, h, s, d = args
        return 4 * h * d * s * sum(padded_lengths(b, s))
    if name == "gemm":
        m, n, k = args
        return 2 * m * n * k
    if name.startswith("batch_matmul"):
        b, m, n, k = args
        return 2 * b * m * n * k
    if name == "linear":
        m, n, k = args
        return 2 * m * n * k
    if name == "linear_3d":
        b, s, k, n = args
        return 2 * b * s * k * n
    if name == "mlp":
        t, hid, inner = args
        return 4 * t * hid * inner
    if name == "linear_layernorm":
        t, hid, inner = args
        return 2 * t * hid * inner
    if name == "gemm_chain":
        m, dims = args
        return sum(2 * m * dims[i - 1] * dims[i] for i in range(1, len(dims)))
    if name == "lstm_cell":
        batch, inputs, hidden = args
        return 2 * batch * 4 * hidden * (inputs + hidden)
    return 0


def masked_baselines(scale, keep, mask_mod, batch, s):
    """Attention with the boolean mask `keep` (broadcast to the scores):
    eager and torch.compile with it, SDPA's mask-taking backends, and
    FlexAttention with the block mask of `mask_mod` (which skips the hidden
    blocks, as we do). Extra inputs (a padded workload's lengths) are
    ignored: the mask already holds them."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def eager(q, k, v, *_):
        x = (torch.matmul(q, k.transpose(-1, -2)) * scale).masked_fill(~keep, float("-inf"))
        return torch.matmul(torch.softmax(x.float(), dim=-1).to(q.dtype), v)

    def sdpa(backend):
        def call(q, k, v, *_):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        return call
    calls = {"eager": eager, "torch.compile": torch.compile(eager, dynamic=False),
             "SDPA cuDNN (mask)": sdpa(SDPBackend.CUDNN_ATTENTION),
             "SDPA mem-efficient (mask)": sdpa(SDPBackend.EFFICIENT_ATTENTION)}
    try:
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
        block_mask = create_block_mask(mask_mod, batch, None, s, s, device="cuda")
        flex = torch.compile(flex_attention, dynamic=False)
        calls["FlexAttention"] = lambda q, k, v, *_: flex(q, k, v, block_mask=block_mask)
    except Exception as e:  # an older torch
        print("no FlexAttention:", str(e).splitlines()[0][:120])
    return calls


def window_baselines(args, scale):
    """A sliding window of `w` keys up to the query."""
    s, w = args[2], args[4]
    rows = torch.arange(s, device="cuda")[:, None]
    cols = torch.arange(s, device="cuda")[None, :]
    keep = (cols <= rows) & (rows - cols < w)
    return masked_baselines(scale, keep, lambda b, h, q, kv: (kv <= q) & (q - kv < w), None, s)


def prefix_baselines(args, scale):
    """Causal, and the first `prefix` keys seen by every query."""
    s, prefix = args[2], args[4]
    rows = torch.arange(s, device="cuda")[:, None]
    cols = torch.arange(s, device="cuda")[None, :]
    keep = (cols <= rows) | (cols < prefix)
    return masked_baselines(scale, keep, lambda b, h, q, kv: (kv <= q) | (kv < prefix), None, s)


def padded_baselines(args, scale):
    """Keys from lens[b] on hidden."""
    b, s = args[0], args[2]
    lens = torch.tensor(padded_lengths(b, s), device="cuda")
    keep = (torch.arange(s, device="cuda")[None, :] < lens[:, None])[:, None, None, :]
    return masked_baselines(scale, keep, lambda bi, h, q, kv: kv < lens[bi], b, s)


def baselines(name, args):
    """Callables on the same torch inputs: label -> fn(*inputs)."""
    if name == "attention_padded":
        return padded_baselines(args, 1.0 / math.sqrt(args[-1]))
    if name in ("attention", "attention_mask", "attention_causal", "attention_window", "attention_prefix"):
        scale = 1.0 / math.sqrt(args[3] if name in ("attention_window", "attention_prefix") else args[-1])

        def eager(q, k, v, mask=None):
            s = torch.matmul(q, k.transpose(-1, -2)) * scale
            if mask is not None:
                s = s + mask
            return torch.matmul(torch.softmax(s.float(), dim=-1).to(q.dtype), v)

        calls = {"eager": eager, "torch.compile": torch.compile(eager, dynamic=False)}
        from torch.nn.attention import SDPBackend, sdpa_kernel

        def sdpa(backend):
            def call(q, k, v, mask=None):
                with sdpa_kernel(backend):
                    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
            return call

        if name == "attention_window":
            return window_baselines(args, scale)
        if name == "attention_prefix":
            return prefix_baselines(args, scale)
        if name == "attention_causal":
            def causal(backend):
                def call(q, k, v):
                    with sdpa_kernel(backend):
                        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
                return call

            def eager_causal(q, k, v):
                s = torch.matmul(q, k.transpose(-1, -2)) * scale
                hidden = torch.ones(s.shape[-2:], dtype=torch.bool, device=s.device).triu(1)
                s = s.masked_fill(hidden, float("-inf"))
                return torch.matmul(torch.softmax(s.float(), dim=-1).to(q.dtype), v)
            return {"eager": eager_causal, "torch.compile": torch.compile(eager_causal, dynamic=False),
                    "SDPA flash": causal(SDPBackend.FLASH_ATTENTION),
                    "SDPA cuDNN": causal(SDPBackend.CUDNN_ATTENTION),
                    "SDPA mem-efficient": causal(SDPBackend.EFFICIENT_ATTENTION)}
        calls["SDPA flash"] = sdpa(SDPBackend.FLASH_ATTENTION)
        calls["SDPA cuDNN"] = sdpa(SDPBackend.CUDNN_ATTENTION)
        calls["SDPA mem-efficient"] = sdpa(SDPBackend.EFFICIENT_ATTENTION)
        return calls
    if name == "gemm":
        return {"cuBLAS": torch.matmul}
    if name in ("batch_matmul", "batch_matmul_shared"):
        return {"cuBLAS": torch.matmul}
    if name == "batch_matmul_nk":
        return {"cuBLAS": lambda a, b: torch.matmul(a, b.transpose(-1, -2))}
    if name in ("linear", "linear_3d"):
        return {"cuBLAS (F.linear)": F.linear}
    if name == "mlp":
        def mlp(x, w1, b1, w2, b2):
            return F.gelu(x @ w1 + b1, approximate="tanh") @ w2 + b2
        return {"eager": mlp, "torch.compile": torch.compile(mlp, dynamic=False)}
    if name == "linear_layernorm":
        def block(x, w, bias, res, g, b):
            return F.layer_norm(x @ w + bias + res, (w.shape[1],), g, b, 1e-5)
        return {"eager": block, "torch.compile": torch.compile(block, dynamic=False)}
    if name == "gemm_chain":
        def chain(a, *ws):
            for w in ws:
                a = a @ w
            return a
        return {"eager": chain, "torch.compile": torch.compile(chain, dynamic=False)}
    if name == "lstm_cell":
        def cell(x, wx, h, wh, bias, c):
            gates = x @ wx + h @ wh + bias
            i, f, g, o = gates.chunk(4, dim=1)
            c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            return torch.sigmoid(o) * torch.tanh(c2), c2
        return {"eager": cell, "torch.compile": torch.compile(cell, dynamic=False)}
    return {}


def prepare(module, args, dtype):
    """Fixed random inputs (uniform in [-1, 1), rounded to `dtype`; a padded
    workload's lengths) and NaN-poisoned outputs for `module`, on the GPU,
    with the module on the current stream."""
    torch_dtype = DTYPES[dtype]
    rng = np.random.default_rng(0)
    arrays = [rng.uniform(-1, 1, shape).astype(np.float32) for shape, _ in module.inputs]
    inputs = [torch.from_numpy(a).to("cuda", torch_dtype) for a in arrays]
    for i, (shape, t) in enumerate(module.inputs):
        if t == "i64":  # the per-batch lengths of a padded workload
            inputs[i] = torch.tensor(padded_lengths(shape[0], args[2]), dtype=torch.int64, device="cuda")
    # An output may be wider than the inputs (a GEMM into f32).
    outputs = [torch.full(shape, float("nan"), device="cuda", dtype=DTYPES.get(t, torch_dtype))
               for shape, t in module.outputs]
    module.use_stream(torch.cuda.current_stream().cuda_stream)
    return inputs, outputs


def reference(name, args, inputs):
    """The float32 numpy reference of workload `name` on `inputs` as rounded
    to the kernel's dtype."""
    extra = ({"window": args[4]} if name == "attention_window" else
             {"prefix": args[4]} if name == "attention_prefix" else {})
    return workloads.reference(name, *[t.float().cpu().numpy() for t in inputs], **extra)


def check(name, args, module, inputs, outputs, refs=None):
    """Poisons the outputs, runs the kernel, compares with the float32
    reference (`refs`, computed here when not given): (correct, max abs
    error, runtime error or None)."""
    for out in outputs:
        out.fill_(float("nan"))
    error = run_checked(module, *inputs, *outputs)
    if refs is None:
        refs = reference(name, args, inputs)
    worst, ok = 0.0, error is None
    for got, ref in zip(outputs, refs):
        got = got.float().cpu().numpy()
        err = np.abs(got - ref)
        bound = 1e-2 * np.abs(ref).max() + 1e-2 * np.abs(ref)
        worst = max(worst, float(np.nanmax(err)) if np.isfinite(got).all() else float("inf"))
        ok = ok and bool(np.isfinite(got).all() and (err <= bound).all())
    return ok, worst, error


def main():
    import argparse
    import re
    parser = argparse.ArgumentParser(description="Runs the compute-bound fused graphs on the GPU.")
    parser.add_argument("bundle")
    parser.add_argument("out")
    parser.add_argument("--ours-only", action="store_true", help="skip the baselines")
    parser.add_argument("--only", default="", help="bundle directories matching this regex")
    options = parser.parse_args()
    bundle, out = options.bundle, options.out
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(bundle, "manifest.json")) as f:
        manifest = json.load(f)
    results = []
    for entry in manifest:
        if options.only and not re.search(options.only, entry.get("dir") or ""):
            continue
        name, args, dtype = entry["workload"], entry["args"], entry["dtype"]
        row = {"workload": entry["tag"], "args": args, "dtype": dtype, "timed": entry["timed"]}
        if not entry.get("dir"):
            row["error"] = entry.get("error", "not built")
            print(json.dumps(row), flush=True)
            results.append(row)
            continue
        directory = os.path.join(bundle, entry["dir"])
        module = GPUModule(directory, entry["function"])
        with open(os.path.join(directory, entry["function"] + ".json")) as f:
            row["kernel"] = json.load(f).get("kernel")
        inputs, outputs = prepare(module, args, dtype)

        # Correctness first.
        ok, worst, error = check(name, args, module, inputs, outputs)
        row["max_abs_error"] = worst
        row["correct"] = ok
        if error:
            row["runtime_error"] = error[1]
        if entry["timed"] and ok:
            fl = flops(name, args)
            bound_call = module.bind(*inputs, *outputs, check=False)
            row["spacefusion_ms"] = median_ms(bound_call)
            for label, fn in ({} if options.ours_only else baselines(name, args)).items():
                try:
                    fn(*inputs)
                    row[label + "_ms"] = median_ms(lambda: fn(*inputs))
                except Exception as e:  # a backend may not support a shape
                    row[label + "_error"] = str(e).splitlines()[0][:120]
            for key in list(row):
                if key.endswith("_ms"):
                    row[key[:-3] + "_TFLOPs"] = fl / (row[key] * 1e-3) / 1e12
            again, _, _ = check(name, args, module, inputs, outputs)
            row["correct_after_timing"] = again
            row["correct"] = ok and again
        print(json.dumps(row), flush=True)
        results.append(row)

    info = machine_info(bundle)
    ceiling = None if options.ours_only else gemm_ceiling_TFLOPs()
    info["cublas_8192_TFLOPs"] = ceiling
    if ceiling:
        for r in results:
            if "spacefusion_TFLOPs" in r:
                r["of_cublas_ceiling"] = r["spacefusion_TFLOPs"] / ceiling
    with open(os.path.join(out, "fused.json"), "w") as f:
        json.dump({"info": info, "results": results}, f, indent=1)
    lines = ["# Compute-bound fused graphs on the GPU", "",
             "%s. Correctness: outputs poisoned with NaN, inputs uniform in [-1, 1], float32 numpy "
             "reference, |err| <= 1e-2 max|ref| + 1e-2 |ref|, checked before timing and again after. "
             "Times: median of `triton.testing.do_bench` (200 ms of runs, L2 flushed); TFLOP/s of the "
             "graph's multiply-adds. Ceiling measured in the same run: cuBLAS 8192^3 fp16 at %s TFLOP/s."
             % (describe(info), "%.0f" % ceiling if ceiling else "(not measured)"), "",
             "| workload | shape | dtype | correct | max error | SpaceFusion TFLOP/s | of cuBLAS ceiling "
             "| baselines TFLOP/s | our kernel |", "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        shape = "x".join(str(a) for a in (r["args"][:1] + r["args"][1] if r["workload"] == "gemm_chain"
                                          else r["args"]))
        if "error" in r:
            lines.append("| %s | %s | %s | not built: %s | | | | | |" % (r["workload"], shape, r["dtype"], r["error"]))
            continue
        base = ", ".join("%s %.1f" % (k[:-7], v) for k, v in r.items()
                         if k.endswith("_TFLOPs") and not k.startswith("spacefusion"))
        ours = "%.2f" % r["spacefusion_TFLOPs"] if "spacefusion_TFLOPs" in r else ""
        share = "%.0f%%" % (100 * r["of_cublas_ceiling"]) if "of_cublas_ceiling" in r else ""
        lines.append("| %s | %s | %s | %s | %.2g | %s | %s | %s | %s |" % (
            r["workload"], shape, r["dtype"], "yes" if r["correct"] else "NO", r["max_abs_error"], ours, share,
            base, r.get("kernel") or ""))
    with open(os.path.join(out, "fused.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
