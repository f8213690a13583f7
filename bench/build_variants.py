#!/usr/bin/env python3
"""Builds schedule variants of one benchmark workload (forced spatial tiles
and temporal slices, `--spacefusion-lower-gpu` options) into a bundle that
bench/run_fused.py runs, to measure what the cost model should prefer:

    /usr/bin/python3 bench/build_variants.py OUT gemm 8192,4096,4096 \\
        "spatial=m:128,n:256 temporal=k:32" "spatial=m:128,n:128 temporal=k:64"

`--dtype bf16` (first) builds another element type than f16.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import spacefusion as sf  # noqa: E402
from spacefusion.gpu import compile_gpu  # noqa: E402
from build_fused import REFERENCE_OF, source_of  # noqa: E402


def main():
    argv = sys.argv[1:]
    dtype = "f16"
    if argv[:1] == ["--dtype"]:
        dtype, argv = argv[1], argv[2:]
    out, workload, shape = argv[0], argv[1], [int(a) for a in argv[2].split(",")]
    args = [shape[0], shape[1:]] if workload == "gemm_chain" else shape
    source, function = source_of(workload, args, dtype)
    manifest = []
    for i, options in enumerate(argv[3:] or [""]):
        directory = "%s_v%d" % (workload, i)
        entry = {"workload": REFERENCE_OF.get(workload, workload), "tag": "%s [%s]" % (workload, options or "default"),
                 "args": args, "dtype": dtype, "timed": True, "function": function}
        try:
            compile_gpu(source, os.path.join(out, directory), options=options)
            entry["dir"] = directory
            print("built", directory, options, flush=True)
        except sf.CompileError as error:
            entry["error"] = str(error).strip().splitlines()[0]
            print("not built", directory, options, entry["error"], flush=True)
        manifest.append(entry)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
