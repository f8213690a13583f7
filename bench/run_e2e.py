#!/usr/bin/env python3
"""End-to-end inference with SpaceFusion's kernels inside a HuggingFace model,
on the GPU machine:

    python3 bench/run_e2e.py build/e2e-bundle OUTDIR

BERT-base (built from its config, random weights, fp16, batch 16, sequence
512, no padding): HF eager attention, HF SDPA attention, torch.compile of
the SDPA model, and the SDPA model with SpaceFusion's fused attention
kernel serving `scaled_dot_product_attention` and its LayerNorm kernel
serving every `nn.LayerNorm` (everything else stays PyTorch's). The
outputs of the SpaceFusion run are compared with the SDPA model's first
(last hidden state, max abs error), then each variant's forward pass is
timed (median of `triton.testing.do_bench`). Writes OUTDIR/e2e.json and
OUTDIR/e2e.md.
"""
import contextlib
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from spacefusion.gpu import GPUModule  # noqa: E402
from common import describe, machine_info, median_ms  # noqa: E402

BATCH, SEQ, HEADS, HEAD_DIM, HIDDEN = 16, 512, 12, 64, 768


class Swapped:
    """Counts the calls SpaceFusion's kernels served and those left to PyTorch."""

    def __init__(self, bundle):
        with open(os.path.join(bundle, "manifest.json")) as f:
            manifest = json.load(f)

        def load(tag):
            entry = manifest[tag]
            module = GPUModule(os.path.join(bundle, entry["dir"]), entry["function"])
            module.use_stream(torch.cuda.current_stream().cuda_stream)
            return module
        self.attention = load("bert_attention")
        self.layernorm = load("bert_layernorm")
        self.served = {"attention": 0, "layernorm": 0}
        self.fallback = {"attention": 0, "layernorm": 0}

    def sdpa(self, original):
        def call(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, **kwargs):
            if (q.shape == (BATCH, HEADS, SEQ, HEAD_DIM) and q.dtype == torch.float16 and attn_mask is None
                    and not is_causal and dropout_p == 0.0 and not any(kwargs.values())
                    and (scale is None or abs(scale - HEAD_DIM ** -0.5) < 1e-6)):
                self.served["attention"] += 1
                out = torch.empty(q.shape, device=q.device, dtype=q.dtype)
                self.attention(q.contiguous(), k.contiguous(), v.contiguous(), out)
                return out
            self.fallback["attention"] += 1
            return original(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal,
                            scale=scale, **kwargs)
        return call

    def layer_norm(self, original):
        def call(x, normalized_shape, weight=None, bias=None, eps=1e-5):
            if (x.dtype == torch.float16 and tuple(normalized_shape) == (HIDDEN,) and x.numel() == BATCH * SEQ * HIDDEN
                    and weight is not None and bias is not None and abs(eps - 1e-12) < 1e-15):
                self.served["layernorm"] += 1
                out = torch.empty(x.shape, device=x.device, dtype=x.dtype)
                self.layernorm(x.contiguous().view(-1, HIDDEN), weight, bias, out.view(-1, HIDDEN))
                return out
            self.fallback["layernorm"] += 1
            return original(x, normalized_shape, weight, bias, eps)
        return call

    @contextlib.contextmanager
    def installed(self):
        sdpa, layer_norm = F.scaled_dot_product_attention, F.layer_norm
        F.scaled_dot_product_attention = self.sdpa(sdpa)
        F.layer_norm = self.layer_norm(layer_norm)
        try:
            yield
        finally:
            F.scaled_dot_product_attention, F.layer_norm = sdpa, layer_norm


def wall_ms(call, iterations=20):
    """Wall time per forward of back-to-back calls (host enqueue and device
    work overlapping, as in a serving loop), L2 not flushed."""
    import time
    call()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iterations):
        call()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3 / iterations


def bert(implementation):
    from transformers import BertConfig, BertModel
    torch.manual_seed(0)
    model = BertModel._from_config(BertConfig(), attn_implementation=implementation)
    return model.to("cuda", torch.float16).eval()


def main():
    bundle, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    import transformers
    swapped = Swapped(bundle)
    ids = torch.randint(0, 30522, (BATCH, SEQ), device="cuda", generator=torch.Generator("cuda").manual_seed(1))
    sdpa_model, eager_model = bert("sdpa"), bert("eager")
    row = {"model": "BERT-base", "shape": "b%d s%d" % (BATCH, SEQ), "transformers": transformers.__version__}
    with torch.no_grad():
        reference = sdpa_model(input_ids=ids).last_hidden_state.float()
        with swapped.installed():
            ours = sdpa_model(input_ids=ids).last_hidden_state.float()
        torch.cuda.synchronize()
        row["served"], row["fallback"] = dict(swapped.served), dict(swapped.fallback)
        row["max_abs_error"] = float((ours - reference).abs().max())
        row["max_abs_reference"] = float(reference.abs().max())
        row["correct"] = bool(torch.isfinite(ours).all() and row["max_abs_error"] <= 2e-2 * row["max_abs_reference"])
        compiled = torch.compile(sdpa_model)
        compiled(input_ids=ids)

        def run_ours():
            with swapped.installed():
                sdpa_model(input_ids=ids)
        variants = {"HF eager attention": lambda: eager_model(input_ids=ids),
                    "HF SDPA attention": lambda: sdpa_model(input_ids=ids),
                    "torch.compile (SDPA)": lambda: compiled(input_ids=ids)}
        if row["correct"]:
            variants["SDPA model + SpaceFusion attention and LayerNorm"] = run_ours
        for label, call in variants.items():
            row[label + " ms"] = median_ms(call, rep=500)
            row[label + " wall ms"] = wall_ms(call)
    print(json.dumps(row), flush=True)
    info = machine_info(bundle)
    with open(os.path.join(out, "e2e.json"), "w") as f:
        json.dump({"info": info, "results": [row]}, f, indent=1)
    lines = ["# End-to-end inference with SpaceFusion kernels inside HuggingFace models", "",
             "%s, transformers %s. Models built from their configs with random weights, fp16, no padding; "
             "median of `triton.testing.do_bench` over the forward pass (500 ms of runs, L2 flushed). "
             "SpaceFusion serves `scaled_dot_product_attention` (fused attention kernel) and `layer_norm` "
             "(row kernel) where the shapes match the compiled ones; everything else is PyTorch's. Its output "
             "is checked against the SDPA model's first: max abs error %.3g (max |ref| %.3g): %s; calls "
             "served %s, left to PyTorch %s." % (describe(info), row["transformers"], row["max_abs_error"],
                                                 row["max_abs_reference"], "correct" if row["correct"] else "WRONG",
                                                 row["served"], row["fallback"]), "",
             "| model | shape | variant | do_bench ms (L2 flushed) | wall ms per forward (20 back to back) |",
             "|---|---|---|---|---|"] + [
             "| %s | %s | %s | %.2f | %.2f |" % (row["model"], row["shape"], k[:-3], v, row[k[:-3] + " wall ms"])
             for k, v in row.items() if k.endswith(" ms") and not k.endswith(" wall ms")]
    with open(os.path.join(out, "e2e.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
