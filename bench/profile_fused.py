#!/usr/bin/env python3
"""Where the time of one bundled graph goes on the GPU: runs it under the
PyTorch profiler (CUPTI sees the driver-API launches of our runtime too),
L2 flushed before each call as `triton.testing.do_bench` does, and prints
each call's device activities (kernels, memsets, copies) with the idle gaps
between them, then the medians over the calls.

    python3 bench/profile_fused.py build/fused-bundle REGEX [--calls N]
"""
import argparse
import json
import os
import re
import statistics
import sys
import time

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from spacefusion.gpu import GPUModule  # noqa: E402
from run_fused import DTYPES  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("only", help="the first bundle directory matching this regex")
    parser.add_argument("--calls", type=int, default=5)
    options = parser.parse_args()
    with open(os.path.join(options.bundle, "manifest.json")) as f:
        entry = next(e for e in json.load(f) if e.get("dir") and re.search(options.only, e["dir"]))
    module = GPUModule(os.path.join(options.bundle, entry["dir"]), entry["function"])
    dtype = DTYPES[entry["dtype"]]
    rng = np.random.default_rng(0)
    inputs = [torch.from_numpy(rng.uniform(-1, 1, s).astype(np.float32)).to("cuda", dtype)
              for s, _ in module.inputs]
    outputs = [torch.empty(s, device="cuda", dtype=dtype) for s, _ in module.outputs]
    module.use_stream(torch.cuda.current_stream().cuda_stream)
    call = module.bind(*inputs, *outputs, check=False)
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    for _ in range(10):
        call()
    torch.cuda.synchronize()
    # The host's share: the time to enqueue one call (the device idles
    # behind it when the call's own work is short).
    enqueue = []
    for _ in range(20):
        torch.cuda.synchronize()
        begin = time.perf_counter()
        call()
        enqueue.append((time.perf_counter() - begin) * 1e6)
    torch.cuda.synchronize()
    print("host: %.1f us to enqueue one call (median of 20)" % statistics.median(enqueue), flush=True)
    marks = []
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(options.calls):
            flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            call()
            end.record()
            marks.append((start, end))
        torch.cuda.synchronize()
    events = sorted((e for e in prof.events() if e.device_type.name == "CUDA"),
                    key=lambda e: e.time_range.start)
    # One call: the device activities after a flush (the fill kernel) up to
    # the next flush.
    calls, current = [], None
    for e in events:
        if "fill" in e.name.lower() or "zero" in e.name.lower():
            current = []
            calls.append(current)
        elif current is not None:
            current.append(e)
    per_call = []
    for i, activities in enumerate(calls):
        if not activities:
            continue
        print("call %d (events: %.1f us)" % (i, marks[i][0].elapsed_time(marks[i][1]) * 1e3))
        previous = None
        for e in activities:
            gap = e.time_range.start - previous if previous is not None else 0.0
            print("  %+8.1f us gap  %8.1f us  %s" % (gap, e.time_range.elapsed_us(), e.name[:70]))
            previous = e.time_range.end
        busy = sum(e.time_range.elapsed_us() for e in activities)
        span = activities[-1].time_range.end - activities[0].time_range.start
        per_call.append((busy, span, marks[i][0].elapsed_time(marks[i][1]) * 1e3))
    if per_call:
        print("median: device busy %.1f us, first to last activity %.1f us, events %.1f us" % tuple(
            statistics.median(c[k] for c in per_call) for k in range(3)))


if __name__ == "__main__":
    main()
