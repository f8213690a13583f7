#!/usr/bin/env python3
"""f32 GEMMs with `tf32=true` (issue 19, item 3: TF32 tensor cores when an
option allows it) against cuBLAS TF32 and cuBLAS f32 in the same process,
and against the project's own f32 kernels (CUDA cores, the default).

    # here (MLIR, no GPU): a bundle of compiled variants
    /usr/bin/python3 bench/tf32_gemm.py build build/tf32-bundle
    # on the GPU machine
    python3 bench/tf32_gemm.py run build/tf32-bundle OUTDIR

Correctness first: a TF32 variant must match the f64 product of its inputs
rounded to TF32 as the compiler rounds them (to nearest, ties away) within
2e-5 x max|ref| (f32 accumulation of exact products); an f32 variant, the
f64 product of its inputs within the same bound. The error against the
unrounded f64 product is recorded for every variant, cuBLAS TF32 included.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

# (name, M, N, K, epilogue)
SHAPES = [
    ("gemm_4096", 4096, 4096, 4096, None),
    ("gemm_8192x4096x4096", 8192, 4096, 4096, None),
    ("gemm_2048x1024x1024", 2048, 1024, 1024, None),
    ("linear_relu_8192x3072x768", 8192, 3072, 768, "relu"),
]
# Variants: (label, extra options). The default schedule, and forced tiles
# that the search could pick, to see how far its choice is from the best.
VARIANTS = [
    ("tf32", "tf32=true"),
    ("tf32_128x128_k32", "tf32=true spatial=m:128,n:128 temporal=k:32"),
    ("tf32_128x64_k32", "tf32=true spatial=m:128,n:64 temporal=k:32"),
    ("tf32_64x128_k32", "tf32=true spatial=m:64,n:128 temporal=k:32"),
    ("f32", ""),
]


def source(m, n, k, epilogue):
    """linalg.matmul of f32 (the named form frontends emit), with a ReLU."""
    body = """func.func @gemm(%a: tensor<MxKxf32>, %b: tensor<KxNxf32>) -> tensor<MxNxf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<MxNxf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<MxNxf32>) -> tensor<MxNxf32>
  %r = linalg.matmul ins(%a, %b : tensor<MxKxf32>, tensor<KxNxf32>)
                     outs(%c : tensor<MxNxf32>) -> tensor<MxNxf32>
"""
    if epilogue == "relu":
        body += """  %e2 = tensor.empty() : tensor<MxNxf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<MxNxf32>) outs(%e2 : tensor<MxNxf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<MxNxf32>
  return %y : tensor<MxNxf32>
}
"""
    else:
        body += "  return %r : tensor<MxNxf32>\n}\n"
    return body.replace("M", str(m)).replace("N", str(n)).replace("K", str(k))


def build(options):
    from common import write_bundle_info
    from spacefusion.gpu import compile_gpu
    os.makedirs(options.bundle, exist_ok=True)
    rows = []
    for name, m, n, k, epilogue in SHAPES:
        for label, extra in VARIANTS:
            row = {"shape": name, "variant": label, "dir": "%s_%s" % (name, label)}
            try:
                directory = os.path.join(options.bundle, row["dir"])
                compile_gpu(source(m, n, k, epilogue), directory, options=extra)
                for f in os.listdir(directory):
                    if f.endswith(".ll"):
                        os.remove(os.path.join(directory, f))
                with open(os.path.join(directory, "gemm.json")) as f:
                    row["kernels"] = ["%s %dx%d smem %d" % (kr.get("strategy"), kr.get("blocks", 0), kr.get("threads", 0), kr.get("smem", 0)) for kr in json.load(f).get("kernels", [])]
            except Exception as e:  # noqa: BLE001 - recorded, the bundle goes on
                row["error"] = str(getattr(e, "stderr", "") or e).strip().splitlines()[-1][:300]
                row.pop("dir")
            print(json.dumps(row), flush=True)
            rows.append(row)
    with open(os.path.join(options.bundle, "manifest.json"), "w") as f:
        json.dump(rows, f, indent=1)
    write_bundle_info(options.bundle)


def tf32_round(x):
    """x (f32) rounded to TF32 as the compiler rounds: to nearest, ties away."""
    import torch
    bits = x.contiguous().view(torch.int32)
    return ((bits + 0x1000) & -0x2000).view(torch.float32)


def run(options):
    import torch
    from common import describe, machine_info, median_ms, run_checked
    from spacefusion.gpu import GPUModule
    with open(os.path.join(options.bundle, "manifest.json")) as f:
        manifest = json.load(f)
    machine = describe(machine_info(options.bundle))
    rows = []
    for name, m, n, k, epilogue in SHAPES:
        gen = torch.Generator(device="cuda").manual_seed(0)
        a = torch.rand(m, k, generator=gen, device="cuda") * 2 - 1
        b = torch.rand(k, n, generator=gen, device="cuda") * 2 - 1
        act = (lambda x: torch.relu(x)) if epilogue == "relu" else (lambda x: x)
        exact = act(a.double() @ b.double())
        rounded = act(tf32_round(a).double() @ tf32_round(b).double())
        scale = float(exact.abs().max())
        flops = 2.0 * m * n * k
        out = torch.empty(m, n, device="cuda")

        def record(row, ms, result):
            row.update(ms=ms, tflops=flops / (ms * 1e-3) / 1e12,
                       err_vs_exact=float((result.double() - exact).abs().max()) / scale)
            print(json.dumps(row), flush=True)
            rows.append(row)

        for label, allow in (("cublas_tf32", True), ("cublas_f32", False)):
            torch.backends.cuda.matmul.allow_tf32 = allow
            fn = (lambda: torch.relu(a @ b)) if epilogue == "relu" else (lambda: a @ b)
            result = fn()
            record({"shape": name, "variant": label}, median_ms(fn), result)
        torch.backends.cuda.matmul.allow_tf32 = False
        for entry in manifest:
            if entry["shape"] != name:
                continue
            row = {"shape": name, "variant": entry["variant"]}
            if "dir" not in entry:
                row["error"] = entry.get("error")
                rows.append(row)
                print(json.dumps(row), flush=True)
                continue
            module = GPUModule(os.path.join(options.bundle, entry["dir"]), "gemm")
            module.use_stream(torch.cuda.current_stream().cuda_stream)
            out.fill_(float("nan"))
            error = run_checked(module, a, b, out)
            ref = rounded if entry["variant"].startswith("tf32") else exact
            worst = float((out.double() - ref).abs().max()) / scale
            row.update(correct=error is None and bool(torch.isfinite(out).all()) and worst <= 2e-5,
                       err_vs_own_reference=worst, kernels=entry.get("kernels"))
            if error:
                row["runtime_error"] = error[1]
            if not row["correct"]:
                rows.append(row)
                print(json.dumps(row), flush=True)
                continue
            result = out.clone()
            record(row, median_ms(module.bind(a, b, out, check=False)), result)
        write_results(options.out, rows, machine)


def write_results(out, rows, machine):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "tf32_gemm.json"), "w") as f:
        json.dump({"machine": machine, "rows": rows}, f, indent=1)
    lines = ["# TF32 GEMMs", "", machine, "",
             "| shape | variant | ms | TFLOP/s | of cuBLAS TF32 | max err / max|ref| (vs unrounded f64) |",
             "|---|---|---|---|---|---|"]
    base = {r["shape"]: r["ms"] for r in rows if r["variant"] == "cublas_tf32" and "ms" in r}
    for r in rows:
        if "ms" not in r:
            lines.append("| %s | %s | %s | | | |" % (r["shape"], r["variant"],
                                                  r.get("error") or r.get("runtime_error") or "incorrect"))
            continue
        ratio = base.get(r["shape"], 0) / r["ms"] if r["shape"] in base else 0
        lines.append("| %s | %s | %.4f | %.1f | %.2fx | %.1e |" % (r["shape"], r["variant"], r["ms"], r["tflops"],
                                                             ratio, r["err_vs_exact"]))
    with open(os.path.join(out, "tf32_gemm.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("bundle")
    r = sub.add_parser("run")
    r.add_argument("bundle")
    r.add_argument("out")
    options = parser.parse_args()
    {"build": build, "run": run}[options.command](options)


if __name__ == "__main__":
    main()
