#!/usr/bin/env python3
"""Runs the memory-bound benchmarks on the GPU machine: correctness first,
then median times of SpaceFusion's kernels, PyTorch eager and torch.compile
in the same process.

    python3 bench/run_rows.py build/bench-bundle OUTDIR

Writes OUTDIR/rows.json and OUTDIR/rows.md. Bandwidth counts the bytes of the
input read once and the output written once.
"""
import datetime
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from spacefusion.gpu import GPUModule  # noqa: E402

EPS = {"layernorm": 1e-5, "rmsnorm": 1e-6}
ROTATE = 1


def torch_fn(name):
    if name == "layernorm":
        return lambda x, g, b: F.layer_norm(x, (x.shape[-1],), g, b, EPS[name])
    if name == "rmsnorm":
        return lambda x, g: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + EPS[name])
                             * g.float()).to(x.dtype)
    return lambda x: torch.softmax(x, dim=-1)


def reference(name, args):
    a = [t.float() for t in args]
    if name == "layernorm":
        return F.layer_norm(a[0], (a[0].shape[-1],), a[1], a[2], EPS[name])
    if name == "rmsnorm":
        return a[0] * torch.rsqrt(a[0].pow(2).mean(-1, keepdim=True) + EPS[name]) * a[1]
    return torch.softmax(a[0], dim=-1)


def make_inputs(name, rows, cols, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float16, generator=g)
    if name == "softmax":
        return [x]
    gamma = torch.rand(cols, device="cuda", dtype=torch.float16, generator=g) + 0.5
    if name == "rmsnorm":
        return [x, gamma]
    return [x, gamma, torch.randn(cols, device="cuda", dtype=torch.float16, generator=g)]


def graph_ms(call, batch=20):
    """Device time of one call: `batch` calls captured in a CUDA graph,
    replays timed by do_bench, divided by `batch` (no launch overhead)."""
    import triton.testing
    call()  # compile / load outside the capture
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        for _ in range(batch):
            call()
    return triton.testing.do_bench(graph.replay, warmup=10, rep=200, return_mode="median") / batch


def median_ms(fn, inputs_sets):
    """Median time of one call, by triton.testing.do_bench (the method of
    ../shared/docs/baselines.md: CUDA events, L2 flushed between runs)."""
    import triton.testing
    state = {"i": 0}

    def call():
        state["i"] += 1
        fn(*inputs_sets[state["i"] % len(inputs_sets)])

    return triton.testing.do_bench(call, warmup=25, rep=200, return_mode="median")


def main():
    bundle, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(bundle, "manifest.json")) as f:
        manifest = json.load(f)
    results = []
    for entry in manifest:
        name, (rows, cols) = entry["workload"], entry["shape"]
        row = {"workload": name, "shape": "%dx%d" % (rows, cols), "dtype": "f16"}
        if not entry.get("dir"):
            row["error"] = entry.get("error", "not built")
            results.append(row)
            continue
        module = GPUModule(os.path.join(bundle, entry["dir"]), entry["function"])
        with open(os.path.join(bundle, entry["dir"], entry["function"] + ".json")) as f:
            row["kernel"] = json.load(f).get("kernel")
        module.use_stream(torch.cuda.current_stream().cuda_stream)
        inputs_sets = [make_inputs(name, rows, cols, seed) for seed in range(ROTATE)]
        outputs = [torch.empty(rows, cols, device="cuda", dtype=torch.float16) for _ in range(ROTATE)]

        # Correctness first: poisoned outputs, fresh random inputs.
        outputs[0].fill_(float("nan"))
        module(*inputs_sets[0], outputs[0])
        torch.cuda.synchronize()
        error = module.error()
        ref = reference(name, inputs_sets[0])
        err = (outputs[0].float() - ref).abs()
        bound = 1e-2 * ref.abs().max() + 1e-2 * ref.abs()
        row["max_abs_error"] = float(err.max())
        row["correct"] = bool(error is None and torch.isfinite(outputs[0]).all() and (err <= bound).all())
        if error:
            row["runtime_error"] = error[1]
        eager = torch_fn(name)
        compiled = torch.compile(eager, dynamic=False)
        bytes_moved = 2 * rows * cols * 2
        bound_call = module.bind(*inputs_sets[0], outputs[0])
        calls = {
            "spacefusion": lambda *a: bound_call(),
            "eager": eager,
            "torch.compile": compiled,
        }
        for label, fn in calls.items():
            ms = median_ms(fn, inputs_sets)
            row[label + "_ms"] = ms
            row[label + "_GBps"] = bytes_moved / (ms * 1e-3) / 1e9

        def ours_in_graph():
            # Inside the capture the current stream is the capture stream.
            module.use_stream(torch.cuda.current_stream().cuda_stream)
            bound_call()

        args = inputs_sets[0]
        for label, call in {"spacefusion": ours_in_graph, "eager": lambda: eager(*args),
                            "torch.compile": lambda: compiled(*args)}.items():
            ms = graph_ms(call)
            row[label + "_graph_ms"] = ms
            row[label + "_graph_GBps"] = bytes_moved / (ms * 1e-3) / 1e9
        module.use_stream(torch.cuda.current_stream().cuda_stream)
        row["vs_compile_graph"] = row["torch.compile_graph_ms"] / row["spacefusion_graph_ms"]
        row["vs_compile"] = row["torch.compile_ms"] / row["spacefusion_ms"]
        row["vs_eager"] = row["eager_ms"] / row["spacefusion_ms"]
        print(json.dumps(row), flush=True)
        results.append(row)
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cuda": torch.version.cuda, "date": str(datetime.date.today())}
    with open(os.path.join(out, "rows.json"), "w") as f:
        json.dump({"info": info, "results": results}, f, indent=1)
    lines = ["# Memory-bound fusion graphs on the GPU (fp16)", "",
             "%s, PyTorch %s, CUDA %s, %s. Median of `triton.testing.do_bench` (200 ms of runs, L2 "
             "flushed between runs), %d input sets rotated; GB/s = (input read once + output written "
             "once) / time." % (info["device"], info["torch"], info["cuda"], info["date"], ROTATE), "",
             "Direct: each call from Python, as a user calls it. Graph: 20 calls captured in a CUDA graph and "
             "replayed, i.e. device time without launch overhead.", "",
             "| workload | shape | correct | SpaceFusion GB/s | eager GB/s | torch.compile GB/s | vs compile | vs eager "
             "| SpaceFusion GB/s (graph) | torch.compile GB/s (graph) | vs compile (graph) | our kernel |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        if "error" in r:
            lines.append("| %s | %s | not built: %s | | | | | | | | | |" % (r["workload"], r["shape"], r["error"]))
            continue
        lines.append("| %s | %s | %s | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.0f | %.0f | %.2fx | %s |" % (
            r["workload"], r["shape"], "yes" if r["correct"] else "NO", r["spacefusion_GBps"], r["eager_GBps"],
            r["torch.compile_GBps"], r["vs_compile"], r["vs_eager"], r["spacefusion_graph_GBps"],
            r["torch.compile_graph_GBps"], r["vs_compile_graph"], r.get("kernel") or ""))
    with open(os.path.join(out, "rows.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
