#!/usr/bin/env python3
"""Builds the kernels the end-to-end model benchmark swaps into HuggingFace
models (on a machine with this project's build; the GPU machine has no MLIR):

    /usr/bin/python3 bench/build_e2e.py build/e2e-bundle

then, on the GPU machine: python3 bench/run_e2e.py build/e2e-bundle OUTDIR

BERT-base at batch 16, sequence 512 (../shared/docs/baselines.md): its
attention core (16 x 12 heads x 512 x 64, fp16, no mask) and its LayerNorms
(8192 tokens x 768, eps 1e-12).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import spacefusion as sf  # noqa: E402
from spacefusion.gpu import compile_gpu  # noqa: E402
from common import write_bundle_info  # noqa: E402

KERNELS = {
    "bert_attention": lambda: sf.workloads.attention(16, 12, 512, 64, dtype="f16"),
    "bert_layernorm": lambda: sf.workloads.layernorm(16 * 512, 768, dtype="f16", eps=1e-12),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "build/e2e-bundle"
    manifest = {}
    for tag, source in KERNELS.items():
        text = source()
        function = text.split("@", 1)[1].split("(", 1)[0]
        compile_gpu(text, os.path.join(out, tag))
        manifest[tag] = {"dir": tag, "function": function}
        print("built", tag)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    write_bundle_info(out)


if __name__ == "__main__":
    main()
