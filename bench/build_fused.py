#!/usr/bin/env python3
"""Builds the compute-bound benchmark workloads (attention, GEMM, MLP, GEMM
chain, LSTM cell) for the GPU, on a machine with this project's build (the
GPU machine has no MLIR):

    /usr/bin/python3 bench/build_fused.py build/fused-bundle

then, on the GPU machine: python3 bench/run_fused.py build/fused-bundle OUTDIR

`--variants "A" "B" ...` builds every workload once per option set (tagged
with its options), so that run_fused.py times them in one process: the way
to measure a change that an option turns off.

Small shapes check correctness (some not multiples of any power-of-two tile);
the shapes of ../shared/docs/baselines.md are timed against PyTorch.
"""
import argparse
import itertools
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import spacefusion as sf  # noqa: E402
from spacefusion.gpu import compile_gpu  # noqa: E402
from common import write_bundle_info  # noqa: E402

# (tag, generator, arguments, dtype, timed)
WORKLOADS = [
    ("attention", "attention", (1, 2, 256, 64), "f16", False),
    ("attention", "attention", (2, 4, 128, 64), "f32", False),
    ("attention", "attention", (1, 2, 200, 64), "f16", False),
    ("attention_d128", "attention", (1, 2, 256, 128), "f16", False),
    ("attention_mask", "attention_mask", (1, 2, 128, 64), "f16", False),
    ("attention_mask", "attention_mask", (2, 8, 1024, 64), "f16", False),
    ("attention_kt", "attention_kt", (2, 8, 1024, 64), "f16", False),
    ("attention_kt", "attention_kt", (1, 4, 512, 128), "f16", False),
    ("gemm", "gemm", (256, 384, 128), "f16", False),
    ("gemm", "gemm", (200, 120, 72), "f16", False),
    ("mlp", "mlp", (256, 128, 512), "f16", False),
    ("gemm_chain", "gemm_chain", (256, (128, 256, 128)), "f16", False),
    ("lstm_cell", "lstm_cell", (64, 256, 256), "f16", False),
    ("lstm_cell", "lstm_cell", (64, 256, 256), "f32", False),
    # ../shared/docs/baselines.md
    ("attention", "attention", (32, 12, 512, 64), "f16", True),
    ("attention", "attention", (4, 32, 2048, 128), "f16", True),
    ("attention", "attention", (8, 16, 1024, 64), "f16", True),
    ("attention", "attention", (1, 32, 4096, 128), "f16", True),
    ("attention", "attention", (16, 12, 128, 64), "f16", True),
    ("attention", "attention", (64, 12, 256, 64), "f16", True),
    ("gemm", "gemm", (8192, 4096, 4096), "f16", True),
    ("gemm", "gemm", (16384, 3072, 768), "f16", True),
    ("gemm", "gemm", (4096, 11008, 4096), "f16", True),
    ("mlp", "mlp", (16384, 768, 3072), "f16", True),
    ("mlp", "mlp", (8192, 4096, 11008), "f16", True),
    ("gemm_chain", "gemm_chain", (8192, (1024, 1024, 1024)), "f16", True),
    ("lstm_cell", "lstm_cell", (256, 1024, 1024), "f16", True),
    # Issue 19: the frontends' mixed-precision attention (P rounded before
    # P.V) and bf16 everywhere.
    ("attention_frontend", "attention_frontend", (1, 2, 256, 64), "f16", False),
    ("attention_frontend", "attention_frontend", (1, 2, 256, 128), "bf16", False),
    ("attention", "attention", (1, 2, 256, 64), "bf16", False),
    ("attention_mask", "attention_mask", (1, 2, 128, 64), "bf16", False),
    ("attention_kt", "attention_kt", (2, 8, 1024, 64), "bf16", False),
    ("gemm", "gemm", (256, 384, 128), "bf16", False),
    ("gemm", "gemm", (200, 120, 72), "bf16", False),
    ("mlp", "mlp", (256, 128, 512), "bf16", False),
    ("gemm_chain", "gemm_chain", (256, (128, 256, 128)), "bf16", False),
    ("lstm_cell", "lstm_cell", (64, 256, 256), "bf16", False),
    ("attention_frontend", "attention_frontend", (4, 32, 2048, 128), "f16", True),
    ("attention_frontend", "attention_frontend", (32, 12, 512, 64), "f16", True),
    ("attention_frontend", "attention_frontend", (4, 32, 2048, 128), "bf16", True),
    ("attention", "attention", (4, 32, 2048, 128), "bf16", True),
    ("gemm", "gemm", (4096, 4096, 4096), "bf16", True),
    ("gemm", "gemm", (8192, 4096, 4096), "bf16", True),
    ("mlp", "mlp", (8192, 768, 3072), "bf16", True),
    # Issue 19: head dims that are no multiple of 64, on wgmma.
    ("attention", "attention", (1, 2, 256, 96), "f16", False),
    ("attention_frontend", "attention_frontend", (2, 4, 1024, 96), "f16", False),
    ("attention_frontend", "attention_frontend", (2, 4, 1024, 80), "bf16", False),
    ("attention", "attention", (2, 4, 1024, 80), "f16", False),
    ("attention", "attention", (4, 32, 2048, 96), "f16", True),
    ("attention_frontend", "attention_frontend", (4, 32, 2048, 96), "bf16", True),
    ("attention", "attention", (4, 32, 2048, 80), "f16", True),
    # Issue 19: a GEMM into an f32 result, operands extended in the body.
    ("gemm_frontend", "gemm_frontend", (256, 384, 128), "f16", False),
    ("gemm_frontend", "gemm_frontend", (2048, 1024, 1024), "bf16", False),
    ("gemm_frontend", "gemm_frontend", (4096, 4096, 4096), "f16", True),
    # Issue 19: a named matmul whose storage type is its compute type
    # (accumulated in f32 by smap-widen-accumulators).
    ("matmul_storage", "matmul_storage", (256, 384, 128), "f16", False),
    ("matmul_storage", "matmul_storage", (2048, 1024, 1024), "bf16", True),
    ("matmul_storage", "matmul_storage", (4096, 4096, 4096), "f16", True),
    # Issue 19: torch-mlir's linear on 3-D input (transposed weight copy,
    # collapse, matmul of storage type, expand).
    ("linear_3d", "linear_3d", (2, 64, 128, 64), "f16", False),
    ("linear_3d", "linear_3d", (2, 256, 256, 256), "f16", False),
    ("linear_3d", "linear_3d", (3, 192, 128, 192), "bf16", False),
    ("linear_3d", "linear_3d", (4, 512, 1024, 1024), "f16", True),
    ("linear_3d", "linear_3d", (8, 1024, 768, 3072), "bf16", True),
    # The 2-D linear with the weight [n, k] in the matmul's indexing maps.
    ("linear", "linear", (256, 384, 128), "f16", False),
    ("linear", "linear", (512, 512, 256), "f16", False),
    ("linear", "linear", (512, 512, 256), "bf16", False),
    ("linear", "linear", (2048, 1024, 1024), "f16", True),
    ("linear", "linear", (8192, 3072, 768), "bf16", True),
    ("linear", "linear", (4096, 4096, 4096), "f16", True),
    # Issue 19: queries and keys of different lengths (b, h, queries, keys,
    # d): cross attention, a decode step, and ViT-B's 197 tokens.
    ("attention_cross", "attention_cross", (1, 2, 64, 512, 64), "f16", False),
    ("attention_cross", "attention_cross", (1, 2, 16, 1024, 128), "bf16", False),
    ("attention_cross", "attention_cross", (8, 16, 128, 4096, 128), "f16", True),
    ("attention_cross", "attention_cross", (1, 32, 16, 4096, 128), "bf16", True),
    # A decode-time projection (16 tokens): 32 blocks of n unless k is
    # split across blocks (split-reductions).
    ("gemm", "gemm", (16, 4096, 4096), "bf16", True),
    ("linear", "linear", (16, 4096, 4096), "bf16", True),
    # Issue 19: sequence lengths no tile divides, on tensor cores (the
    # last tile and slice overlap their neighbours; repeated keys masked).
    ("attention", "attention", (1, 2, 197, 128), "f16", False),
    ("attention_frontend", "attention_frontend", (2, 3, 197, 64), "bf16", False),
    ("attention_cross", "attention_cross", (1, 2, 100, 300, 64), "f16", False),
    ("attention", "attention", (64, 12, 197, 64), "f16", True),
    ("attention_frontend", "attention_frontend", (64, 12, 197, 64), "bf16", True),
    ("attention", "attention", (8, 16, 1000, 64), "f16", True),
    ("attention", "attention", (1, 32, 4095, 128), "f16", True),
    # Issue 20: causal attention as frontends write it (index compare and a
    # select of -inf); the key slices past each query block are skipped.
    ("attention_causal", "attention_causal", (1, 2, 256, 64), "f16", False),
    ("attention_causal_frontend", "attention_causal_frontend", (2, 3, 197, 64), "bf16", False),
    ("attention_causal", "attention_causal", (4, 32, 2048, 128), "f16", True),
    ("attention_causal_frontend", "attention_causal_frontend", (4, 32, 2048, 128), "bf16", True),
    ("attention_causal", "attention_causal", (1, 32, 4096, 128), "f16", True),
    # Sliding windows (b, h, s, d, window): the slices before each query
    # block's first window are skipped too.
    ("attention_window", "attention_window", (1, 2, 256, 64, 64), "f16", False),
    ("attention_window", "attention_window", (1, 32, 8192, 128, 512), "bf16", True),
    ("attention_window", "attention_window", (1, 32, 8192, 128, 4096), "f16", True),
    # Issue 20: the shapes the targets name that were not timed yet: causal
    # at b8 h16 s1024 d64 (with the unmasked attention of the same shape,
    # for the causal / non-causal time ratio) and causal bf16 at s8192 (for
    # the window / causal ratio).
    ("attention_causal", "attention_causal", (8, 16, 1024, 64), "f16", True),
    ("attention_causal_frontend", "attention_causal_frontend", (8, 16, 1024, 64), "bf16", True),
    ("attention", "attention", (8, 16, 1024, 64), "f16", True),
    ("attention_causal", "attention_causal", (1, 32, 8192, 128), "bf16", True),
    # Prefix LM (b, h, s, d, prefix): causal, and the first `prefix` keys
    # seen by every query; the slices past max(block's last query + 1,
    # prefix) are skipped.
    ("attention_prefix", "attention_prefix", (1, 2, 256, 64, 96), "f16", False),
    ("attention_prefix", "attention_prefix", (4, 32, 2048, 128, 512), "bf16", True),
    ("attention_prefix", "attention_prefix", (4, 32, 2048, 128, 1024), "f16", True),
    # Batched GEMMs whose B is batched too (torch.bmm), B read K-major
    # (batch_matmul_transpose_b), and one weight broadcast to every batch:
    # (batch, m, n, k).
    ("batch_matmul", "batch_matmul", (2, 64, 48, 80), "f16", False),
    ("batch_matmul", "batch_matmul", (8, 1024, 512, 1024), "f16", False),
    ("batch_matmul_nk", "batch_matmul_nk", (8, 1024, 512, 1024), "bf16", False),
    ("batch_matmul_shared", "batch_matmul_shared", (8, 1024, 512, 1024), "f16", False),
    ("batch_matmul", "batch_matmul", (8, 1024, 1000, 1000), "f16", False),
    ("batch_matmul", "batch_matmul", (16, 2048, 2048, 1024), "f16", True),
    ("batch_matmul_nk", "batch_matmul_nk", (16, 2048, 2048, 1024), "bf16", True),
    ("batch_matmul_shared", "batch_matmul_shared", (16, 2048, 2048, 1024), "f16", True),
    # Issue 19: a row graph that is not its function's only graph (BERT's
    # output block: the GEMM's graph, then the residual and LayerNorm),
    # a row kernel in place of its launch.
    ("linear_layernorm", "linear_layernorm", (256, 128, 512), "f16", False),
    ("linear_layernorm", "linear_layernorm", (200, 96, 72), "bf16", False),
    ("linear_layernorm", "linear_layernorm", (8192, 768, 3072), "f16", True),
    ("linear_layernorm", "linear_layernorm", (16384, 1024, 4096), "bf16", True),
    # Issue 20: padding masks from a per-batch length (i64 `lens`).
    ("attention_padded", "attention_padded", (2, 2, 256, 64), "f16", False),
    ("attention_padded_frontend", "attention_padded_frontend", (2, 3, 197, 64), "bf16", False),
    ("attention_padded", "attention_padded", (8, 16, 1024, 64), "f16", True),
    ("attention_padded_frontend", "attention_padded_frontend", (4, 32, 2048, 128), "bf16", True),
]

# The generator a workload's reference, FLOP count and baselines come from
# (run_fused.py), where it differs from the generator that writes it.
REFERENCE_OF = {"attention_frontend": "attention", "attention_cross": "attention",
                "attention_causal_frontend": "attention_causal", "gemm_frontend": "gemm",
                "attention_padded_frontend": "attention_padded",
                "matmul_storage": "gemm"}


def source_of(generator, args, dtype):
    if generator == "attention_mask":
        return sf.workloads.attention(*args, dtype=dtype, mask=True), "attention_mask"
    if generator == "attention_window":
        b, h, s, d, w = args
        return sf.workloads.attention(b, h, s, d, dtype=dtype, window=w), "attention_window"
    if generator == "attention_prefix":
        b, h, s, d, prefix = args
        return sf.workloads.attention(b, h, s, d, dtype=dtype, prefix=prefix), "attention_prefix"
    if generator == "attention_causal":
        return sf.workloads.attention(*args, dtype=dtype, causal=True), "attention_causal"
    if generator == "attention_causal_frontend":
        return sf.workloads.attention(*args, dtype=dtype, causal=True, frontend=True), "attention_causal"
    if generator == "attention_padded":
        return sf.workloads.attention(*args, dtype=dtype, padding=True), "attention_padded"
    if generator == "attention_padded_frontend":
        return sf.workloads.attention(*args, dtype=dtype, padding=True, frontend=True), "attention_padded"
    if generator == "attention_cross":
        b, h, queries, keys, d = args
        return sf.workloads.attention(b, h, queries, d, dtype=dtype, kv_seq=keys), "attention"
    if generator == "attention_frontend":
        return sf.workloads.attention(*args, dtype=dtype, frontend=True), "attention"
    if generator == "linear":
        return sf.workloads.linear(*args, dtype=dtype), "linear"
    if generator == "linear_3d":
        return sf.workloads.linear_3d(*args, dtype=dtype), "linear_3d"
    if generator == "matmul_storage":
        return sf.workloads.matmul_storage(*args, dtype=dtype), "gemm"
    if generator == "gemm_frontend":
        return sf.workloads.gemm(*args, dtype=dtype, frontend=True), "gemm"
    if generator == "attention_kt":
        return sf.workloads.attention(*args, dtype=dtype, k_transposed=True), "attention_kt"
    if generator == "gemm_chain":
        return sf.workloads.gemm_chain(args[0], list(args[1]), dtype=dtype), generator
    if generator.startswith("batch_matmul"):
        layout = {"batch_matmul": "kn", "batch_matmul_nk": "nk", "batch_matmul_shared": "shared"}[generator]
        return sf.workloads.batch_matmul(*args, dtype=dtype, b_layout=layout), "batch_matmul"
    return getattr(sf.workloads, generator)(*args, dtype=dtype), generator


def shape_tag(args):
    flat = []
    for a in args:
        flat += list(a) if isinstance(a, (tuple, list)) else [a]
    return "x".join(str(a) for a in flat)


def main():
    parser = argparse.ArgumentParser(description="Builds the GPU fused-graph benchmarks.")
    parser.add_argument("out", nargs="?", default="build/fused-bundle")
    parser.add_argument("--options", default="", help="more --spacefusion-lower-gpu options")
    parser.add_argument("--only", default="", help="build the directories matching this regex")
    parser.add_argument("--time-all", action="store_true",
                        help="time the correctness shapes too (to calibrate the cost model)")
    parser.add_argument("--variants", nargs="+", default=None,
                        help="build each workload once per option set (added to --options)")
    args = parser.parse_args()
    manifest = []
    variants = args.variants or [None]
    for (tag, generator, shape, dtype, timed), (v, variant) in itertools.product(
            WORKLOADS, enumerate(variants)):
        directory = "%s_%s_%s" % (tag, shape_tag(shape), dtype)
        if args.only and not re.search(args.only, directory):
            continue
        options = args.options
        if variant is not None:
            directory += "_v%d" % v
            options = (options + " " + variant).strip()
            tag = "%s [%s]" % (tag, variant or "default")
        timed = timed or args.time_all
        source, function = source_of(generator, shape, dtype)
        entry = {"workload": REFERENCE_OF.get(generator, generator), "tag": tag, "args": shape, "dtype": dtype, "timed": timed,
                 "function": function}
        start = time.time()
        try:
            compile_gpu(source, os.path.join(args.out, directory), options=options)
            entry["dir"] = directory
            entry["compile_s"] = round(time.time() - start, 2)
            print("built", directory, "in %.1f s" % entry["compile_s"], flush=True)
        except sf.CompileError as error:
            entry["error"] = str(error).strip().splitlines()[-1]
            print("not built", directory, entry["error"], flush=True)
        manifest.append(entry)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    write_bundle_info(args.out)


if __name__ == "__main__":
    main()
