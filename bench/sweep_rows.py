#!/usr/bin/env python3
"""A correctness sweep of the GPU row kernels over shapes and dtypes that the
benchmark does not cover: every dtype (f32, f16, bf16), warp-per-row and
block-per-row rows, ragged rows, row counts that are not multiples of 4.

    /usr/bin/python3 bench/sweep_rows.py build build/sweep-bundle     # here
    python3 bench/sweep_rows.py run build/sweep-bundle OUTDIR         # on the GPU

`run` poisons the outputs, compares with a float32 torch reference
(tolerance: |d| <= atol + rtol * |ref| with the per-dtype values in TOLERANCE)
and writes OUTDIR/sweep.json and OUTDIR/sweep.md; it exits non-zero on any
mismatch or CUDA error.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

SHAPES = [(1, 32), (3, 96), (5, 100), (7, 768), (6, 1000), (2, 2048), (9, 4096), (3, 5000),
          (2, 12288), (4, 32000)]
WORKLOADS = ["softmax", "layernorm", "rmsnorm"]
DTYPES = ["f32", "f16", "bf16"]
EPS = {"layernorm": 1e-5, "rmsnorm": 1e-6}
# Storage rounding of the output dominates for f16/bf16 (2^-11, 2^-8).
TOLERANCE = {"f32": (1e-5, 1e-4), "f16": (1e-3, 4e-3), "bf16": (8e-3, 2e-2)}


def build(out):
    import spacefusion as sf
    from spacefusion.gpu import compile_gpu
    manifest = []
    for name in WORKLOADS:
        for dtype in DTYPES:
            for rows, cols in SHAPES:
                tag = "%s_%s_%dx%d" % (name, dtype, rows, cols)
                entry = {"workload": name, "dtype": dtype, "shape": [rows, cols], "dir": tag}
                try:
                    compile_gpu(getattr(sf.workloads, name)(rows, cols, dtype=dtype),
                                os.path.join(out, tag))
                except sf.CompileError as error:
                    entry["dir"] = None
                    entry["error"] = str(error).strip().splitlines()[-1]
                manifest.append(entry)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print("built %d of %d" % (sum(1 for e in manifest if e["dir"]), len(manifest)))


def run(bundle, out):
    import torch
    import torch.nn.functional as F
    from spacefusion.gpu import GPUModule
    from common import run_checked
    types = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    with open(os.path.join(bundle, "manifest.json")) as f:
        manifest = json.load(f)
    results, failures = [], 0
    for entry in manifest:
        row = dict(entry)
        if not entry["dir"]:
            results.append(row)
            continue
        name, (rows, cols), dtype = entry["workload"], entry["shape"], types[entry["dtype"]]
        g = torch.Generator(device="cuda").manual_seed(rows * 100003 + cols)
        x = 3 * torch.randn(rows, cols, device="cuda", generator=g).to(dtype)
        args = [x]
        if name != "softmax":
            args.append((torch.rand(cols, device="cuda", generator=g) + 0.5).to(dtype))
        if name == "layernorm":
            args.append(torch.randn(cols, device="cuda", generator=g).to(dtype))
        a = [t.float() for t in args]
        if name == "softmax":
            ref = torch.softmax(a[0], -1)
        elif name == "layernorm":
            ref = F.layer_norm(a[0], (cols,), a[1], a[2], EPS[name])
        else:
            ref = a[0] * torch.rsqrt(a[0].pow(2).mean(-1, keepdim=True) + EPS[name]) * a[1]
        out_t = torch.full((rows, cols), float("nan"), device="cuda", dtype=dtype)
        module = GPUModule(os.path.join(bundle, entry["dir"]), name)
        runtime_error = run_checked(module, *args, out_t)
        if runtime_error:
            row["runtime_error"] = runtime_error[1]
        atol, rtol = TOLERANCE[entry["dtype"]]
        err = (out_t.float() - ref).abs()
        ok = bool(runtime_error is None and torch.isfinite(out_t).all()
                  and (err <= atol + rtol * ref.abs()).all())
        with open(os.path.join(bundle, entry["dir"], name + ".json")) as f:
            row["kernel"] = json.load(f).get("kernel")
        row.update(correct=ok, max_abs_error=float(err.max()))
        failures += not ok
        results.append(row)
        print("%-9s %-4s %-9s %-5s max|d|=%.2e  %s" % (name, entry["dtype"], "%dx%d" % (rows, cols),
                                                  "ok" if ok else "FAIL", row["max_abs_error"],
                                                  row["kernel"]), flush=True)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "sweep.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "results": results}, f, indent=1)
    lines = ["# GPU row kernels: correctness sweep", "",
             "%s, PyTorch %s. Inputs 3*N(0,1) (gamma in [0.5,1.5)), outputs poisoned with NaN, "
             "compared with a float32 torch reference: |d| <= atol + rtol*|ref|, (atol, rtol) = %s."
             % (torch.cuda.get_device_name(), torch.__version__, TOLERANCE), "",
             "| workload | dtype | shape | result | max abs error | kernel |", "|---|---|---|---|---|---|"]
    for r in results:
        if not r["dir"]:
            lines.append("| %s | %s | %dx%d | not built: %s | | |" % (r["workload"], r["dtype"], *r["shape"],
                                                                    r["error"]))
        else:
            lines.append("| %s | %s | %dx%d | %s | %.2e | %s |" % (
                r["workload"], r["dtype"], *r["shape"], "pass" if r["correct"] else "**FAIL**",
                r["max_abs_error"], r["kernel"]))
    with open(os.path.join(out, "sweep.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%d checked, %d failed" % (sum(1 for r in results if r["dir"]), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    else:
        sys.exit(run(sys.argv[2], sys.argv[3]))
