#!/usr/bin/env python3
"""GPU differential run of the fuzzer's graphs: each seed's module compiled
for sm_90a, run on the GPU, checked against spacefusion-run's f64
reference by spacefusion-run's own rule.

    # here (MLIR, no GPU): modules, GPU objects and CPU reference data
    /usr/bin/python3 bench/gpu_fuzz.py build --seeds 0:400 --out build/gpu-fuzz [--jobs 2]
    # on the GPU machine (torch, numpy, the driver; no MLIR)
    python3 bench/gpu_fuzz.py check build/gpu-fuzz --json F.json --md F.md [--dry-run]

build, per seed S: the fuzzer's module (`python3 -m spacefusion.fuzz --seed S`,
through `spacefusion-opt --cse` when its header says cse=1, as the fuzzer
does), `python3 -m spacefusion gpu` into OUT/S/ (libfuzz.so with the cubin,
fuzz.json) and `spacefusion-run --reps=1 --dump=OUT/S/ref` (inputs, f64
reference and unfused outputs, manifest.json). A seed that does not
compile for the GPU, or that spacefusion-run cannot check, is recorded as
`reject` with its normalized reason. OUT/build.json records every seed and
the commit of the compiler; OUT holds one copy of the CUDA runtime.

check, per built seed: loads OUT/S with spacefusion.gpu.GPUModule, feeds the
dumped inputs, poisons the outputs (spacefusion-run's NaN patterns), runs,
and compares every element:

    |gpu - ref| <= atol * max|ref| + rtol * |ref| + slack * |unfused - ref|

max|ref| over the output's finite elements, the slack term only where the
unfused output is finite, tolerances and slack from the manifest; NaN
against NaN and equal infinities agree; any other non-finite element and
any element the kernel never wrote is a mismatch. Outcomes: pass, wrong,
gpu-error (a GPURuntimeError or any other exception, a worker that died or
hung), and the build's rejects. Seeds run in a worker process that is
restarted after an error that leaves the CUDA context unusable, a crash or
a hang. --dry-run does everything but the GPU (runs the comparison on the
unfused outputs and self-tests it), so that the device run works the first
time.
"""
import argparse
import concurrent.futures
import ctypes
import datetime
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

RUNTIME = "libspacefusion_cuda_runtime.so"
# spacefusion-run's poison (Buffers.cpp): NaNs no arithmetic produces, and
# for integers a pattern the fuzzer's small values do not reach.
POISON = {"f16": 0x7e5a, "bf16": 0x7fda, "f32": 0x7fd5a5a5, "f64": 0x7ffa5a5a5a5a5a5a,
          "i1": 0x5a, "i32": 0x5a5a5a5a, "i64": 0x5a5a5a5a5a5a5a5a}
BITS = {"f16": "<u2", "bf16": "<u2", "f32": "<u4", "f64": "<u8", "i1": "<u1", "i32": "<u4",
        "i64": "<u8"}
# The signed view of each element type's bits.
SIGNED = {"i32": "<i4", "i64": "<i8"}


def parse_seeds(text):
    """"A:B" (A..B-1) or "a,b,c"."""
    if ":" in text:
        start, _, end = text.partition(":")
        return list(range(int(start), int(end)))
    return [int(s) for s in text.split(",") if s]


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


# ---------------------------------------------------------------------------
# build (here)


def snapshot_tools(build_dir):
    """Copies the tools and the runtime, so that a rebuild during the run
    changes nothing under test; returns the snapshot's build-dir layout."""
    snap = tempfile.mkdtemp(prefix="sf-gpu-fuzz-")
    os.makedirs(os.path.join(snap, "bin"))
    os.makedirs(os.path.join(snap, "lib"))
    for name in ("spacefusion-opt", "spacefusion-run"):
        shutil.copy2(os.path.join(build_dir, "bin", name), os.path.join(snap, "bin", name))
    shutil.copy2(os.path.join(build_dir, "lib", RUNTIME), os.path.join(snap, "lib", RUNTIME))
    return snap


def module_json(sdir):
    """NAME.json of the GPU object's function (`fuzz` in the fuzzer's
    modules, the function's own name in a file's)."""
    return next(n for n in sorted(os.listdir(sdir))
                if n.endswith(".json") and not n.endswith(".kernels.json"))


def build_seed(seed, snap, out, timeout, source=None, options=""):
    """Module, GPU object and reference data of one seed (or of the MLIR
    file `source`, numbered `seed`); its record."""
    from spacefusion.fuzz import crash_reason, first_error, is_crash, normalize_reason, run_tool
    from spacefusion.fuzzgen import generate, uses_cse

    if source:
        text = open(source).read()
        rec = {"seed": seed, "header": "file=" + source, "cse": False,
               "file": os.path.relpath(source, ROOT)}
    else:
        text = generate(seed)
        rec = {"seed": seed, "header": text.splitlines()[0], "cse": uses_cse(seed)}
    m = re.search(r"dtype=(\S+)", rec["header"])
    rec["dtype"] = m.group(1) if m else "?"
    sdir = os.path.join(out, str(seed))
    shutil.rmtree(sdir, ignore_errors=True)
    os.makedirs(sdir)
    path = os.path.join(sdir, "%d.mlir" % seed)
    with open(path, "w") as f:
        f.write(text)

    def failed(stage, result):
        rec["outcome"] = "reject"
        rec["stage"] = stage
        if result.timed_out:
            rec["reason"] = "timeout: no result in %.0f s" % result.seconds
        elif is_crash(result):
            rec["reason"] = "CRASH: " + crash_reason(result.output)
        else:
            rec["reason"] = normalize_reason(first_error(result.output))
        rec["output"] = result.output[-4000:]
        for name in os.listdir(sdir):  # keep only the module
            if name != os.path.basename(path):
                p = os.path.join(sdir, name)
                shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
        return rec

    opt = os.path.join(snap, "bin", "spacefusion-opt")
    if rec["cse"]:
        cse = os.path.join(sdir, "%d.cse.mlir" % seed)
        result = run_tool([opt, "--cse", path, "-o", cse], timeout)
        if result.returncode != 0:
            return failed("cse", result)
        os.replace(cse, path)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), SPACEFUSION_BUILD_DIR=snap)
    start = time.monotonic()
    argv = [sys.executable, "-m", "spacefusion", "gpu", path, "-o", sdir]
    if options:
        argv += ["--options", options]
        rec["options"] = options
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env,
                           errors="replace")
        from spacefusion.fuzz import Result
        result = Result(argv, p.returncode, p.stdout, p.stderr, time.monotonic() - start)
    except subprocess.TimeoutExpired:
        from spacefusion.fuzz import Result
        result = Result(argv, None, "", "", time.monotonic() - start)
    if result.returncode != 0:
        return failed("gpu", result)
    rec["gpu_seconds"] = round(result.seconds, 2)
    meta = json.load(open(os.path.join(sdir, module_json(sdir))))
    rec["library"] = meta["library"]
    rec["kernel"] = meta.get("kernel")
    # Only the object travels: the LLVM IR stays behind, the runtime is OUT's one copy.
    for name in os.listdir(sdir):
        if name.endswith(".ll") or name == RUNTIME:
            os.remove(os.path.join(sdir, name))
    result = run_tool([os.path.join(snap, "bin", "spacefusion-run"), path, "--reps=1",
                       "--dump=" + os.path.join(sdir, "ref")], timeout)
    if result.returncode not in (0, 1) or is_crash(result):
        return failed("cpu", result)
    # 1: the fused CPU program is wrong; the reference data are still good.
    rec["cpu"] = "pass" if result.returncode == 0 else "wrong"
    rec["cpu_seconds"] = round(result.seconds, 2)
    if rec["cpu"] == "wrong":
        rec["cpu_output"] = result.stdout[-2000:]
    rec["outcome"] = "built"
    rec["bytes"] = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(sdir) for f in fs)
    return rec


def main_build(args):
    # MLIR files (a conformance corpus) are numbered in the order given.
    sources = dict(enumerate(args.files)) if args.files else {}
    seeds = list(sources) if sources else parse_seeds(args.seeds)
    os.makedirs(args.out, exist_ok=True)
    snap = snapshot_tools(args.build_dir)
    shutil.copy2(os.path.join(snap, "lib", RUNTIME), os.path.join(args.out, RUNTIME))
    info = {"commit": git("rev-parse", "HEAD") or "unknown",
            "commit_subject": git("log", "-1", "--format=%s")[:120],
            # Uncommitted edits of the compiler's sources at build time.
            "dirty": git("status", "--porcelain", "--untracked-files=no", "--", "lib", "include",
                         "tools", "runtime").splitlines(),
            "built": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
            "seeds": args.seeds or "files", "build_dir": os.path.abspath(args.build_dir),
            "options": args.options}
    diff = git("diff", "HEAD", "--", "lib", "include", "tools", "runtime")
    if diff:  # what the binaries may hold beyond the commit
        with open(os.path.join(args.out, "compiler.diff"), "w") as f:
            f.write(diff + "\n")
        info["dirty_diff_sha1"] = hashlib.sha1(diff.encode()).hexdigest()
    start = time.monotonic()
    records = []
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(build_seed, s, snap, args.out, args.timeout, sources.get(s),
                                   args.options)
                       for s in seeds]
            for i, future in enumerate(concurrent.futures.as_completed(futures), 1):
                records.append(future.result())
                if i % 25 == 0 or i == len(futures):
                    print("build: %d/%d seeds" % (i, len(futures)), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(snap, ignore_errors=True)
    records.sort(key=lambda r: r["seed"])
    info["seconds"] = round(time.monotonic() - start, 1)
    info["records"] = records
    with open(os.path.join(args.out, "build.json"), "w") as f:
        json.dump(info, f, indent=1)
    built = [r for r in records if r["outcome"] == "built"]
    reasons = Counter("%s: %s" % (r["stage"], r["reason"]) for r in records if r["outcome"] == "reject")
    print("build: %d seeds in %.0f s, %d built (%.1f MiB), %d rejected; commit %s%s"
          % (len(records), info["seconds"], len(built),
             sum(r["bytes"] for r in built) / 2 ** 20, len(records) - len(built),
             info["commit"][:12], " (dirty: %s)" % ", ".join(info["dirty"]) if info["dirty"] else ""))
    for reason, n in reasons.most_common():
        print("  %4d  %s" % (n, reason))
    cpu_wrong = [r["seed"] for r in built if r["cpu"] == "wrong"]
    if cpu_wrong:
        print("  fused CPU program wrong (still checked on the GPU): %s" % cpu_wrong)
    return 0


# ---------------------------------------------------------------------------
# Comparing (numpy only)


def read_raw(path, dtype, shape):
    """A dumped file as float64 values, and where it holds the poison."""
    import numpy as np
    bits = np.fromfile(path, dtype=BITS[dtype])
    return decode(bits, dtype).reshape(shape), (bits == POISON[dtype]).reshape(shape)


def decode(bits, dtype):
    import numpy as np
    if dtype == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if dtype in SIGNED:
        return bits.view(SIGNED[dtype]).astype(np.float64)
    if dtype == "i1":
        return bits.astype(np.float64)
    return bits.view({"f16": np.float16, "f32": np.float32, "f64": np.float64}[dtype]).astype(np.float64)


def compare(out, out_poison, ref, ref_poison, unfused, tolerance, slack):
    """spacefusion-run's compare(): the counts and errors of one output."""
    import numpy as np
    with np.errstate(invalid="ignore", over="ignore"):
        finite_ref = np.isfinite(ref) & ~ref_poison
        scale = float(np.abs(ref[finite_ref]).max()) if finite_ref.any() else 0.0
        unwritten = out_poison | ref_poison
        finite = np.isfinite(out) & np.isfinite(ref) & ~unwritten
        error = np.where(finite, np.abs(out - ref), 0.0)
        allowed = tolerance["atol"] * scale + tolerance["rtol"] * np.abs(ref)
        if slack:
            # The unfused program's largest error in the output: its rounding noise.
            noise = np.abs(unfused - ref)[finite_ref & np.isfinite(unfused)]
            allowed = allowed + slack * (float(noise.max()) if noise.size else 0.0)
        nan_out, nan_ref = np.isnan(out) & ~unwritten, np.isnan(ref) & ~unwritten
        nonfinite = ~finite & ~unwritten
        agree = nonfinite & ((nan_out & nan_ref) | (out == ref))
        ok = (finite & (error <= allowed)) | agree
        rel = np.where(finite, error / np.maximum(np.abs(ref), 1e-30), 0.0)
    bad = np.flatnonzero(~ok)
    return {"elements": int(ok.size), "mismatches": int(bad.size),
            "first": [int(i) for i in np.unravel_index(bad[0], ok.shape)] if bad.size else None,
            "max_abs": float(error.max()) if error.size else 0.0,
            "max_rel": float(rel.max()) if rel.size else 0.0,
            "unwritten": int(out_poison.sum()),
            "nan_gpu_only": int((nan_out & ~nan_ref).sum()),
            "nan_ref_only": int((nan_ref & ~nan_out).sum()),
            "inf_mismatch": int((nonfinite & ~agree & ~nan_out & ~nan_ref).sum())}


def self_test():
    """The comparison on made-up outputs: what must pass passes, what must
    fail fails."""
    import numpy as np
    ref = np.array([1.0, -2.0, np.nan, np.inf, 0.5, 1e-3])
    none = np.zeros(ref.shape, bool)
    tol = {"atol": 2e-5, "rtol": 1e-4}

    def mism(out, unfused=None, poison=none, slack=0.0):
        return compare(np.array(out), poison, ref, none, ref if unfused is None else np.array(unfused),
                       tol, slack)["mismatches"]
    assert mism(ref.copy()) == 0
    assert mism([1.0 + 1e-5, -2.0, np.nan, np.inf, 0.5, 1e-3]) == 0  # within atol * 2
    assert mism([1.001, -2.0, np.nan, np.inf, 0.5, 1e-3]) == 1
    assert mism([1.001, -2.0, np.nan, np.inf, 0.5, 1e-3], unfused=[1.0006] + list(ref[1:]),
                slack=2.0) == 0  # the baseline's error, doubled
    assert mism([1.0, -2.0, np.nan, np.inf, 0.5, 1e-3 + 1e-3], unfused=[1.0006] + list(ref[1:]),
                slack=2.0) == 0  # ... anywhere in the output (its noise floor)
    assert mism([1.0, -2.0, np.nan, np.inf, 0.5, 1e-3 + 2e-3], unfused=[1.0006] + list(ref[1:]),
                slack=2.0) == 1  # but not more
    assert mism([1.0, -2.0, 0.0, np.inf, 0.5, 1e-3]) == 1  # NaN in the reference only
    assert mism([1.0, -2.0, np.nan, -np.inf, 0.5, 1e-3]) == 1  # opposite infinities
    assert mism([1.0, -2.0, np.nan, np.inf, np.nan, 1e-3]) == 1  # NaN in the output only
    poison = none.copy()
    poison[0] = True
    assert mism(ref.copy(), poison=poison) == 1  # never written
    bits = np.array([POISON["bf16"], 0x3f80], dtype="<u2")
    assert np.isnan(decode(bits, "bf16")[0]) and decode(bits, "bf16")[1] == 1.0


# ---------------------------------------------------------------------------
# check (on the GPU machine): a worker runs the seeds, its parent restarts it


def torch_dtype(dtype):
    import torch
    return {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
            "f64": torch.float64, "i1": torch.bool, "i32": torch.int32, "i64": torch.int64}[dtype]


def element_bytes(dtype):
    return int(BITS[dtype][2:])


def int_dtype(dtype):
    import torch
    return {"f16": torch.int16, "bf16": torch.int16, "f32": torch.int32, "f64": torch.int64,
            "i1": torch.uint8, "i32": torch.int32, "i64": torch.int64}[dtype]


def check_seed(out_dir, seed, dry_run, keep=None):
    """One seed on the GPU (or, dry, the unfused outputs in its place); a
    wrong one's outputs are written under `keep`/SEED/ when given."""
    import numpy as np
    sdir = os.path.join(out_dir, str(seed))
    manifest = json.load(open(os.path.join(sdir, "ref", "manifest.json")))
    meta = json.load(open(os.path.join(sdir, module_json(sdir))))
    ref_dir = os.path.join(sdir, "ref")
    for spec, (shape, dtype) in zip(manifest["inputs"] + manifest["outputs"],
                                    meta["inputs"] + meta["outputs"]):
        if list(spec["shape"]) != list(shape) or spec["dtype"] != dtype:
            raise ValueError("the GPU object's signature differs from the manifest's")
        n = int(np.prod(shape, dtype=np.int64))
        for key in ("file", "unfused"):
            if key in spec and os.path.getsize(os.path.join(ref_dir, spec[key])) != n * element_bytes(dtype):
                raise ValueError("%s has the wrong size" % spec[key])
        if "reference" in spec and os.path.getsize(os.path.join(ref_dir, spec["reference"])) != n * \
                element_bytes(spec.get("reference_dtype", "f64")):
            raise ValueError("%s has the wrong size" % spec["reference"])
    if len(meta["inputs"]) != len(manifest["inputs"]) or len(meta["outputs"]) != len(manifest["outputs"]):
        raise ValueError("the GPU object's signature differs from the manifest's")
    from spacefusion.gpu import GPUModule
    module = GPUModule(sdir, meta["name"])
    outputs = []
    overwritten = []  # inputs the call changed: the caller's tensors are values
    if dry_run:
        for spec in manifest["outputs"]:
            outputs.append(read_raw(os.path.join(ref_dir, spec["unfused"]), spec["dtype"], spec["shape"]))
    else:
        import torch
        args, originals = [], []
        for spec in manifest["inputs"]:
            bits = np.fromfile(os.path.join(ref_dir, spec["file"]), dtype=BITS[spec["dtype"]])
            t = torch.from_numpy(bits.view({"<u1": np.uint8, "<u2": np.int16, "<u4": np.int32, "<u8": np.int64}[BITS[spec["dtype"]]])
                                 .reshape(spec["shape"]).copy())
            originals.append(t)
            args.append(t.cuda().view(torch_dtype(spec["dtype"])))
        results = []
        for spec in manifest["outputs"]:
            poison = POISON[spec["dtype"]]
            results.append(torch.full(spec["shape"], poison, dtype=int_dtype(spec["dtype"]),
                                      device="cuda").view(torch_dtype(spec["dtype"])))
        module(*args, *results)
        torch.cuda.synchronize()
        module.check()
        overwritten = [i for i, (arg, original) in enumerate(zip(args, originals))
                       if not torch.equal(arg.view(original.dtype).cpu(), original)]
        raw = [r.view(int_dtype(spec["dtype"])).cpu().numpy().view(BITS[spec["dtype"]]).ravel()
               for spec, r in zip(manifest["outputs"], results)]
        for spec, bits in zip(manifest["outputs"], raw):
            outputs.append((decode(bits, spec["dtype"]).reshape(spec["shape"]),
                            (bits == POISON[spec["dtype"]]).reshape(spec["shape"])))
    comparisons = []
    for spec, (out, out_poison) in zip(manifest["outputs"], outputs):
        ref, ref_poison = read_raw(os.path.join(ref_dir, spec["reference"]), spec["reference_dtype"],
                                   spec["shape"])
        unfused, _ = read_raw(os.path.join(ref_dir, spec["unfused"]), spec["dtype"], spec["shape"])
        c = compare(out, out_poison, ref, ref_poison, unfused, manifest["tolerances"][spec["dtype"]],
                    manifest["baseline_slack"])
        # The unfused CPU program's own error, to tell how hard the output is.
        c["unfused_max_abs"] = compare(unfused, np.zeros(ref.shape, bool), ref, ref_poison, unfused,
                                       {"atol": 0, "rtol": 0}, 0)["max_abs"]
        c["max_ref"] = float(np.abs(ref[np.isfinite(ref)]).max()) if np.isfinite(ref).any() else 0.0
        c["shape"], c["dtype"] = spec["shape"], spec["dtype"]
        comparisons.append(c)
    bad = sum(c["mismatches"] for c in comparisons)
    if bad and keep and not dry_run:
        os.makedirs(os.path.join(keep, str(seed)), exist_ok=True)
        for i, bits in enumerate(raw):
            bits.tofile(os.path.join(keep, str(seed), "gpu%d.bin" % i))
    return {"outcome": "wrong" if bad or overwritten else "pass", "outputs": comparisons,
            "mismatches": bad, "inputs_overwritten": overwritten,
            "elements": sum(c["elements"] for c in comparisons),
            "max_abs": max(c["max_abs"] for c in comparisons)}


def context_alive():
    """Whether CUDA still works in this process (a kernel fault kills the context)."""
    import torch
    try:
        torch.cuda.synchronize()
        return float(torch.ones(1, device="cuda").add_(1).item()) == 2.0
    except Exception:  # noqa: BLE001 - any failure means: restart
        return False


def rerun(out_dir, seed):
    """The mismatch count of another run, or the error it raised."""
    try:
        return check_seed(out_dir, seed, False)["mismatches"]
    except Exception as e:  # noqa: BLE001
        return "%s: %s" % (type(e).__name__, str(e)[:200])


def main_worker(args):
    """Runs seeds, one JSON line each ("start" before it, the result after)."""
    import numpy as np
    runtime = os.path.join(args.dir, RUNTIME)
    # The kernel libraries find the runtime by soname once it is loaded.
    ctypes.CDLL(runtime, mode=ctypes.RTLD_GLOBAL)
    log = open(args.results, "a")

    def emit(obj):
        log.write(json.dumps(obj) + "\n")
        log.flush()
    if not args.dry_run:
        import torch
        machine = {"torch": torch.__version__, "cuda": torch.version.cuda, "numpy": np.__version__}
        try:
            machine["device"] = torch.cuda.get_device_name()
        except Exception as e:  # noqa: BLE001 - the seeds will say why
            machine["device"] = "none (%s)" % e
        try:
            machine["driver"] = subprocess.run(
                ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                capture_output=True, text=True).stdout.strip()
        except OSError:
            pass
        emit({"machine": machine})
    from spacefusion.gpu import GPURuntimeError
    for seed in parse_seeds(args.seeds):
        emit({"start": seed})
        start = time.monotonic()
        try:
            result = check_seed(args.dir, seed, args.dry_run, args.keep_wrong)
            if result["outcome"] == "wrong":
                # Again on the same inputs: an error that moves is a race.
                result["reruns"] = [rerun(args.dir, seed) for _ in range(2)]
        except GPURuntimeError as e:
            result = {"outcome": "gpu-error", "reason": "CUDA error %d: %s" % (e.code, e.message)}
        except Exception as e:  # noqa: BLE001 - every failure is recorded per seed
            result = {"outcome": "gpu-error", "reason": "%s: %s" % (type(e).__name__, e)}
        result["seed"] = seed
        result["seconds"] = round(time.monotonic() - start, 3)
        alive = args.dry_run or result["outcome"] != "gpu-error" or context_alive()
        if not alive:
            result["context_lost"] = True
        emit(result)
        if not alive:
            return 3  # the parent restarts a worker for the remaining seeds
    return 0


def run_workers(args, seeds):
    """Runs `seeds` in workers; a worker that dies, hangs or loses its CUDA
    context is replaced, and the seed it was on recorded as gpu-error."""
    results, machine = {}, None
    pending = list(seeds)
    scratch = tempfile.mkdtemp(prefix="sf-gpu-check-")
    start = time.monotonic()
    restarts = 0
    while pending:
        if restarts > args.max_restarts or time.monotonic() - start > args.budget:
            why = ("not run: %d worker restarts" % restarts if restarts > args.max_restarts
                   else "not run: the check's %.0f s budget is spent" % args.budget)
            print("check: %s; %d seeds left" % (why, len(pending)), file=sys.stderr, flush=True)
            for seed in pending:
                results[seed] = {"seed": seed, "outcome": "gpu-error", "reason": why}
            break
        path = os.path.join(scratch, "worker-%d.jsonl" % restarts)
        argv = [sys.executable, os.path.abspath(__file__), "_worker", args.dir, "--results", path,
                "--seeds", ",".join(map(str, pending))] + (["--dry-run"] if args.dry_run else []) + (
                    ["--keep-wrong", args.keep_wrong] if args.keep_wrong else [])
        errlog = open(path + ".err", "w")
        proc = subprocess.Popen(argv, stdout=errlog, stderr=subprocess.STDOUT)
        current, last_progress, seen = None, time.monotonic(), 0
        hung = False
        while True:
            rc = proc.poll()
            lines = open(path).read().splitlines() if os.path.exists(path) else []
            for line in lines[seen:]:
                obj = json.loads(line)
                if "machine" in obj:
                    machine = obj["machine"]
                elif "start" in obj:
                    current = obj["start"]
                else:
                    results[obj["seed"]] = obj
                    pending.remove(obj["seed"])
                    current = None
                    if len(results) % 25 == 0:
                        print("check: %d/%d seeds" % (len(results), len(seeds)), file=sys.stderr,
                              flush=True)
                last_progress = time.monotonic()
            seen = len(lines)
            if rc is not None:
                break
            if time.monotonic() - last_progress > args.timeout:
                proc.kill()
                proc.wait()
                hung = True
                break
            time.sleep(0.05)
        errlog.close()
        if current is not None:  # the worker died or hung on this seed
            tail = open(path + ".err").read()[-1500:]
            why = ("hang: no result in %.0f s" % args.timeout if hung
                   else "worker died (exit status %s)" % proc.returncode)
            results[current] = {"seed": current, "outcome": "gpu-error", "reason": why,
                                "worker_output": tail}
            pending.remove(current)
            print("check: seed %d: %s" % (current, why), file=sys.stderr, flush=True)
        elif proc.returncode not in (0, 3) and pending:
            tail = open(path + ".err").read()[-3000:]
            raise SystemExit("check: the worker failed before any seed (exit %s):\n%s"
                             % (proc.returncode, tail))
        restarts += 1
    shutil.rmtree(scratch, ignore_errors=True)
    return results, machine, restarts - 1


def reproducer(rec):
    """The commands that build and check this one seed (or file) again."""
    seed = rec["seed"]
    what = ("--files %s" % rec["file"]) if rec.get("file") else ("--seeds %d:%d" % (seed, seed + 1))
    return ("/usr/bin/python3 bench/gpu_fuzz.py build %s --out build/gf-%d  "
            "# then, on the GPU machine: python3 bench/gpu_fuzz.py check build/gf-%d"
            % (what, seed, seed))


def describe_failure(rec):
    if rec["outcome"] == "gpu-error":
        return rec["reason"].splitlines()[0][:300]
    parts = []
    for i, c in enumerate(rec["outputs"]):
        if c["mismatches"]:
            extra = [k for k in ("unwritten", "nan_gpu_only", "nan_ref_only", "inf_mismatch") if c[k]]
            parts.append("#%d %s<%s>: %d of %d out of tolerance, first at %s, max abs error %.3g "
                         "(max|ref| %.3g, unfused CPU error %.3g)%s"
                         % (i, c["dtype"], "x".join(map(str, c["shape"])), c["mismatches"],
                            c["elements"], c["first"], c["max_abs"], c["max_ref"], c["unfused_max_abs"],
                            "; " + ", ".join("%s %d" % (k, c[k]) for k in extra) if extra else ""))
    if rec.get("inputs_overwritten"):
        parts.append("the call changed input(s) %s" % ", ".join("#%d" % i for i in rec["inputs_overwritten"]))
    if rec.get("reruns"):
        parts.append("mismatches in two reruns: %s" % rec["reruns"])
    return "; ".join(parts)


def main_check(args):
    self_test()
    with open(os.path.join(args.dir, "build.json")) as f:
        build = json.load(f)
    records = {r["seed"]: dict(r) for r in build["records"]}
    seeds = [s for s, r in sorted(records.items()) if r["outcome"] == "built"]
    if args.seeds:
        keep = set(parse_seeds(args.seeds))
        seeds = [s for s in seeds if s in keep]
        records = {s: r for s, r in records.items() if s in keep}
    start = time.monotonic()
    results, machine, restarts = run_workers(args, seeds)
    elapsed = time.monotonic() - start
    for seed, res in results.items():
        res.pop("seed", None)
        records[seed].update(res)
    rows = [records[s] for s in sorted(records)]
    counts = Counter(r["outcome"] for r in rows)
    by_dtype = {}
    for r in rows:
        by_dtype.setdefault(r["dtype"], Counter())[r["outcome"]] += 1
    reasons = Counter("%s: %s" % (r["stage"], r["reason"]) for r in rows if r["outcome"] == "reject")
    failures = [r for r in rows if r["outcome"] in ("wrong", "gpu-error")]
    report = {
        "commit": build["commit"], "commit_subject": build.get("commit_subject"),
        "dirty": build.get("dirty", []), "dirty_diff_sha1": build.get("dirty_diff_sha1"),
        "built": build["built"], "seeds": build["seeds"],
        "checked": str(datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()),
        "dry_run": args.dry_run, "machine": machine, "check_seconds": round(elapsed, 1),
        "worker_restarts": restarts, "counts": dict(counts),
        "by_dtype": {d: dict(c) for d, c in sorted(by_dtype.items())},
        "rejections": dict(reasons.most_common()),
        "failures": [{"seed": r["seed"], "outcome": r["outcome"], "header": r["header"],
                      "what": describe_failure(r), "reproducer": reproducer(r)}
                     for r in failures],
        "records": rows,
    }
    summary = summarize(report)
    print(summary)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    if args.md:
        with open(args.md, "w") as f:
            f.write(markdown(report))
    return 0


OUTCOMES = ["pass", "wrong", "gpu-error", "reject"]


def summarize(report):
    lines = ["gpu-fuzz%s: seeds %s, commit %s, %s" % (
        " (DRY RUN: unfused CPU outputs in place of the GPU's)" if report["dry_run"] else "",
        report["seeds"], report["commit"][:12],
        ", ".join("%s %d" % (o, report["counts"].get(o, 0)) for o in OUTCOMES))]
    for d, c in report["by_dtype"].items():
        lines.append("  %-5s %s" % (d, ", ".join("%s %d" % (o, c.get(o, 0)) for o in OUTCOMES)))
    lines.append("rejections by reason:")
    for reason, n in report["rejections"].items():
        lines.append("  %4d  %s" % (n, reason))
    lines.append("failures: %d" % len(report["failures"]))
    for f in report["failures"]:
        lines.append("  seed %d %s: %s" % (f["seed"], f["outcome"], f["what"]))
        lines.append("    %s" % f["header"])
    return "\n".join(lines)


def markdown(report):
    m = report["machine"] or {}
    out = ["# GPU differential fuzzing run (sm_90a)", ""]
    if report["dry_run"]:
        out += ["**DRY RUN**: the unfused CPU outputs stand in for the GPU's.", ""]
    out += [
        "- compiler commit: `%s` (%s)%s" % (
            report["commit"], report["commit_subject"],
            "; uncommitted edits: %s (diff sha1 %s)" % (", ".join(d.split()[-1] for d in report["dirty"]),
                                                       report.get("dirty_diff_sha1"))
            if report["dirty"] else ""),
        "- built %s, checked %s on %s (driver %s, PyTorch %s, CUDA %s)" % (
            report["built"], report["checked"], m.get("device", "?"), m.get("driver", "?"),
            m.get("torch", "?"), m.get("cuda", "?")),
        "- seeds %s (the fuzzer's `--seed` modules, `--cse` first where the header says cse=1); "
        "check took %.0f s, %d worker restart(s)" % (report["seeds"], report["check_seconds"],
                                                    report["worker_restarts"]),
        "- rule (spacefusion-run's): per element `|gpu - ref| <= atol*max|ref| + rtol*|ref| + "
        "2*|unfused - ref|` against the f64 reference on the same inputs; NaN = NaN and equal "
        "infinities agree; unwritten elements (poison) fail",
        "", "| dtype | " + " | ".join(OUTCOMES) + " |", "|---|" + "---|" * len(OUTCOMES)]
    for d, c in report["by_dtype"].items():
        out.append("| %s | %s |" % (d, " | ".join(str(c.get(o, 0)) for o in OUTCOMES)))
    out.append("| **all** | %s |" % " | ".join("**%d**" % report["counts"].get(o, 0) for o in OUTCOMES))
    out += ["", "## Rejections by reason", "", "| seeds | stage: reason |", "|---|---|"]
    for reason, n in report["rejections"].items():
        out.append("| %d | %s |" % (n, reason.replace("|", "\\|")))
    out += ["", "## Wrong results and GPU errors (%d)" % len(report["failures"]), ""]
    if not report["failures"]:
        out.append("None.")
    for f in report["failures"]:
        out += ["- **seed %d, %s**: %s" % (f["seed"], f["outcome"], f["what"].replace("|", "\\|")),
                "  - `%s`" % f["header"], "  - reproducer: `%s`" % f["reproducer"]]
    for title, text in report.get("notes", []):
        out += ["", "## " + title, "", text]
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="modules, GPU objects, CPU reference data (here)")
    b.add_argument("--seeds", help="A:B or a,b,c")
    b.add_argument("--files", nargs="+", help="MLIR files instead of seeds (numbered 0, 1, ...)")
    b.add_argument("--out", required=True)
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--timeout", type=float, default=180, help="seconds per tool run")
    b.add_argument("--options", default="", help="more --spacefusion-lower-gpu options, e.g. approx-math=false")
    b.add_argument("--build-dir", default=os.environ.get("SPACEFUSION_BUILD_DIR")
                   or os.path.join(ROOT, "build"))
    c = sub.add_parser("check", help="run on the GPU and compare (GPU machine)")
    c.add_argument("dir")
    c.add_argument("--json")
    c.add_argument("--md")
    c.add_argument("--seeds", help="only these of the built seeds")
    c.add_argument("--dry-run", action="store_true", help="no GPU: check the data and the checker")
    c.add_argument("--timeout", type=float, default=60, help="seconds without progress = hang")
    c.add_argument("--max-restarts", type=int, default=20, help="then give up on the rest")
    c.add_argument("--budget", type=float, default=480, help="seconds; then give up on the rest")
    c.add_argument("--keep-wrong", help="write the GPU outputs of wrong seeds under this directory")
    w = sub.add_parser("_worker")
    w.add_argument("dir")
    w.add_argument("--seeds", required=True)
    w.add_argument("--results", required=True)
    w.add_argument("--dry-run", action="store_true")
    w.add_argument("--keep-wrong")
    args = parser.parse_args(argv)
    return {"build": main_build, "check": main_check, "_worker": main_worker}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
