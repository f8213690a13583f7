#!/usr/bin/env python3
"""Where the graph-replay time of a row benchmark goes: captures the same
batches as run_rows.py's graph timing (calls going round input sets that do
not fit in L2 together) for our kernel and torch.compile's, replays them under
the PyTorch profiler and prints, for each, the median kernel duration, the
median idle gap between consecutive kernels and the replay's time per call.

    python3 bench/profile_rows_graph.py REGEX BUNDLE [BUNDLE ...]
"""
import argparse
import os
import statistics
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from spacefusion.gpu import GPUModule  # noqa: E402
from run_rows import (GRAPH_BATCH, capture_graph, check, input_set_count, make_inputs,  # noqa: E402
                      matching_entries, on_capture_stream, torch_fn)


def kernel_stats(graph, replays=5):
    for _ in range(3):
        graph.replay()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(replays):
            graph.replay()
        torch.cuda.synchronize()
    kernels = sorted((e for e in prof.events() if e.device_type.name == "CUDA"),
                     key=lambda e: e.time_range.start)
    durations = [e.time_range.elapsed_us() for e in kernels]
    gaps = [b.time_range.start - a.time_range.end for a, b in zip(kernels, kernels[1:])]
    gaps = [g for g in gaps if g < 20]  # not the host gap between replays
    return kernels[0].name[:40], statistics.median(durations), statistics.median(gaps)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only")
    parser.add_argument("bundles", nargs="+")
    args = parser.parse_args()
    compiled_done = set()
    for bundle, entry in matching_entries(args.bundles, args.only):
        name, (rows, cols) = entry["workload"], entry["shape"]
        sets = input_set_count(rows, cols)
        inputs = [make_inputs(name, rows, cols, seed) for seed in range(sets)]
        outputs = [torch.empty(rows, cols, device="cuda", dtype=torch.float16)
                   for _ in range(sets)]
        module = GPUModule(os.path.join(bundle, entry["dir"]), entry["function"])
        module.use_stream(torch.cuda.current_stream().cuda_stream)
        correct, _, _ = check(name, module, inputs[0], outputs[0])
        bound = [module.bind(*i, o, check=False) for i, o in zip(inputs, outputs)]
        labels = [("%s %s" % (os.path.basename(bundle.rstrip("/")), entry["dir"]),
                   [on_capture_stream(module, c) for c in bound], None)]
        if entry["dir"] not in compiled_done:
            compiled_done.add(entry["dir"])
            compiled = torch.compile(torch_fn(name), dynamic=False)
            kept = []
            labels.append(("torch.compile %s" % entry["dir"],
                           [lambda i=i: kept.append(compiled(*i)) for i in inputs], kept))
        for label, calls, kept in labels:
            graph = capture_graph(calls, kept=kept)
            kernel, duration, gap = kernel_stats(graph)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(20):
                graph.replay()
            end.record()
            torch.cuda.synchronize()
            per_call = start.elapsed_time(end) * 1e3 / (20 * GRAPH_BATCH)
            print("%-45s correct=%s kernel %-40s %.2f us, gap %.2f us, per call %.2f us"
                  % (label, correct, kernel, duration, gap, per_call), flush=True)
        module.use_stream(torch.cuda.current_stream().cuda_stream)


if __name__ == "__main__":
    main()
