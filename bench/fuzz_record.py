#!/usr/bin/env python3
"""Writes the record of a fuzzer run: a markdown table and a summary JSON.

    fuzz_record.py RUN.json COMMIT OUT_BASE

RUN.json is `python3 -m spacefusion.fuzz --run A:B --json RUN.json`'s output;
OUT_BASE.md and OUT_BASE.json get the counts per stage and outcome, the
rejections by reason, the dtypes and graph kinds covered, and every failure
(the per-seed records stay out: they are the fuzzer's to regenerate).
"""
import collections
import datetime
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from spacefusion.fuzz import FAILURES, OUTCOMES  # noqa: E402


def summarize(run):
    counts = collections.defaultdict(collections.Counter)
    reasons = collections.Counter()
    failures = []
    kinds = collections.Counter()
    dtypes = collections.Counter()
    for record in run["records"]:
        header = record.get("header", "")
        dtype = re.search(r"dtype=(\w+)", header)
        dtypes[dtype.group(1) if dtype else "?"] += 1
        for step in re.findall(r"(\w[\w-]*)\(", header.split("steps=")[-1]):
            kinds[step] += 1
        for stage in record["stages"]:
            counts[stage["stage"]][stage["outcome"]] += 1
            if stage["outcome"] == "reject":
                reasons[stage["reason"]] += 1
            if stage["outcome"] in FAILURES:
                failures.append({"seed": record["seed"], "stage": stage["stage"],
                                 "outcome": stage["outcome"], "reason": stage["reason"]})
    return counts, reasons, failures, kinds, dtypes


def main():
    run_file, commit, out = sys.argv[1:4]
    run = json.load(open(run_file))
    counts, reasons, failures, kinds, dtypes = summarize(run)
    seeds = [r["seed"] for r in run["records"]]
    summary = {
        "commit": commit, "date": datetime.date.today().isoformat(),
        "seeds": [min(seeds), max(seeds) + 1], "seconds": run.get("seconds"),
        "counts": {stage: dict(c) for stage, c in counts.items()},
        "rejections": dict(reasons.most_common()), "failures": failures,
        "dtypes": dict(dtypes), "graph_kinds": dict(kinds.most_common()),
    }
    json.dump(summary, open(out + ".json", "w"), indent=1)
    lines = ["# Fuzzer run: seeds %d-%d" % (min(seeds), max(seeds)), "",
             "Commit `%s`, %s, %.0f s with 2 jobs on the 2-core CPU machine." %
             (commit, summary["date"], run.get("seconds") or 0),
             "Command: `PYTHONPATH=python python3 -m spacefusion.fuzz --run %d:%d --jobs 2 --json run.json`"
             % (min(seeds), max(seeds) + 1), "",
             "| stage | " + " | ".join(OUTCOMES) + " |",
             "|---|" + "---|" * len(OUTCOMES)]
    for stage, c in counts.items():
        lines.append("| %s | %s |" % (stage, " | ".join(str(c.get(o, 0)) for o in OUTCOMES)))
    lines += ["", "Failures (wrong, crash, invalid IR, mispredicted, timeout): %d" % len(failures), ""]
    for f in failures:
        lines.append("- seed %d, %s: %s: %s" % (f["seed"], f["stage"], f["outcome"], f["reason"]))
    lines += ["", "## Rejections by reason", "", "| count | reason |", "|---|---|"]
    lines += ["| %d | %s |" % (n, r.replace("|", "\\|")) for r, n in reasons.most_common()]
    lines += ["", "## Coverage", "",
              "dtypes: " + ", ".join("%s %d" % kv for kv in dtypes.most_common()), "",
              "graph steps (modules containing each): " +
              ", ".join("%s %d" % kv for kv in kinds.most_common())]
    open(out + ".md", "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
