#!/usr/bin/env python3
"""Plots bench/results/fused.json (written by run_fused.py on the GPU
machine) as bench/results/fused.png: TFLOP/s of SpaceFusion and of each
baseline measured in the same run, per timed workload (log scale). Needs
python3-matplotlib (apt); runs anywhere.

    /usr/bin/python3 bench/plot_fused.py [bench/results/fused.json]
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERIES = [("spacefusion", "SpaceFusion", "#1f77b4"), ("eager", "PyTorch eager", "#aaaaaa"),
          ("torch.compile", "torch.compile", "#ff7f0e"), ("SDPA flash", "SDPA FlashAttention-2", "#2ca02c"),
          ("SDPA cuDNN", "SDPA cuDNN", "#9467bd"), ("SDPA mem-efficient", "SDPA mem-efficient", "#8c564b"),
          ("cuBLAS", "cuBLAS", "#d62728")]


def label(r):
    args = r["args"]
    if r["workload"] == "gemm_chain":
        args = [args[0]] + list(args[1])
    return "%s\n%s" % (r["workload"], "x".join(str(a) for a in args))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results", "fused.json")
    with open(path) as f:
        data = json.load(f)
    rows = [r for r in data["results"] if r.get("timed") and "spacefusion_TFLOPs" in r]
    fig, ax = plt.subplots(figsize=(max(10, 1.2 * len(rows)), 6))
    width = 0.8 / len(SERIES)
    for i, (key, name, color) in enumerate(SERIES):
        xs, ys = [], []
        for j, r in enumerate(rows):
            if key + "_TFLOPs" in r:
                xs.append(j + (i - len(SERIES) / 2 + 0.5) * width)
                ys.append(r[key + "_TFLOPs"])
        if xs:
            ax.bar(xs, ys, width, label=name, color=color)
    ax.set_yscale("log")
    ax.set_ylabel("TFLOP/s (log)")
    ax.set_title("Compute-bound graphs, fp16, %s (%s)" % (data["info"]["device"], data["info"]["date"]))
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([label(r) for r in rows], fontsize=7)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=len(SERIES), fontsize=8)
    fig.tight_layout()
    out = os.path.join(os.path.dirname(path), "fused.png")
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
