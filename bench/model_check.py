#!/usr/bin/env python3
"""Checks the cost model against measurement (issue 21): builds the N best
schedule candidates of every timed single-graph benchmark workload, times
them on the GPU and reports, per workload, the predicted against the
measured time, the rank correlation of the candidates, and how much the
chosen schedule (#1) loses to the fastest one measured.

    /usr/bin/python3 bench/model_check.py build OUT [--top 5] [--only REGEX] [--options O]
    (on the GPU machine)
    python3 bench/model_check.py run OUT $OUT/measured.json
    (here)
    /usr/bin/python3 bench/model_check.py report OUT/manifest.json measured.json --md F.md
    /usr/bin/python3 bench/model_check.py repredict OUT/manifest.json new.json [--options O]

`build` needs no GPU: the candidates come from smap-schedule's `candidate`
remarks (`--spacefusion-lower-gpu=candidates=N`), each built with its tiles
forced (`spatial=... temporal=...`). `run` checks every variant against a
float32 reference (computed once per workload) before timing it, and
times with the benchmark's median (L2 flushed between runs). `repredict`
asks the current build (with `--options`, a cost-model switch) for its
prediction of every candidate measured, so that `report` on its output
shows how a model change ranks them, without the GPU.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))

CANDIDATE = re.compile(
    r'candidate \| .*Remark="#(?P<rank>\d+): spatial \[(?P<spatial>[^\]]*)\] '
    r'temporal \[(?P<temporal>[^\]]*)\], strategy (?P<strategy>\w+), (?P<blocks>\d+) blocks x '
    r'(?P<threads>\d+) threads, (?P<smem>\d+) B shared memory, (?P<regs>\d+) registers/thread'
    r'(?: \(declared: (?P<blocks_per_sm>\d+) blocks per SM\))?; '
    r'predicted (?P<predicted>[\d.]+) us \((?P<mb>[\d.]+) MB global(?: \((?P<dram>[\d.]+) MB from DRAM\))?, (?P<gflop>[\d.]+) GFLOP(?:, [^;]*)?\); '
    r'[\d.]+ us = max\(memory (?P<memory>[\d.]+), compute (?P<compute>[\d.]+)\) / wave utilization '
    r'(?P<wave>[\d.]+) \+ steps (?P<steps>[\d.]+)')
CHOSEN = re.compile(r'chosen \| ')
GIVEN = re.compile(r'given \| .*Remark="uses the given schedule on [^:]*: .*predicted (?P<predicted>[\d.]+) us')


def forced_options(spatial, temporal):
    """`spatial [b=1, m=128]` / `temporal [l=64]` as pipeline options."""
    def pairs(text):
        return ",".join(p.strip().replace("=", ":") for p in text.split(",") if p.strip())
    options = []
    if pairs(spatial):
        options.append("spatial=" + pairs(spatial))
    if pairs(temporal):
        options.append("temporal=" + pairs(temporal))
    return " ".join(options)


def candidates_of(opt, source, top, options):
    """The candidate remarks of a single-graph workload, best first; None
    when the pipeline schedules several graphs (or none), partitions one or
    builds a row kernel beside it: forced tiles apply to every graph."""
    command = [opt, "--mlir-print-op-on-diagnostic=false",
               "--spacefusion-lower-gpu=chip=sm_90a format=isa candidates=%d %s" % (top, options),
               "--remarks-filter=smap", "--remark-format=emitRemark", "-o", "/dev/null", "-"]
    run = subprocess.run(command, input=source, capture_output=True, text=True)
    if (run.returncode or len(CHOSEN.findall(run.stderr)) != 1
            or re.search(r"\] (partition|rows) \| ", run.stderr)):
        return None
    found = []
    for match in CANDIDATE.finditer(run.stderr):
        entry = {k: match.group(k) for k in ("spatial", "temporal", "strategy")}
        for k in ("rank", "blocks", "threads", "smem", "regs"):
            entry[k] = int(match.group(k))
        entry["blocks_per_sm"] = int(match.group("blocks_per_sm") or 0)
        for k in ("predicted", "mb", "gflop", "memory", "compute", "wave", "steps"):
            entry[k] = float(match.group(k))
        found.append(entry)
    return found


def build(args):
    import spacefusion as sf
    from spacefusion.gpu import compile_gpu
    from build_fused import REFERENCE_OF, WORKLOADS, source_of
    opt = opt_path()
    manifest, seen = [], set()
    for tag, generator, shape, dtype, timed in WORKLOADS:
        name = bundle_name(tag, shape, dtype)
        if not timed or name in seen or (args.only and not re.search(args.only, name)):
            continue
        seen.add(name)
        source, function = source_of(generator, shape, dtype)
        found = candidates_of(opt, source, args.top, args.options)
        if not found:
            print("skipped", name, "(not one graph)", flush=True)
            continue
        for c in found:
            directory = "%s_c%d" % (name, c["rank"])
            options = (forced_options(c["spatial"], c["temporal"]) + " " + args.options).strip()
            entry = dict(c, name=name, workload=REFERENCE_OF.get(generator, generator),
                         args=list(shape) if generator != "gemm_chain" else [shape[0], list(shape[1])],
                         dtype=dtype, function=function, options=options)
            try:
                compile_gpu(source, os.path.join(args.out, directory), options=options)
                entry["dir"] = directory
                with open(os.path.join(args.out, directory, function + ".json")) as f:
                    entry["built"] = json.load(f).get("kernel")
                os.remove(os.path.join(args.out, directory, function + ".ll"))
            except sf.CompileError as error:
                entry["error"] = str(error).strip().splitlines()[0]
            print(name, "#%d" % c["rank"], options, entry.get("built", entry.get("error")), flush=True)
            manifest.append(entry)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def run(args):
    from spacefusion.gpu import GPUModule
    from common import machine_info, median_ms
    from run_fused import check, prepare, reference
    with open(os.path.join(args.bundle, "manifest.json")) as f:
        manifest = json.load(f)
    rows, refs_of = [], {}
    for entry in manifest:
        row = {k: entry[k] for k in ("name", "rank")}
        if not entry.get("dir"):
            row["error"] = entry.get("error", "not built")
            rows.append(row)
            continue
        module = GPUModule(os.path.join(args.bundle, entry["dir"]), entry["function"])
        inputs, outputs = prepare(module, entry["args"], entry["dtype"])
        # The same inputs for every candidate: one reference per workload.
        if entry["name"] not in refs_of:
            refs_of[entry["name"]] = reference(entry["workload"], entry["args"], inputs)
        row["correct"] = check(entry["workload"], entry["args"], module, inputs, outputs,
                               refs_of[entry["name"]])[0]
        if row["correct"]:
            row["measured_us"] = 1e3 * median_ms(module.bind(*inputs, *outputs, check=False))
        print(json.dumps(row), flush=True)
        rows.append(row)
    with open(args.out, "w") as f:
        json.dump({"info": machine_info(args.bundle), "results": rows}, f, indent=1)


def opt_path():
    return os.path.join(os.environ.get("SPACEFUSION_BUILD_DIR", "build"), "bin", "spacefusion-opt")


def bundle_name(tag, shape, dtype):
    """A build_fused.py workload's directory name (attention_4x32x2048x128_f16)."""
    from build_fused import shape_tag
    return "%s_%s_%s" % (tag, shape_tag(shape), dtype)


def workload_sources():
    """The MLIR of every build_fused.py workload, by its bundle name."""
    from build_fused import WORKLOADS, source_of
    return {bundle_name(tag, shape, dtype): source_of(generator, shape, dtype)[0]
            for tag, generator, shape, dtype, _ in WORKLOADS}


def map_manifest(args, fn):
    """fn over args.manifest's entries on args.jobs threads, into args.out."""
    from concurrent.futures import ThreadPoolExecutor
    with open(args.manifest) as f:
        manifest = json.load(f)
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(fn, manifest))
    with open(args.out, "w") as f:
        json.dump(rows, f, indent=1)


def repredict(args):
    """The current build's prediction for every candidate of a manifest
    (its tiles forced): how a cost-model change ranks what was measured,
    without the GPU."""
    opt, sources = opt_path(), workload_sources()

    def predict(entry):
        command = [opt, "--mlir-print-op-on-diagnostic=false",
                   "--spacefusion-lower-gpu=chip=sm_90a format=isa %s %s" % (entry["options"], args.options),
                   "--remarks-filter=smap", "--remark-format=emitRemark", "-o", "/dev/null", "-"]
        run = subprocess.run(command, input=sources[entry["name"]], capture_output=True, text=True)
        match = GIVEN.search(run.stderr)
        # The search's breakdown of the old prediction no longer applies.
        kept = {k: v for k, v in entry.items() if k not in ("memory", "compute", "wave", "steps")}
        if not match:
            return dict(kept, error="no prediction")
        return dict(kept, predicted=float(match.group("predicted")), repredicted_with=args.options)
    map_manifest(args, predict)


def ptx_of(module_text):
    """The PTX of the first kernel binary in a `format=isa` module."""
    start = module_text.index('assembly = "') + len('assembly = "')
    out, i = [], start
    while module_text[i] != '"':
        if module_text[i] == "\\":
            if module_text[i + 1] in "\\\"":
                out.append(module_text[i + 1])
                i += 2
            else:
                out.append(chr(int(module_text[i + 1:i + 3], 16)))
                i += 3
        else:
            out.append(module_text[i])
            i += 1
    return "".join(out)


PTXAS_USAGE = re.compile(r"Used (?P<regs>\d+) registers")
PTXAS_SPILLS = re.compile(r"(?P<stores>\d+) bytes spill stores, (?P<loads>\d+) bytes spill loads")


def registers(args):
    """ptxas's register count of every candidate's kernel (sm_90a, -O3),
    next to the count the cost model predicted: what residency the
    hardware gives, without the GPU."""
    import tempfile
    opt, sources = opt_path(), workload_sources()
    ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")

    def count(entry):
        row = {k: entry[k] for k in ("name", "rank", "regs", "smem", "threads")}
        run = subprocess.run([opt, "--spacefusion-lower-gpu=chip=sm_90a format=isa " + entry["options"],
                              "-o", "-", "-"], input=sources[entry["name"]], capture_output=True, text=True)
        if run.returncode:
            return dict(row, error="not built")
        with tempfile.NamedTemporaryFile("w", suffix=".ptx") as ptx:
            ptx.write(ptx_of(run.stdout))
            ptx.flush()
            usage = subprocess.run([ptxas, "-arch=sm_90a", "-O3", "-v", ptx.name, "-o", os.devnull],
                                   capture_output=True, text=True).stderr
        used, spills = PTXAS_USAGE.search(usage), PTXAS_SPILLS.search(usage)
        row["ptxas_regs"] = int(used.group("regs")) if used else None
        row["spill_bytes"] = int(spills.group("stores")) + int(spills.group("loads")) if spills else None
        return row
    map_manifest(args, count)


def spearman(xs, ys):
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(values):
        order = sorted(range(len(values)), key=lambda i: values[i])
        r = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2.0
            i = j + 1
        return r
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var if var else float("nan")


def report(args):
    with open(args.manifest) as f:
        manifest = json.load(f)
    with open(args.measured) as f:
        measured = json.load(f)
    by_key = {(r["name"], r["rank"]): r for r in measured["results"]}
    workloads = {}
    for entry in manifest:
        row = by_key.get((entry["name"], entry["rank"]), {})
        workloads.setdefault(entry["name"], []).append(dict(entry, **row))
    lines = ["| workload | candidates timed | Spearman | chosen | chosen measured (us) | best measured (us) | "
             "best is | chosen / best | predicted / measured (chosen) |", "|---|---|---|---|---|---|---|---|---|"]
    detail = ["| workload | # | schedule | strategy | predicted us (memory, compute, wave, steps) | "
              "measured us | correct |", "|---|---|---|---|---|---|---|"]
    summary = {"workloads": 0, "chosen_is_best": 0, "regret": [], "spearman": []}
    for name, entries in workloads.items():
        timed = [e for e in entries if "measured_us" in e]
        for e in entries:
            parts = ("(%.1f, %.1f, %.2f, %.1f)" % (e["memory"], e["compute"], e["wave"], e["steps"])
                     if "memory" in e else "")
            detail.append("| %s | %d | %s | %s | %.1f %s | %s | %s |" % (
                name, e["rank"], e["options"], e["strategy"], e["predicted"], parts,
                "%.1f" % e["measured_us"] if "measured_us" in e else
                e.get("error", "-"), e.get("correct", "-")))
        if len(timed) < 2:
            continue
        # The candidate predicted fastest (#1 of the manifest's search; after
        # `repredict`, the new model's choice among those measured).
        first = min(timed, key=lambda e: (e["predicted"], e["rank"]))
        best = min(timed, key=lambda e: e["measured_us"])
        rho = spearman([e["predicted"] for e in timed], [e["measured_us"] for e in timed])
        regret = first["measured_us"] / best["measured_us"]
        summary["workloads"] += 1
        summary["chosen_is_best"] += best is first
        summary["regret"].append(regret)
        summary["spearman"].append(rho)
        lines.append("| %s | %d | %.2f | #%d | %.1f | %.1f | #%d %s | %.2fx | %.2f |" % (
            name, len(timed), rho, first["rank"], first["measured_us"], best["measured_us"], best["rank"],
            best["options"], regret, first["predicted"] / first["measured_us"]))
    n = summary["workloads"]
    head = ["# The cost model against measurement", "",
            "Each timed single-graph workload of bench/build_fused.py: the cost model's best candidates "
            "(`candidates=N`), each built with its tiles forced, checked against the float32 reference and "
            "timed (median, L2 flushed). Spearman: rank correlation of predicted and measured time over the "
            "candidates; chosen: the candidate predicted fastest (#N: its rank in the search that listed "
            "them); chosen / best: its measured time over the fastest candidate's.", ""]
    if n:
        geo = 1.0
        for r in summary["regret"]:
            geo *= r
        head.append("Over %d workloads: the chosen schedule is the fastest measured in %d; geometric mean of "
                    "chosen / best %.3fx, worst %.2fx; mean Spearman %.2f." % (
                        n, summary["chosen_is_best"], geo ** (1.0 / n), max(summary["regret"]),
                        sum(summary["spearman"]) / n))
        head.append("")
    text = "\n".join(head + lines + ["", "## Every candidate", ""] + detail) + "\n"
    if args.md:
        with open(args.md, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("out")
    b.add_argument("--top", type=int, default=5)
    b.add_argument("--only", default="")
    b.add_argument("--options", default="", help="more --spacefusion-lower-gpu options")
    r = sub.add_parser("run")
    r.add_argument("bundle")
    r.add_argument("out")
    q = sub.add_parser("repredict")
    q.add_argument("manifest")
    q.add_argument("out")
    q.add_argument("--jobs", type=int, default=2)
    q.add_argument("--options", default="", help="more --spacefusion-lower-gpu options (a model's switch)")
    g = sub.add_parser("registers")
    g.add_argument("manifest")
    g.add_argument("out")
    g.add_argument("--jobs", type=int, default=2)
    p = sub.add_parser("report")
    p.add_argument("manifest")
    p.add_argument("measured")
    p.add_argument("--md", default="")
    args = parser.parse_args()
    {"build": build, "run": run, "repredict": repredict, "registers": registers,
     "report": report}[args.command](args)


if __name__ == "__main__":
    main()
