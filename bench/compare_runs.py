#!/usr/bin/env python3
"""Tabulates a before/after run of bench/run_before_after.sh:

    python3 bench/compare_runs.py RUN_DIR OUT.md [--json OUT.json]

RUN_DIR holds new1/ (with the baselines), old1/, new2/, old2/ as
run_fused.py writes them. For every timed workload: each run's TFLOP/s, the ratio of the
means (after / before), and the best baseline of the same run; the JSON also
keeps the kernel records before and after.
"""
import argparse
import json
import os
import statistics

RUNS = ("new1", "old1", "new2", "old2")


def key(row):
    return (row.get("tag", row["workload"]), json.dumps(row["args"]), row["dtype"])


def load(run_dir, run):
    """(info, rows by workload): from fused.json, else from the rows
    run_fused.py prints one per line into RUN.log (the info then unknown)."""
    path = os.path.join(run_dir, run, "fused.json")
    if os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
        return data["info"], {key(r): r for r in data["results"]}
    log = os.path.join(run_dir, run + ".log")
    if not os.path.exists(log):
        return {}, {}
    with open(log) as f:
        rows = [json.loads(line) for line in f if line.startswith("{")]
    return {}, {key(r): r for r in rows}


def best_baseline(row):
    rates = {k[:-7]: v for k, v in row.items()
             if k.endswith("_TFLOPs") and not k.startswith("spacefusion")}
    if not rates:
        return ""
    label = max(rates, key=rates.get)
    return "%s %.1f" % (label, rates[label])


def shape_of(row):
    args = row["args"]
    if row["workload"] == "gemm_chain":
        args = args[:1] + args[1]
    return "x".join(str(a) for a in args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir")
    parser.add_argument("out")
    parser.add_argument("--json")
    parser.add_argument("--before", help="the old bundle's commit, when its info was not kept")
    args = parser.parse_args()
    infos, runs = {}, {}
    for run in RUNS:
        infos[run], runs[run] = load(args.run_dir, run)
    lines = ["| workload | shape | dtype | before TFLOP/s | after TFLOP/s | after / before "
             "| correct | best baseline (this run) |", "|---|---|---|---|---|---|---|---|"]
    table = []
    for k, new in runs["new1"].items():
        old = runs["old1"].get(k)
        if not new.get("timed") or old is None:
            continue
        before = [runs[r][k]["spacefusion_TFLOPs"] for r in ("old1", "old2")
                  if "spacefusion_TFLOPs" in runs[r].get(k, {})]
        after = [runs[r][k]["spacefusion_TFLOPs"] for r in ("new1", "new2")
                 if "spacefusion_TFLOPs" in runs[r].get(k, {})]
        ratio = statistics.mean(after) / statistics.mean(before) if before and after else None
        correct = all(runs[r].get(k, {}).get("correct", False) for r in RUNS if runs[r])
        table.append({"workload": new["workload"], "shape": shape_of(new), "dtype": new["dtype"],
                      "kernel_before": old.get("kernel"), "kernel_after": new.get("kernel"),
                      "before_TFLOPs": before, "after_TFLOPs": after, "ratio": ratio, "correct": correct})
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            new["workload"], shape_of(new), new["dtype"],
            ", ".join("%.1f" % x for x in before), ", ".join("%.1f" % x for x in after),
            "%.3f" % ratio if ratio else "", "yes" if correct else "NO", best_baseline(new)))
    commits = "before `%s`, after `%s`" % (args.before or infos["old1"].get("commit", "?"),
                                           infos["new1"].get("commit", "?"))
    with open(args.out, "w") as f:
        f.write("Commits: %s. Device: %s, %s.\n\n" % (commits, infos["new1"].get("device", "?"),
                                                     infos["new1"].get("date", "?")))
        f.write("\n".join(lines) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"info": infos, "rows": table}, f, indent=1)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
