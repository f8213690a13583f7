#!/usr/bin/env python3
"""Shows why run_rows.py's graph timing keeps PyTorch's outputs alive during
the capture: times torch.compile's graph with its outputs dropped (the
graph's memory pool then hands one call's freed output, still in L2, to the
next call) and kept, and ours writing to 1, 3 or 20 output buffers.

    python3 bench/graph_outputs.py BUNDLE    # on the GPU; prints GB/s
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from spacefusion.gpu import GPUModule  # noqa: E402
from run_rows import graph_ms, make_inputs, on_capture_stream, torch_fn  # noqa: E402

SHAPES = [("layernorm", 16384, 1024), ("rmsnorm", 16384, 1024), ("layernorm", 16384, 768)]


def main():
    bundle = sys.argv[1]
    for name, rows, cols in SHAPES:
        directory = os.path.join(bundle, "%s_%dx%d" % (name, rows, cols))
        if not os.path.isdir(directory):
            continue
        inputs = [make_inputs(name, rows, cols, seed) for seed in range(3)]
        compiled = torch.compile(torch_fn(name), dynamic=False)
        kept = []
        timings = {
            "torch.compile, outputs dropped": graph_ms([lambda i=i: compiled(*i) for i in inputs]),
            "torch.compile, outputs kept": graph_ms(
                [lambda i=i: kept.append(compiled(*i)) for i in inputs], kept=kept)}
        module = GPUModule(directory, name)
        for buffers in (1, 3, 20):
            outputs = [torch.empty(rows, cols, device="cuda", dtype=torch.float16)
                       for _ in range(buffers)]
            calls = [on_capture_stream(module, module.bind(*inputs[k % len(inputs)],
                                                           outputs[k % buffers], check=False))
                     for k in range(max(buffers, len(inputs)))]
            timings["SpaceFusion, %d output buffers" % buffers] = graph_ms(calls)
            module.use_stream(torch.cuda.current_stream().cuda_stream)
        gigabytes = 4 * rows * cols / 1e9
        for label, ms in timings.items():
            print("%s %dx%d  %-34s %6.0f GB/s" % (name, rows, cols, label, gigabytes / (ms * 1e-3)),
                  flush=True)


if __name__ == "__main__":
    main()
