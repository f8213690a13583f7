#!/usr/bin/env python3
"""Builds the memory-bound benchmark workloads for the GPU (on a machine with
this project's build; the GPU machine has no MLIR):

    /usr/bin/python3 bench/build_rows.py build/bench-bundle

then, on the GPU machine: python3 bench/run_rows.py build/bench-bundle OUTDIR
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import spacefusion as sf  # noqa: E402
from spacefusion.gpu import compile_gpu  # noqa: E402
from common import write_bundle_info  # noqa: E402

# The shapes of ../shared/docs/baselines.md (fp16).
WORKLOADS = [
    ("layernorm", (16384, 768)), ("layernorm", (16384, 1024)), ("layernorm", (8192, 4096)),
    ("layernorm", (65536, 1024)),
    ("rmsnorm", (16384, 1024)), ("rmsnorm", (65536, 1024)),
    ("softmax", (196608, 512)), ("softmax", (131072, 1024)), ("softmax", (4096, 32768)),
    # Ragged rows (not a multiple of 32 lanes x 16 bytes): masked last chunk.
    ("softmax", (65536, 1000)), ("layernorm", (16384, 5000)), ("softmax", (4096, 32000)),
    # Rows too long for registers, streamed in tiles: vocabularies (GPT-2's
    # 50257 columns, odd; Llama 3's 128256) and a long LayerNorm whose last
    # tile is partial.
    ("softmax", (4096, 50257)), ("softmax", (1024, 128256)), ("layernorm", (512, 100000)),
    ("softmax", (8, 40000)), ("rmsnorm", (16, 65537)),
]


def main():
    parser = argparse.ArgumentParser(description="Builds the GPU row benchmarks.")
    parser.add_argument("out", nargs="?", default="build/bench-bundle")
    parser.add_argument("--options", default="",
                        help='more --spacefusion-lower-gpu options, e.g. "rows-per-block=8"')
    parser.add_argument("--only", default="",
                        help="build only the workloads whose NAME_ROWSxCOLS matches this regex")
    args = parser.parse_args()
    out = args.out
    manifest = []
    for name, (rows, cols) in WORKLOADS:
        if args.only and not re.search(args.only, "%s_%dx%d" % (name, rows, cols)):
            continue
        generator = getattr(sf.workloads, name)
        source = generator(rows, cols, dtype="f16")
        tag = "%s_%dx%d" % (name, rows, cols)
        directory = os.path.join(out, tag)
        try:
            compile_gpu(source, directory, options=args.options)
            manifest.append({"workload": name, "shape": [rows, cols], "dtype": "f16", "dir": tag,
                             "function": name})
            print("built", tag)
        except sf.CompileError as error:
            manifest.append({"workload": name, "shape": [rows, cols], "dtype": "f16", "dir": None,
                             "error": str(error).splitlines()[-1]})
            print("not built", tag, str(error).splitlines()[-1])
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    write_bundle_info(out)


if __name__ == "__main__":
    main()
