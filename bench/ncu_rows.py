#!/usr/bin/env python3
"""Runs row kernels of one or more bundles next to torch.compile's kernels for
the same workload, between cudaProfilerStart/Stop, so that Nsight Compute
reads both kernels' counters in one process:

    ncu --clock-control none --profile-from-start off --csv --page details \\
        python3 bench/ncu_rows.py REGEX BUNDLE [BUNDLE ...]

Every kernel runs `--calls` times on fresh inputs after a warm-up (compilation
and module loading stay outside the profiled range). Correctness is checked
before the profiled range, as in run_rows.py.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from spacefusion.gpu import GPUModule  # noqa: E402
from run_rows import check, make_inputs, matching_entries, torch_fn  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", help="workloads whose NAME_ROWSxCOLS matches this regex")
    parser.add_argument("bundles", nargs="+")
    parser.add_argument("--calls", type=int, default=3)
    args = parser.parse_args()
    runs = []
    compiled_for = {}
    for bundle, entry in matching_entries(args.bundles, args.only):
        name, (rows, cols) = entry["workload"], entry["shape"]
        module = GPUModule(os.path.join(bundle, entry["dir"]), entry["function"])
        module.use_stream(torch.cuda.current_stream().cuda_stream)
        inputs = [make_inputs(name, rows, cols, seed) for seed in range(args.calls)]
        outputs = [torch.empty(rows, cols, device="cuda", dtype=torch.float16)
                   for _ in range(args.calls)]
        correct, error, _ = check(name, module, inputs[0], outputs[0])
        print("%s %s: correct=%s max_abs_error=%.3g" % (bundle, entry["dir"], correct, error),
              flush=True)
        runs.append([module.bind(*i, o, check=False) for i, o in zip(inputs, outputs)])
        key = (name, rows, cols)
        if key not in compiled_for:
            compiled = torch.compile(torch_fn(name), dynamic=False)
            compiled(*inputs[0])
            compiled_for[key] = [lambda c=compiled, i=i: c(*i) for i in inputs]
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    for calls in runs + list(compiled_for.values()):
        for call in calls:
            call()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()


if __name__ == "__main__":
    main()
