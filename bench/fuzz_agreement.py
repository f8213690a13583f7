#!/usr/bin/env python3
"""Predicted against built, over the kernels of GPU fuzz builds.

    python3 bench/fuzz_agreement.py build/gf1300 build/gf1600 [--md OUT.md]

Every kernel record of a built seed (`bench/gpu_fuzz.py build`, the GPU
object's NAME.json) holds what was built and what its schedule predicted
(`predicted`, from #smap.schedule). Counts per strategy: kernels whose
strategy, threads or blocks differ from the prediction (the lowering fails
on those, so this stays 0), and shared memory equal to, above or below the
prediction (below: the prediction is a bound). No GPU needed.
"""
import argparse
import collections
import json
import os
import sys

FIELDS = ("strategy", "threads", "blocks")


def kernel_records(build_dir):
    for name in sorted(os.listdir(build_dir)):
        sdir = os.path.join(build_dir, name)
        if not os.path.isdir(sdir):
            continue
        for f in os.listdir(sdir):
            if f.endswith(".json") and not f.endswith(".kernels.json"):
                for kernel in json.load(open(os.path.join(sdir, f))).get("kernels") or []:
                    if "predicted" in kernel:
                        yield name, kernel


def tally(build_dirs):
    stats = collections.defaultdict(collections.Counter)
    worst = {}
    for build_dir in build_dirs:
        for seed, kernel in kernel_records(build_dir):
            predicted, counts = kernel["predicted"], stats[kernel["strategy"]]
            counts["kernels"] += 1
            for field in FIELDS:
                counts[field + " differs"] += predicted[field] != kernel[field]
            placed, bound = kernel["smem"], predicted["smem"]
            counts["smem equal" if placed == bound else "smem below" if placed < bound else "smem above"] += 1
            ratio = bound / placed if placed else float("inf") if bound else 1.0
            if placed < bound and ratio > worst.get(kernel["strategy"], (0, None))[0]:
                worst[kernel["strategy"]] = (ratio, "seed %s: %d predicted, %d placed" % (seed, bound, placed))
    return stats, worst


def markdown(stats, worst, build_dirs):
    columns = ["kernels"] + [f + " differs" for f in FIELDS] + ["smem equal", "smem below", "smem above"]
    lines = ["Predicted against built over the kernels of %s." % ", ".join(build_dirs), "",
             "| strategy | " + " | ".join(columns) + " | largest over-prediction |",
             "|---" * (len(columns) + 2) + "|"]
    for strategy in sorted(stats):
        lines.append("| %s | %s | %s |" % (strategy, " | ".join(str(stats[strategy][c]) for c in columns),
                                            worst.get(strategy, (0, "-"))[1]))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dirs", nargs="+")
    parser.add_argument("--md", help="write the table here too")
    args = parser.parse_args()
    stats, worst = tally(args.build_dirs)
    text = markdown(stats, worst, args.build_dirs)
    sys.stdout.write(text)
    if args.md:
        with open(args.md, "w") as f:
            f.write(text)
    bad = sum(stats[s][f + " differs"] for s in stats for f in FIELDS)
    bad += sum(stats[s]["smem above"] for s in stats)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
