#!/usr/bin/env python3
"""Plots bench/results/rows.json (written by run_rows.py on the GPU machine)
as bench/results/rows.png: achieved bandwidth of SpaceFusion, PyTorch eager
and torch.compile per workload, direct calls and CUDA-graph replay. Needs
python3-matplotlib (apt); runs anywhere.

    /usr/bin/python3 bench/plot_rows.py [bench/results/rows.json]
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERIES = [("spacefusion", "SpaceFusion", "#1f77b4"), ("eager", "PyTorch eager", "#aaaaaa"),
          ("torch.compile", "torch.compile", "#ff7f0e")]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results", "rows.json")
    with open(path) as f:
        data = json.load(f)
    rows = [r for r in data["results"] if "error" not in r]
    labels = ["%s\n%s" % (r["workload"], r["shape"]) for r in rows]
    fig, axes = plt.subplots(2, 1, figsize=(max(8, 1.3 * len(rows)), 8), sharex=True)
    width = 0.8 / len(SERIES)
    for ax, suffix, title in ((axes[0], "_GBps", "direct calls from Python"),
                              (axes[1], "_graph_GBps", "CUDA graph replay (device time)")):
        for i, (key, name, color) in enumerate(SERIES):
            xs = [j + (i - 1) * width for j in range(len(rows))]
            ax.bar(xs, [r[key + suffix] for r in rows], width, label=name, color=color)
        ax.set_ylabel("GB/s")
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(loc="upper left")
    axes[1].set_xticks(range(len(rows)))
    axes[1].set_xticklabels(labels, fontsize=8)
    info = data["info"]
    fig.suptitle("Memory-bound graphs, fp16, %s (PyTorch %s, CUDA %s, %s)" % (
        info["device"], info["torch"], info["cuda"], info["date"]))
    fig.tight_layout()
    out = os.path.splitext(path)[0] + ".png"
    fig.savefig(out, dpi=100)
    print("wrote", out)


if __name__ == "__main__":
    main()
