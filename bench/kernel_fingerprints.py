#!/usr/bin/env python3
"""Fingerprints what the GPU pipeline builds, to show that a refactoring
changed no kernel:

    /usr/bin/python3 bench/kernel_fingerprints.py record /tmp/before.json
    ... change the compiler, rebuild ...
    /usr/bin/python3 bench/kernel_fingerprints.py compare /tmp/before.json

Every example, every GPU pipeline input (test/Pipelines/Inputs) and every
workload of bench/build_fused.py is lowered by `--spacefusion-lower-gpu`
to PTX (format=isa, reproducible) and the output hashed; `compare` lists
what differs and exits 1 if anything does. No GPU is needed.
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spacefusion.compiler import find_tools  # noqa: E402
import build_fused  # noqa: E402


def sources():
    """(name, MLIR text) of everything fingerprinted."""
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")) +
                   glob.glob(os.path.join(ROOT, "test", "Pipelines", "Inputs", "*.mlir")))
    for path in paths:
        with open(path) as f:
            yield os.path.relpath(path, ROOT), f.read()
    for tag, generator, shape, dtype, _ in build_fused.WORKLOADS:
        source, _ = build_fused.source_of(generator, shape, dtype)
        yield "%s_%s_%s" % (tag, build_fused.shape_tag(shape), dtype), source


def fingerprint(opt, source, options=""):
    result = subprocess.run([opt, "-", "--mlir-print-op-on-diagnostic=false",
                             "--spacefusion-lower-gpu=chip=sm_90a format=isa reproducible=true " +
                             options],
                            input=source, capture_output=True, text=True)
    if result.returncode != 0:
        # A rejected input is fingerprinted by its diagnostic.
        return "error: " + hashlib.sha256(result.stderr.encode()).hexdigest()[:16]
    return hashlib.sha256(result.stdout.encode()).hexdigest()[:16]


def fingerprints(jobs, options=""):
    opt = find_tools(os.environ.get("SPACEFUSION_BUILD_DIR"))["spacefusion-opt"]
    named = list(sources())
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        hashes = pool.map(lambda item: fingerprint(opt, item[1], options), named)
        return dict(zip((name for name, _ in named), hashes))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["record", "compare"])
    parser.add_argument("file")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--options", default="",
                        help="more --spacefusion-lower-gpu options (e.g. to turn a new pass "
                             "off and show that nothing else changed)")
    args = parser.parse_args()
    now = fingerprints(args.jobs, args.options)
    if args.mode == "record":
        with open(args.file, "w") as f:
            json.dump(now, f, indent=1, sort_keys=True)
        print("recorded %d fingerprints in %s" % (len(now), args.file))
        return 0
    with open(args.file) as f:
        before = json.load(f)
    changed = sorted(name for name in now if before.get(name) != now[name])
    for name in changed:
        print("changed: %s (%s -> %s)" % (name, before.get(name), now[name]))
    print("%d of %d unchanged" % (len(now) - len(changed), len(now)))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
