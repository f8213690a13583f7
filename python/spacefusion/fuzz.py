"""Differential fuzzer of the SpaceFusion pipeline.

    python3 -m spacefusion.fuzz --seed S                 # print seed S's module
    python3 -m spacefusion.fuzz --run 0:1000 --jobs 2    # fuzz seeds 0..999
        [--timeout T] [--out DIR] [--json FILE] [--known FILE] [--build-dir DIR]
    python3 -m spacefusion.fuzz --minimize S [--stage STAGE]

Each seed's module (spacefusion.fuzzgen) goes, for half of the seeds after
`spacefusion-opt --cse`, through these stages:

  run        spacefusion-run FILE: the searched schedule, fused vs unfused on the CPU
  forced-1   spacefusion-run with a forced temporal slice and spatial tile
  forced-2   spacefusion-run with other forced tiles (all parallel dims)
  gpu        spacefusion-opt --spacefusion-pipeline=target=sm_90a (must not
             crash nor emit invalid IR)
  split      spacefusion-run with a forced split of a temporal dim into parts
             run side by side and a merge (split-K / split-KV)
  gpu-split  the gpu stage with the same split
  tf32       spacefusion-run --tf32, for modules with an f32 contraction: its
             factors rounded to TF32 in every version, the f64 reference too
  gpu-tf32   the gpu stage with tf32=true (TF32 tensor cores)

(and `cse` / `analyze`, the preparatory steps, which are classified too).
Each stage's outcome is one of OUTCOMES; see classify() and docs/Fuzzing.md.
The exit status is 1 when a crash, wrong result, invalid IR or timeout
occurred that the known-failures file does not list.
"""

import argparse
import concurrent.futures
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

from .fuzzgen import generate, uses_cse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

OUTCOMES = ["pass", "wrong", "reject", "crash", "invalid-ir", "mispredicted", "timeout"]
FAILURES = {"wrong", "crash", "invalid-ir", "mispredicted", "timeout"}

# The block lowering refusing the strategy smap-schedule chose, a block
# taking more shared memory than its schedule says or built without its
# cp.async stages, or the temporal slicer failing on a dim its plan
# accepted: the schedule predicted a kernel that cannot be built as
# predicted (a bug, not a clean refusal).
MISPREDICTED = re.compile(r"the schedule's strategy \w+ cannot be built|"
                          r"more than the \d+ its schedule predicted|"
                          r"cp\.async stages cannot be built|"
                          r"failed after its plan accepted it")
STAGES = ["cse", "analyze", "run", "forced-1", "forced-2", "gpu", "split", "gpu-split", "tf32",
          "gpu-tf32"]
GPU_PIPELINE = "--spacefusion-pipeline=target=sm_90a"
ANALYZE = ["--smap-form-graphs", "--smap-set-target=target=cpu", "--smap-analyze"]

# What LLVM and MLIR print when a tool dies rather than diagnoses.
CRASH_MARKERS = ["Stack dump", "PLEASE submit a bug report", "LLVM ERROR", "Assertion `",
                 "UNREACHABLE executed", "Segmentation fault", "Aborted", "terminate called"]


# ---------------------------------------------------------------------------
# Tools


class Tools:
    """Paths of spacefusion-opt and spacefusion-run.

    A run copies them to a private directory first, so that a rebuild of the
    build directory in the middle of a long run does not change (or remove)
    the binaries under test; `display` keeps the build-dir paths for the
    reproducers it prints."""

    def __init__(self, build_dir, snapshot=True):
        self.build_dir = build_dir
        self.display = {name: os.path.join(build_dir, "bin", name)
                        for name in ("spacefusion-opt", "spacefusion-run")}
        for name, path in self.display.items():
            if not os.path.exists(path):
                raise SystemExit("fuzz: %s not found; build SpaceFusion or set --build-dir / "
                                 "SPACEFUSION_BUILD_DIR" % path)
        self.paths = dict(self.display)
        if snapshot:
            self.snapshot_dir = tempfile.mkdtemp(prefix="sf-fuzz-bin-")
            for name, path in self.display.items():
                self.paths[name] = shutil.copy2(path, os.path.join(self.snapshot_dir, name))

    @property
    def opt(self):
        return self.paths["spacefusion-opt"]

    @property
    def run(self):
        return self.paths["spacefusion-run"]


def default_build_dir():
    return os.environ.get("SPACEFUSION_BUILD_DIR") or os.path.join(ROOT, "build")


class Result:
    """A finished subprocess: return code (None on timeout) and its output."""

    def __init__(self, argv, returncode, stdout, stderr, seconds):
        self.argv, self.returncode, self.stdout, self.stderr = argv, returncode, stdout, stderr
        self.seconds = seconds

    @property
    def output(self):
        return self.stdout + self.stderr

    @property
    def timed_out(self):
        return self.returncode is None


def run_tool(argv, timeout, stdin=None):
    start = time.monotonic()
    try:
        p = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=timeout,
                           errors="replace")
        return Result(argv, p.returncode, p.stdout, p.stderr, time.monotonic() - start)
    except subprocess.TimeoutExpired as e:
        def text(b):
            return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return Result(argv, None, text(e.stdout), text(e.stderr), time.monotonic() - start)


# ---------------------------------------------------------------------------
# Classification


def is_crash(result):
    if result.returncode is not None and result.returncode < 0:
        return True  # killed by a signal
    return any(marker in result.output for marker in CRASH_MARKERS)


def first_error(text):
    """The first `error:` message, without its location."""
    for line in text.splitlines():
        m = re.search(r"\berror: (.*)", line)
        if m:
            return m.group(1).strip()
    for line in text.splitlines():  # tool messages without `error:`
        if line.startswith("spacefusion-run: ") and "pipeline failed" not in line:
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "(no output)"


def crash_reason(text):
    """The assertion or fatal error, else where the signal hit: the top
    symbolized frame and the first frame in SpaceFusion's code."""
    for marker in ("Assertion `", "LLVM ERROR", "UNREACHABLE executed"):
        for line in text.splitlines():
            if marker in line:
                return re.sub(r"^.*?(Assertion|LLVM ERROR|UNREACHABLE)", r"\1", line.strip())
    frames = [frame_symbol(f) for f in re.findall(r"^\s*#\d+ 0x[0-9a-f]+ (.+)$", text, re.M)]
    frames = [f for f in frames if f and not re.search(r"PrintStackTrace|SignalHandler", f)]
    if frames:
        ours = next((f for f in frames if re.search(r"smap::|spacefusion|anonymous namespace", f)),
                    None)
        if ours and ours != frames[0]:
            return "signal in %s, from %s" % (frames[0], ours)
        return "signal in %s" % frames[0]
    return "killed by a signal"


def frame_symbol(frame):
    """`mlir::smap::foo` from a stack frame `void mlir::smap::foo(int) (/path+0x1)`:
    the name before the argument list, without a return type or template
    arguments."""
    if frame.startswith("("):
        return None  # no symbol
    depth, name = 0, ""
    for ch in frame:
        if ch == "(" and depth == 0:
            break
        if ch == ">":
            depth -= 1
        elif ch == "<":
            depth += 1
        elif depth == 0:
            name = "" if ch == " " else name + ch
    return name or None


def normalize_reason(message):
    """A diagnostic without what varies from seed to seed: locations, SSA
    names, numbers, types, dim names; the rest is the reason's identity."""
    s = message
    s = re.sub(r"^[^\s:]+:\d+:\d+: ", "", s)
    s = re.sub(r"%[\w#.$-]+", "%v", s)
    s = re.sub(r"\b(tensor|memref|vector)<[^<>]*>", r"\1<...>", s)
    s = re.sub(r"#smap\.(\w+)<[^<>]*>", r"#smap.\1", s)
    s = re.sub(r"'[a-z]\w{0,2}'", "'D'", s)  # dim names: 'n', 'l', 'b0'
    s = re.sub(r"\"[a-z]\w{0,2}\"", '"D"', s)
    s = re.sub(r"\b[a-z]\w{0,2}( ?[:=] ?)\d+", r"D\1N", s)  # n:16, m = 4
    s = re.sub(r"\bthe graph's dims are( [a-z]\w{0,2}\b)+", "the graph's dims are D...", s)
    s = re.sub(r"(?<![\w.])[-+]?\d+(\.\d+)?([eE][-+]?\d+)?(?![\w.])", "N", s)
    s = re.sub(r"\b([a-z]+_[a-z_]+)\d+\b", r"\1N", s)  # member names: reduce_add4
    s = re.sub(r"\s+", " ", s).strip()
    return s[:200]


def classify(result, verified=None):
    """(outcome, reason) of one tool run.

    verified: for a run that failed with a diagnostic, whether the failure
    survives --verify-each=0 (None: not checked). If it goes away, or turns
    into another error, the first error came from the verifier between
    passes: invalid IR a pass produced, not a diagnostic the pass meant."""
    if result.timed_out:
        return "timeout", "no result in %.0f s" % result.seconds
    if is_crash(result):
        return "crash", crash_reason(result.output)
    if result.returncode == 0:
        return "pass", ""
    if result.returncode == 1 and re.search(r": FAIL \(", result.stdout):
        return "wrong", fail_summary(result.stdout)
    if verified is False:
        return "invalid-ir", normalize_reason(first_error(result.output))
    if MISPREDICTED.search(result.output):
        return "mispredicted", normalize_reason(first_error(result.output))
    return "reject", normalize_reason(first_error(result.output))


def fail_summary(stdout):
    m = re.search(r"max abs error (\S+), max rel error (\S+) over (\d+) outputs .*FAIL \((\d+)",
                  stdout)
    if not m:
        return "FAIL"
    return "FAIL: %s of %s outputs out of tolerance, max abs error %s" % (
        m.group(4), m.group(3), m.group(1))


# ---------------------------------------------------------------------------
# Stages


def graph_dims(analyze_output):
    """[[(name, extent, class), ...] per smap.graph] from smap-analyze's IR."""
    graphs = []
    for m in re.finditer(r"dims = \[((?:#smap\.dim<[^>]*>(?:, )?)*)\]", analyze_output):
        graphs.append([(n, int(e), c) for n, e, c in
                       re.findall(r'#smap\.dim<"(\w+)", (\d+), (\w+)>', m.group(1))])
    return graphs


def divisors(n, proper=True):
    found = [d for d in range(1, n + 1) if n % d == 0 and (d < n or not proper)]
    return found or [n]


def shared_dims(graphs):
    """[(name, extent, class)] of the dims every graph has with the same
    class (a forced schedule applies to all graphs, and one that slices a
    dim some graph lacks is rejected); the extent is the gcd of the graphs'
    extents, so that a size dividing it divides all of them. Falls back to
    the largest graph's dims when no dim is shared."""
    shared = []
    for name, extent, cls in graphs[0]:
        others = [next((d for d in dims if d[0] == name), None) for dims in graphs[1:]]
        if all(o is not None and o[2] == cls for o in others):
            shared.append((name, math.gcd(extent, *(o[1] for o in others)), cls))
    return shared or max(graphs, key=len)


def forced_schedules(seed, graphs):
    """One or two forced schedules ({'spatial': 'm:4', 'temporal': 'n:16'}):
    a temporal slice of a temporal dim and a spatial tile of a parallel one,
    then tiles of all parallel dims; sizes divide their extents."""
    if not graphs:
        return []
    rng = random.Random("schedule-%d" % seed)
    dims = shared_dims(graphs)
    temporal = [d for d in dims if d[2] == "temporal" and d[1] > 1]
    parallel = [d for d in dims if d[2] in ("parallel", "parallel_recompute") and d[1] > 1]

    def temporal_option():
        if not temporal:
            return None
        name, extent, _ = rng.choice(temporal)
        sizes = [d for d in divisors(extent) if d > 1] or divisors(extent)
        return "%s:%d" % (name, rng.choice(sizes))

    def spatial_option(chosen):
        return ",".join("%s:%d" % (n, rng.choice(divisors(e))) for n, e, _ in chosen) or None

    one = [rng.choice(parallel)] if parallel else []
    schedules = [{"spatial": spatial_option(one), "temporal": temporal_option()},
                 {"spatial": spatial_option(parallel), "temporal": temporal_option()}]
    unique = []
    for s in schedules:
        s = {k: v for k, v in s.items() if v}
        if s and s not in unique:
            unique.append(s)
    return unique


SCHEDULE_KEYS = ("spatial", "temporal", "split")


def forced_split(seed, graphs):
    """A forced split ({'split': 'n:4'}): a temporal dim cut into 2 to 32
    parts run side by side and a merge (smap-schedule's split option), the
    parts dividing its extent; None when no graph has a temporal dim. Its
    own random stream, so that the other forced schedules stay the same."""
    if not graphs:
        return None
    rng = random.Random("split-%d" % seed)
    temporal = [d for d in shared_dims(graphs) if d[2] == "temporal" and d[1] > 1]
    if not temporal:
        return None
    name, extent, _ = rng.choice(temporal)
    parts = [p for p in divisors(extent, proper=False) if 2 <= p <= 32]
    return {"split": "%s:%d" % (name, rng.choice(parts))} if parts else None


def schedule_flags(schedule):
    return ["--%s=%s" % (k, schedule[k]) for k in SCHEDULE_KEYS if k in schedule]


def schedule_options(schedule):
    """The same schedule as smap-schedule pass options."""
    return " ".join("%s=%s" % (k, schedule[k]) for k in SCHEDULE_KEYS if k in schedule)


class Stage:
    """The outcome of one stage of one seed."""

    def __init__(self, name, outcome, reason, command, seconds, output=""):
        self.name, self.outcome, self.reason = name, outcome, reason
        self.command, self.seconds, self.output = command, seconds, output

    def to_json(self):
        return {"stage": self.name, "outcome": self.outcome, "reason": self.reason,
                "command": self.command, "seconds": round(self.seconds, 3)}


def verify_each_off(tools, argv, first, timeout):
    """Reruns a failed spacefusion-opt command with --verify-each=0.

    Returns True when it fails the same way again (a deliberate diagnostic),
    False when the failure goes away or changes (it came from the verifier
    between passes: invalid IR), None when the rerun timed out."""
    with tempfile.TemporaryDirectory(prefix="sf-fuzz-verify-") as scratch:
        argv = strip_output(argv) + ["--verify-each=0", "-o", os.path.join(scratch, "out.mlir")]
        again = run_tool(argv, timeout)
    if again.timed_out:
        return None
    if again.returncode == 0 or is_crash(again):
        return False
    return first_error(again.output) == first_error(first.output)


def strip_output(argv):
    """argv without its `-o FILE`."""
    stripped, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        else:
            stripped.append(a)
    return stripped


def opt_stage(tools, name, argv, timeout):
    """A spacefusion-opt stage: a failure is checked with --verify-each=0."""
    result = run_tool(argv, timeout)
    verified = None
    if result.returncode not in (0, None) and not is_crash(result):
        verified = verify_each_off(tools, argv, result, timeout)
    outcome, reason = classify(result, verified)
    return Stage(name, outcome, reason, argv, result.seconds, result.output), result


def fusion_replica(tools, path, schedule, tf32=False):
    """spacefusion-run's fused pipeline as a spacefusion-opt command."""
    sched = schedule_options(schedule or {})
    rounding = ["--smap-generalize-named-ops", "--smap-round-contractions-to-tf32"] if tf32 else []
    return [tools.opt, path] + rounding + ANALYZE + [
        "--smap-schedule=%s" % sched if sched else "--smap-schedule",
        "--smap-spatial-slice", "--smap-temporal-slice", "--convert-smap-to-scf",
        "--spacefusion-lower-cpu", "-o", "/dev/null"]


def run_stage(tools, name, path, schedule, timeout, tf32=False):
    """spacefusion-run, searched or with a forced schedule (and with
    `tf32`, its --tf32). When it fails in the fusion pipeline, the same
    passes run in spacefusion-opt tell a deliberate diagnostic from invalid
    IR."""
    argv = [tools.run, path, "--reps=1"] + schedule_flags(schedule or {}) + (["--tf32"] if tf32 else [])
    result = run_tool(argv, timeout)
    verified = None
    if result.returncode == 2 and not is_crash(result) and \
            not first_error(result.output).startswith("spacefusion-run:"):
        replica = fusion_replica(tools, path, schedule, tf32)
        first = run_tool(replica, timeout)
        if first.returncode not in (0, None) and not is_crash(first):
            verified = verify_each_off(tools, replica, first, timeout)
    outcome, reason = classify(result, verified)
    return Stage(name, outcome, reason, argv, result.seconds, result.output)


def fuzz_seed(seed, tools, timeout, workdir):
    """All stages of one seed; returns the JSON-able record."""
    text = generate(seed)
    path = os.path.join(workdir, "seed-%d.mlir" % seed)
    with open(path, "w") as f:
        f.write(text)
    stages = []
    if uses_cse(seed):
        cse_path = os.path.join(workdir, "seed-%d.cse.mlir" % seed)
        stage, _ = opt_stage(tools, "cse", [tools.opt, "--cse", path, "-o", cse_path], timeout)
        stages.append(stage)
        if stage.outcome != "pass":
            return record(seed, text, stages)
        path = cse_path
    analyze, result = opt_stage(tools, "analyze", [tools.opt, path] + ANALYZE, timeout)
    stages.append(analyze)
    graphs = graph_dims(result.stdout) if analyze.outcome == "pass" else []
    stages.append(run_stage(tools, "run", path, None, timeout))
    for i, schedule in enumerate(forced_schedules(seed, graphs)):
        stages.append(run_stage(tools, "forced-%d" % (i + 1), path, schedule, timeout))
    gpu, _ = opt_stage(tools, "gpu", [tools.opt, GPU_PIPELINE, path, "-o", "/dev/null"], timeout)
    stages.append(gpu)
    split = forced_split(seed, graphs)
    if split:
        stages.append(run_stage(tools, "split", path, split, timeout))
        pipeline = "%s split=%s" % (GPU_PIPELINE, split["split"])
        stage, _ = opt_stage(tools, "gpu-split", [tools.opt, pipeline, path, "-o", "/dev/null"],
                             timeout)
        stages.append(stage)
    if rounds_to_tf32(tools, path, timeout):
        stages.append(run_stage(tools, "tf32", path, None, timeout, tf32=True))
        stage, _ = opt_stage(tools, "gpu-tf32", [tools.opt, GPU_PIPELINE + " tf32=true", path, "-o",
                                                 "/dev/null"], timeout)
        stages.append(stage)
    return record(seed, text, stages)


def rounds_to_tf32(tools, path, timeout):
    """Whether the module has an f32 contraction that tf32=true rounds."""
    result = run_tool([tools.opt, path, "--smap-generalize-named-ops",
                       "--smap-round-contractions-to-tf32"], timeout)
    return result.returncode == 0 and "to tf32" in result.output


def record(seed, text, stages):
    return {"seed": seed, "header": text.splitlines()[0], "cse": uses_cse(seed),
            "stages": stages, "text": text}


# ---------------------------------------------------------------------------
# Known failures


def read_known(path):
    """{(seed, stage): (outcome, reason)} from lines `seed stage outcome  # reason`."""
    known = {}
    if not path:
        return known
    with open(path) as f:
        for number, line in enumerate(f, 1):
            body, _, comment = line.partition("#")
            fields = body.split()
            if not fields:
                continue
            if len(fields) != 3 or not fields[0].isdigit() or fields[2] not in FAILURES:
                raise SystemExit("%s:%d: expected `seed stage outcome  # reason`, got: %s"
                                 % (path, number, line.rstrip()))
            known[(int(fields[0]), fields[1])] = (fields[2], comment.strip())
    return known


def triage(records, known, seeds):
    """Splits failures into new and known, and lists the known ones fixed:
    the stage now passes or rejects, or no longer runs at all (e.g. the
    module forms no graph now, so there is no forced schedule to run).
    Entries for seeds outside the run are ignored."""
    new, expected, fixed = [], [], []
    seen = set()
    for rec in records:
        for stage in rec["stages"]:
            key = (rec["seed"], stage.name)
            seen.add(key)
            if stage.outcome in FAILURES:
                entry = known.get(key)
                (expected if entry and entry[0] == stage.outcome else new).append((rec, stage))
            elif key in known:
                fixed.append((key, known[key], stage.outcome))
    ran = {rec["seed"] for rec in records}
    for key in sorted(known):
        if key[0] in ran and key not in seen:
            fixed.append((key, known[key], "not run"))
    return new, expected, fixed


# ---------------------------------------------------------------------------
# Reports


def reproducer(tools, rec, stage):
    """One shell line that regenerates the module and reruns the stage."""
    gen = "PYTHONPATH=python python3 -m spacefusion.fuzz --seed %d" % rec["seed"]
    opt, runner = tools.display["spacefusion-opt"], tools.display["spacefusion-run"]
    cse = " | %s --cse" % opt if rec["cse"] and stage.name != "cse" else ""
    args = [a for a in stage.command[2:] if not a.endswith(".mlir")]
    if stage.name == "cse":
        return "%s | %s --cse" % (gen, opt)
    if stage.command[0] == tools.run:
        return "%s%s | %s - %s" % (gen, cse, runner, " ".join(args))
    flags = [a for a in stage.command[1:] if not a.endswith(".mlir")]
    return "%s%s | %s %s" % (gen, cse, opt, " ".join(quote(a) for a in flags))


def quote(arg):
    return "'%s'" % arg if re.search(r"[ {}|;]", arg) else arg


def summary(records, new, expected, fixed, tools, elapsed, out_dir):
    lines = []
    counts = defaultdict(Counter)
    reasons = Counter()
    for rec in records:
        for stage in rec["stages"]:
            counts[stage.name][stage.outcome] += 1
            if stage.outcome == "reject":
                reasons[stage.reason] += 1
    lines.append("fuzz: %d seeds in %.0f s" % (len(records), elapsed))
    lines.append("")
    lines.append("%-10s" % "stage" + "".join("%13s" % o for o in OUTCOMES))
    for name in STAGES:
        if counts[name]:
            lines.append("%-10s" % name + "".join("%13d" % counts[name][o] for o in OUTCOMES))
    lines.append("")
    lines.append("rejections by reason:")
    for reason, n in reasons.most_common():
        lines.append("  %5d  %s" % (n, reason))
    for title, items in (("NEW failures", new), ("known failures", expected)):
        lines.append("")
        lines.append("%s: %d" % (title, len(items)))
        for rec, stage in items:
            lines.append("  seed %d %s %s: %s" % (rec["seed"], stage.name, stage.outcome,
                                                   stage.reason))
            lines.append("    %s" % rec["header"])
            lines.append("    repro: %s" % reproducer(tools, rec, stage))
            if out_dir:
                lines.append("    module: %s" % os.path.join(out_dir, "seed-%d.mlir" % rec["seed"]))
    if fixed:
        lines.append("")
        lines.append("fixed (listed as known, now %s): %d" % ("/".join(sorted({f[2] for f in fixed})),
                                                          len(fixed)))
        for (seed, stage), (outcome, reason), now in fixed:
            lines.append("  seed %d %s was %s, now %s  # %s" % (seed, stage, outcome, now, reason))
    return "\n".join(lines)


def to_json(records, new, expected, fixed, elapsed):
    def stage_key(rec, stage):
        return {"seed": rec["seed"], "stage": stage.name, "outcome": stage.outcome,
                "reason": stage.reason}
    return {
        "seeds": len(records), "seconds": round(elapsed, 1),
        "records": [{"seed": r["seed"], "header": r["header"], "cse": r["cse"],
                     "stages": [s.to_json() for s in r["stages"]]} for r in records],
        "new_failures": [stage_key(r, s) for r, s in new],
        "known_failures": [stage_key(r, s) for r, s in expected],
        "fixed": [{"seed": k[0], "stage": k[1], "was": v[0], "now": now} for k, v, now in fixed],
    }


def keep_failing(records, out_dir):
    """Writes each failing seed's module and its failing stages' output."""
    os.makedirs(out_dir, exist_ok=True)
    for rec in records:
        failing = [s for s in rec["stages"] if s.outcome in FAILURES]
        if not failing:
            continue
        with open(os.path.join(out_dir, "seed-%d.mlir" % rec["seed"]), "w") as f:
            f.write(rec["text"])
        with open(os.path.join(out_dir, "seed-%d.log" % rec["seed"]), "w") as f:
            for s in failing:
                f.write("== %s %s: %s\n$ %s\n%s\n" % (s.name, s.outcome, s.reason,
                                                       " ".join(s.command), s.output[-20000:]))


# ---------------------------------------------------------------------------
# Driver


def parse_range(text):
    start, _, end = text.partition(":")
    return range(int(start), int(end))


def fuzz(seeds, tools, jobs, timeout, progress=True):
    records = []
    workdir = tempfile.mkdtemp(prefix="sf-fuzz-")
    try:
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            futures = [pool.submit(fuzz_seed, s, tools, timeout, workdir) for s in seeds]
            for i, future in enumerate(concurrent.futures.as_completed(futures), 1):
                records.append(future.result())
                if progress and (i % 25 == 0 or i == len(futures)):
                    print("fuzz: %d/%d seeds" % (i, len(futures)), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    records.sort(key=lambda r: r["seed"])
    return records


def main_run(args):
    tools = Tools(args.build_dir)
    known = read_known(args.known)
    start = time.monotonic()
    try:
        records = fuzz(parse_range(args.run), tools, args.jobs, args.timeout)
    finally:
        shutil.rmtree(tools.snapshot_dir, ignore_errors=True)
    elapsed = time.monotonic() - start
    new, expected, fixed = triage(records, known, parse_range(args.run))
    if args.out:
        keep_failing(records, args.out)
    print(summary(records, new, expected, fixed, tools, elapsed, args.out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(to_json(records, new, expected, fixed, elapsed), f, indent=1)
    return 1 if new else 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m spacefusion.fuzz",
                                     description="Differential fuzzer of the SpaceFusion pipeline")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--seed", type=int, help="print the module of this seed")
    mode.add_argument("--run", metavar="START:END", help="fuzz the seeds START..END-1")
    mode.add_argument("--minimize", type=int, metavar="SEED",
                      help="shrink a failing seed's module while the failure persists")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per tool run")
    parser.add_argument("--out", help="directory for the failing modules and their logs")
    parser.add_argument("--json", help="write the results as JSON to this file")
    parser.add_argument("--known", help="known-failures file: lines `seed stage outcome  # reason`")
    parser.add_argument("--build-dir", default=default_build_dir())
    parser.add_argument("--stage", help="with --minimize: the failing stage (default: the first)")
    args = parser.parse_args(argv)
    if args.seed is not None:
        sys.stdout.write(generate(args.seed))
        return 0
    if args.run:
        return main_run(args)
    from .fuzzmin import main_minimize
    return main_minimize(args)


if __name__ == "__main__":
    sys.exit(main())
