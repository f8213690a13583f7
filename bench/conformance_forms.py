#!/usr/bin/env python3
"""The conformance corpus (test/Conformance/Inputs) on the GPU, at the
models' shapes: every form of every workload compiled for sm_90a, checked
against a float32 PyTorch reference of the workload's semantics, timed, and
compared with the reference form (mixed_f16) and with PyTorch's kernels in
the same process (issue 19: every form within 5% of the mixed form).

    # here (MLIR, no GPU): bundle of compiled forms
    /usr/bin/python3 bench/conformance_forms.py build build/conf-bundle [--only REGEX]
    # here: the references below against spacefusion-run's f64 reference
    # at the corpus' CPU shapes (run before spending device time)
    /usr/bin/python3 bench/conformance_forms.py selftest
    # on the GPU machine
    python3 bench/conformance_forms.py run build/conf-bundle OUTDIR

Forms: every Inputs/<workload>_<form>.mlir, plus mixed_f16 and generic_f16
after `mlir-opt --cse` and after `--linalg-fuse-elementwise-ops --cse`, and
the named forms after `--linalg-generalize-named-ops` (as the lit tests
run them). Inputs are uniform in [-1, 1], the same values for every form
of a workload (rounded to the form's dtype); the reference is computed in
float32 from the rounded inputs; a form is correct when every element
satisfies |got - ref| <= 1e-2 max|ref| + 1e-2 |ref| (as run_fused.py).
"""
import argparse
import concurrent.futures
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
INPUTS = os.path.join(ROOT, "test", "Conformance", "Inputs")
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"

WORKLOADS = ["attention", "causal_attention", "layernorm", "rmsnorm", "softmax", "gemm_gelu",
             "mlp", "lstm_cell", "vit_attention"]
# Upstream passes a lit test runs before the pipeline, per form.
PREPASSES = {
    "mixed_f16": {"cse": "--cse", "fuse": "--linalg-fuse-elementwise-ops --cse"},
    "generic_f16": {"cse": "--cse", "fuse": "--linalg-fuse-elementwise-ops --cse"},
    "named": {"generalized": "--linalg-generalize-named-ops"},
    "named_3d": {"generalized": "--linalg-generalize-named-ops"},
    "named_transpose": {"generalized": "--linalg-generalize-named-ops"},
}
# The CPU shapes of the lit tests (scripts/scale-shapes.py arguments).
CPU_SCALE = {
    "attention": "16=1 12=2 512=256", "causal_attention": "32=2 2048=256",
    "gemm_gelu": "8192=256 3072=768", "layernorm": "8192=256",
    "lstm_cell": "1024=128 2048=256 3072=384 4096=512", "mlp": "8192=64 3072=512 768=128",
    "rmsnorm": "2048=128", "softmax": "2048=32",
}


# ---------------------------------------------------------------------------
# The workloads' semantics (float32 or float64 torch tensors in, same out)


def attention(q, k, v, causal=False):
    import torch
    s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    if causal:
        n = s.shape[-1]
        hidden = torch.ones(n, n, dtype=torch.bool, device=s.device).triu(1)
        s = s.masked_fill(hidden, float("-inf"))
    return (torch.matmul(torch.softmax(s, dim=-1), v),)


def reference(workload, *a):
    import torch
    import torch.nn.functional as F
    if workload in ("attention", "vit_attention"):
        return attention(*a)
    if workload == "causal_attention":
        return attention(*a, causal=True)
    if workload == "layernorm":
        x, g, b = a
        return (F.layer_norm(x, x.shape[-1:], g, b, eps=1e-5),)
    if workload == "rmsnorm":
        x, g = a
        return (x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * g,)
    if workload == "softmax":
        return (torch.softmax(a[0], dim=-1),)
    if workload == "gemm_gelu":
        x, w, b = a
        return (F.gelu(x @ w.t() + b),)
    if workload == "mlp":
        x, w1, b1, w2, b2 = a
        return (F.gelu(x @ w1 + b1, approximate="tanh") @ w2 + b2,)
    if workload == "lstm_cell":
        x, wx, h, wh, b, c = a
        i, f, g, o = (x @ wx.t() + h @ wh.t() + b).chunk(4, dim=1)
        c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return (torch.sigmoid(o) * torch.tanh(c2), c2)
    raise ValueError(workload)


def baselines(workload):
    """PyTorch's kernels on the inputs of the form's dtype: label -> fn."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def sdpa(backend, causal):
        def call(q, k, v):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return call

    def eager_attention(causal):
        def call(q, k, v):
            s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
            if causal:
                n = s.shape[-1]
                s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=s.device).triu(1),
                                  float("-inf"))
            return torch.matmul(torch.softmax(s.float(), dim=-1).to(q.dtype), v)
        return call

    if workload in ("attention", "vit_attention", "causal_attention"):
        causal = workload == "causal_attention"
        eager = eager_attention(causal)
        return {"eager": eager, "torch.compile": torch.compile(eager, dynamic=False),
                "SDPA flash": sdpa(SDPBackend.FLASH_ATTENTION, causal),
                "SDPA cuDNN": sdpa(SDPBackend.CUDNN_ATTENTION, causal),
                "SDPA mem-efficient": sdpa(SDPBackend.EFFICIENT_ATTENTION, causal)}
    if workload == "layernorm":
        def eager(x, g, b):
            return F.layer_norm(x, x.shape[-1:], g, b, eps=1e-5)
    elif workload == "rmsnorm":
        def eager(x, g):
            xf = x.float()
            return (xf * torch.rsqrt((xf * xf).mean(-1, keepdim=True) + 1e-6) * g.float()).to(x.dtype)
    elif workload == "softmax":
        def eager(x):
            return torch.softmax(x.float(), dim=-1).to(x.dtype)
    elif workload == "gemm_gelu":
        def eager(x, w, b):
            return F.gelu(F.linear(x, w, b))
    elif workload == "mlp":
        def eager(x, w1, b1, w2, b2):
            return F.gelu(x @ w1 + b1, approximate="tanh") @ w2 + b2
    elif workload == "lstm_cell":
        def eager(x, wx, h, wh, b, c):
            i, f, g, o = (x @ wx.t() + h @ wh.t() + b).chunk(4, dim=1)
            c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            return torch.sigmoid(o) * torch.tanh(c2), c2
    else:
        raise ValueError(workload)
    return {"eager": eager, "torch.compile": torch.compile(eager, dynamic=False)}


# ---------------------------------------------------------------------------
# build (here)


def forms():
    """(workload, form, variant, path, pre-passes) of the corpus."""
    out = []
    for workload in WORKLOADS:
        # The reference form first: its inputs' shapes are the canonical ones.
        paths = sorted(glob.glob(os.path.join(INPUTS, workload + "_*.mlir")),
                       key=lambda p: (not p.endswith("_mixed_f16.mlir"), p))
        for path in paths:
            form = os.path.basename(path)[len(workload) + 1:-len(".mlir")]
            out.append((workload, form, "", path, ""))
            for variant, passes in PREPASSES.get(form, {}).items():
                out.append((workload, form, variant, path, passes))
    return out


def build_one(bundle, entry, options=""):
    from spacefusion.gpu import compile_gpu
    workload, form, variant, path, passes = entry
    name = "%s_%s%s" % (workload, form, "_" + variant if variant else "")
    row = {"workload": workload, "form": form, "variant": variant, "dir": name}
    with open(path) as f:
        source = f.read()
    try:
        if passes:
            source = subprocess.run([MLIR_OPT] + passes.split(), input=source, capture_output=True,
                                    text=True, check=True).stdout
        directory = os.path.join(bundle, name)
        compile_gpu(source, directory, options=options)
        for ll in glob.glob(os.path.join(directory, "*.ll")):
            os.remove(ll)
        with open(os.path.join(directory, workload + ".json")) as f:
            row["kernel"] = json.load(f).get("kernel")
    except Exception as e:  # noqa: BLE001 - recorded, the bundle goes on
        row["error"] = str(getattr(e, "stderr", "") or e).strip().splitlines()[-1][:300]
        row.pop("dir")
    print(json.dumps(row), flush=True)
    return row


def build(options):
    from common import write_bundle_info
    os.makedirs(options.bundle, exist_ok=True)
    entries = [e for e in forms() if re.search(options.only, "%s_%s_%s" % e[:3])]
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        rows = list(pool.map(lambda e: build_one(options.bundle, e, options.options), entries))
    with open(os.path.join(options.bundle, "manifest.json"), "w") as f:
        json.dump(rows, f, indent=1)
    write_bundle_info(options.bundle)


# ---------------------------------------------------------------------------
# selftest (here): reference() against spacefusion-run's f64 reference


def selftest(options):
    import numpy as np
    import torch
    tools = os.path.join(os.environ.get("SPACEFUSION_BUILD_DIR", os.path.join(ROOT, "build")), "bin")
    failed = 0
    for workload in WORKLOADS:
        if workload not in CPU_SCALE:
            continue  # vit_attention: attention's semantics, checked there
        with tempfile.TemporaryDirectory() as tmp:
            scaled = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "scale-shapes.py"),
                                     os.path.join(INPUTS, workload + "_generic_f32.mlir")]
                                    + CPU_SCALE[workload].split(), capture_output=True, text=True,
                                    check=True).stdout
            path = os.path.join(tmp, "w.mlir")
            with open(path, "w") as f:
                f.write(scaled)
            subprocess.run([os.path.join(tools, "spacefusion-run"), "--reps=1", "--dump=" + tmp, path],
                           capture_output=True, check=True)
            with open(os.path.join(tmp, "manifest.json")) as f:
                manifest = json.load(f)
            args = [torch.from_numpy(np.fromfile(os.path.join(tmp, i["file"]), dtype=np.float32)
                                     .reshape(i["shape"]).astype(np.float64)) for i in manifest["inputs"]]
            got = reference(workload, *args)
            worst = 0.0
            for out, mine in zip(manifest["outputs"], got):
                ref = np.fromfile(os.path.join(tmp, out["reference"]), dtype=np.float64).reshape(out["shape"])
                worst = max(worst, float(np.abs(mine.numpy() - ref).max() / np.abs(ref).max()))
            ok = worst < 1e-6  # the f32 constants of the inputs (scale, GELU) round
            failed += not ok
            print("%-17s %s (max error %.1e of max|ref|)" % (workload, "ok" if ok else "DIFFERS", worst))
    sys.exit(1 if failed else 0)


# ---------------------------------------------------------------------------
# run (GPU machine)


DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32"}
DEVICE = "cuda"


def canonical_inputs(workload, module):
    """float32 inputs of the workload, the same for every form (seeded by
    the workload); shapes from the 4-D forms (named_3d reshapes them)."""
    import torch
    gen = torch.Generator(device=DEVICE).manual_seed(WORKLOADS.index(workload))
    return [torch.rand(shape, generator=gen, device=DEVICE) * 2 - 1 for shape, _ in module.inputs]


def run_form(entry, module, arrays, refs, dtype):
    """Correctness, then the time of a correct form: a row."""
    import torch
    from common import median_ms, run_checked
    torch_dtype = getattr(torch, DTYPES[dtype])
    inputs = [a.reshape(shape).to(torch_dtype).contiguous() for a, (shape, _) in zip(arrays, module.inputs)]
    outputs = [torch.full(shape, float("nan"), device=DEVICE, dtype=getattr(torch, DTYPES[t]))
               for shape, t in module.outputs]
    module.use_stream(torch.cuda.current_stream().cuda_stream)
    row = dict(entry)

    def check():
        for out in outputs:
            out.fill_(float("nan"))
        error = run_checked(module, *inputs, *outputs)
        worst, ok = 0.0, error is None
        for got, ref in zip(outputs, refs):
            got = got.float().reshape(ref.shape)
            err = (got - ref).abs()
            bound = 1e-2 * ref.abs().max() + 1e-2 * ref.abs()
            finite = bool(torch.isfinite(got).all())
            worst = max(worst, float(err.max()) if finite else float("inf"))
            ok = ok and finite and bool((err <= bound).all())
        return ok, worst, error
    ok, worst, error = check()
    row.update(correct=ok, max_abs_error=worst)
    if error:
        row["runtime_error"] = error[1]
    if ok:
        row["ms"] = median_ms(module.bind(*inputs, *outputs, check=False))
        again, _, _ = check()
        row["correct"] = again
    return row, inputs


def time_baselines(workload, inputs):
    from common import median_ms
    times = {}
    for label, fn in baselines(workload).items():
        try:
            fn(*inputs)
            times[label] = median_ms(lambda: fn(*inputs))
        except Exception as e:  # noqa: BLE001 - a backend may refuse a shape
            times[label + " error"] = str(e).splitlines()[0][:120]
    return times


def run(options):
    import torch
    from common import describe, machine_info
    from spacefusion.gpu import GPUModule
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    with open(os.path.join(options.bundle, "manifest.json")) as f:
        manifest = json.load(f)
    rows, base = [], {}
    for workload in WORKLOADS:
        entries = [e for e in manifest if e["workload"] == workload and re.search(options.only, e.get("dir", ""))]
        arrays = refs = None
        for entry in entries:
            if "dir" not in entry:
                rows.append(dict(entry))
                continue
            directory = os.path.join(options.bundle, entry["dir"])
            module = GPUModule(directory, workload)
            dtype = module.inputs[0][1]
            if arrays is None:
                arrays = canonical_inputs(workload, module)
            rounded = [a.to(getattr(torch, DTYPES[dtype])).float() for a in arrays]
            shaped = [r.reshape(s) for r, (s, _) in zip(rounded, module.inputs)]
            refs = reference(workload, *[r.reshape(a.shape) for r, a in zip(shaped, arrays)])
            row, inputs = run_form(entry, module, arrays, refs, dtype)
            row["dtype"] = dtype
            if (workload, dtype) not in base and not options.ours_only:
                four_d = [x.reshape(a.shape) for x, a in zip(inputs, arrays)]
                base[(workload, dtype)] = time_baselines(workload, four_d)
                print(json.dumps({"workload": workload, "dtype": dtype, "baselines": base[(workload, dtype)]}),
                      flush=True)
            print(json.dumps(row), flush=True)
            rows.append(row)
        # After each workload, so that a run cut short keeps what it measured.
        write_results(options.out, rows, base, describe(machine_info(options.bundle)), quiet=True)
    write_results(options.out, rows, base, describe(machine_info(options.bundle)))


def table(options):
    """Merges the JSON of several runs (e.g. two device calls) into one."""
    rows, base, machine = [], {}, None
    for path in options.json:
        with open(path) as f:
            data = json.load(f)
        rows += data["results"]
        base.update({(b["workload"], b["dtype"]): b["ms"] for b in data["baselines"]})
        machine = machine or data["machine"]
    write_results(options.out, rows, base, machine)


def write_results(out, rows, base, machine, quiet=False):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "conformance.json"), "w") as f:
        json.dump({"machine": machine, "results": rows,
                   "baselines": [{"workload": w, "dtype": d, "ms": t} for (w, d), t in base.items()]},
                  f, indent=1)
    lines = ["# The conformance corpus on the GPU", "",
             "%s. Each form of test/Conformance at its model shape; inputs uniform in [-1, 1], the same "
             "values for every form; float32 PyTorch reference; correct when |err| <= 1e-2 max|ref| + "
             "1e-2 |ref|, checked before and after timing. Times: median of triton's do_bench (L2 "
             "flushed). `of mixed` compares with the mixed_f16 form (the reference form) of the workload; "
             "baselines are PyTorch's on the form's dtype, in the same process (f32 with TF32 off, as PyTorch defaults)." % machine, "",
             "| workload | form | dtype | correct | max error | ms | of mixed | best baseline | ratio | kernels |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    mixed = {r["workload"]: r.get("ms") for r in rows if r["form"] == "mixed_f16" and not r["variant"]}
    for r in rows:
        form = r["form"] + (" +" + r["variant"] if r["variant"] else "")
        if "error" in r:
            lines.append("| %s | %s | | not built: %s | | | | | | |" % (r["workload"], form, r["error"]))
            continue
        times = {k: v for k, v in base.get((r["workload"], r.get("dtype")), {}).items()
                 if isinstance(v, float)}
        best = min(times.items(), key=lambda kv: kv[1]) if times else None
        ms = r.get("ms")
        lines.append("| %s | %s | %s | %s | %.2g | %s | %s | %s | %s | %s |" % (
            r["workload"], form, r.get("dtype", ""), "yes" if r["correct"] else "NO", r["max_abs_error"],
            "%.4f" % ms if ms else "", "%.2fx" % (mixed[r["workload"]] / ms) if ms and mixed.get(r["workload"])
            else "", "%s %.4f" % best if best else "", "%.2fx" % (best[1] / ms) if best and ms else "",
            r.get("kernel") or ""))
    lines += ["", "`of mixed` and `ratio` are speed ratios (above 1: this form is faster)."]
    with open(os.path.join(out, "conformance.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if not quiet:
        print("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("bundle")
    b.add_argument("--only", default="", help="forms whose workload_form_variant matches this regex")
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--options", default="", help="more --spacefusion-lower-gpu options (an experiment's variant)")
    sub.add_parser("selftest")
    r = sub.add_parser("run")
    r.add_argument("bundle")
    r.add_argument("out")
    r.add_argument("--only", default="", help="bundle directories matching this regex")
    r.add_argument("--ours-only", action="store_true")
    t = sub.add_parser("table")
    t.add_argument("out")
    t.add_argument("json", nargs="+")
    options = parser.parse_args()
    {"build": build, "selftest": selftest, "run": run, "table": table}[options.command](options)


if __name__ == "__main__":
    main()
