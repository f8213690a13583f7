#!/usr/bin/env python3
"""Lists the schedule smap-schedule chooses for every build_fused.py
workload (no GPU needed), or compares two such lists: the way to see which
benchmark kernels a cost-model change touches before timing them.

    /usr/bin/python3 bench/schedules.py build/bin/spacefusion-opt before.json
    (change, rebuild)
    /usr/bin/python3 bench/schedules.py build/bin/spacefusion-opt after.json
    /usr/bin/python3 bench/schedules.py --diff before.json after.json

Each entry holds the `chosen` remarks of the sm_90a pipeline (strategy,
tiles, blocks, threads, predicted time), one per graph, and the
`block-kernel` remarks of what was built.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_fused import WORKLOADS, shape_tag, source_of  # noqa: E402

CHOSEN = re.compile(r'chosen \| .*Remark="scheduled for [^:]*: (?P<text>[^"]*)"')
BUILT = re.compile(r'block-kernel \| .*Remark="lowered to one kernel: (?P<text>[^"]*)"')


def chosen_schedules(opt, source, options):
    command = [opt, "--mlir-print-op-on-diagnostic=false",
               "--spacefusion-lower-gpu=chip=sm_90a format=isa " + options,
               "--remarks-filter=smap", "--remark-format=emitRemark", "-o", "/dev/null", "-"]
    run = subprocess.run(command, input=source, capture_output=True, text=True)
    if run.returncode:
        return {"error": run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "failed"}
    schedules = []
    for match in CHOSEN.finditer(run.stderr):
        # The runner-up and candidate count say how the choice was made, not
        # what was built.
        schedules.append(match.group("text").split("; runner-up")[0].split("; 0 candidates")[0])
    built = [match.group("text") for match in BUILT.finditer(run.stderr)]
    return {"schedules": schedules, "kernels": built}


def list_schedules(opt, out, only, options):
    result = {}
    for tag, generator, shape, dtype, timed in WORKLOADS:
        name = "%s_%s_%s" % (tag, shape_tag(shape), dtype)
        if only and not re.search(only, name):
            continue
        source, _ = source_of(generator, shape, dtype)
        result[name] = dict(chosen_schedules(opt, source, options), timed=timed)
        print(name, "; ".join(result[name].get("schedules", [result[name].get("error", "")])),
              flush=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


def diff(before_path, after_path):
    before, after = (json.load(open(p)) for p in (before_path, after_path))
    changed = 0
    for name in sorted(set(before) | set(after)):
        a, b = before.get(name, {}), after.get(name, {})
        keys = ("schedules", "kernels", "error")
        if all(a.get(k) == b.get(k) for k in keys):
            continue
        changed += 1
        print("%s%s" % (name, " (timed)" if (a or b).get("timed") else ""))
        for k in keys:
            if a.get(k) != b.get(k):
                print("  %s before: %s" % (k, a.get(k)))
                print("  %s after:  %s" % (k, b.get(k)))
    print("%d of %d workloads changed" % (changed, len(set(before) | set(after))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs=2, help="OPT OUT.json, or BEFORE.json AFTER.json with --diff")
    parser.add_argument("--diff", action="store_true")
    parser.add_argument("--only", default="", help="the workloads matching this regex")
    parser.add_argument("--options", default="", help="more --spacefusion-lower-gpu options")
    args = parser.parse_args()
    if args.diff:
        diff(*args.paths)
    else:
        list_schedules(args.paths[0], args.paths[1], args.only, args.options)


if __name__ == "__main__":
    main()
