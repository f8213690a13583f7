#!/usr/bin/env python3
"""Writes bench/results/fused-history.md from the recorded versions
bench/results/fused-v*.json: what each version of the GPU lowering changed
and the TFLOP/s of every timed workload it reached (H200, fp16)."""
import json
import os

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
VERSIONS = [
    ("v1-cuda-cores", "every contraction on CUDA cores; intermediates in shared memory, global scratch when short"),
    ("v2-mma-sync", "f16 contractions on mma.sync m16n8k16, fragments gathered per lane from memory"),
    ("v3-in-place-state", "state accumulated in place (rescale then accumulate); tensor-core-aware schedule"),
    ("v4-ldmatrix", "operand tiles staged in shared memory, fragments by ldmatrix (bank conflicts)"),
    ("v5-vector-copies", "16-byte vector copies for staging and outputs"),
    ("v6-padded-staging", "staged rows padded by 16 bytes (conflict-free ldmatrix); state counted in shared "
                          "memory by the cost model; outputs written in place"),
    ("v7-register-accumulators", "accumulators of a contraction that ends the k step kept in registers across "
                                 "the loop"),
    ("v8-overlapped-loads", "copies with few chunks per thread issue all their loads before their stores"),
    ("v9-prefetch", "a register-accumulator loop loads its next step's operand tiles while the tensor cores work "
                    "on the current step"),
    ("v10-prefetch-all-loops", "every temporal loop with staged tiles prefetches them (attention's K and V, "
                               "the MLP's weights)"),
    ("v11-constants-in-kernels", "constants sunk into the kernels before outlining (immediates instead of kernel "
                                 "parameters)"),
    ("v12-cost-based-partition", "a fused schedule predicted far slower than its parts is partitioned (wide MLP, "
                                 "LSTM cell); all baseline shapes"),
    ("v13-row-fragments", "register-level fusion: each warp owns 16 or 32 rows, row tiles in mma.sync accumulator "
                          "registers, row reductions by shuffles, P as the A operand from registers; ex2.approx "
                          "exp; warp grid for register accumulators; cp.async 3-stage staging; partition checked "
                          "from 3x the ideal time"),
    ("v14-rounded-staging", "an f32 operand the tensor cores read rounded (a partitioned graph's intermediate) is "
                            "staged rounded to f16 and read by ldmatrix; exp(x - c) as ex2 of one fma"),
    ("v15-unrolled-k", "register-accumulator k-steps straight-line (ldmatrix of the next k-step overlaps mma.sync); "
                       "f32 tanh on ex2.approx"),
    ("v16-paired-accesses", "row fragments read and write the two neighbouring columns a lane holds with one "
                            "vector access (attention's f16 output as 4-byte stores); measured without baselines "
                            "and without the GEMMs (device time ran out): `--ours-only --only "
                            "'attention|mlp|chain|lstm'`"),
    ("v17-wgmma-tma", "GEMM blocks on Hopper wgmma (one warpgroup, 128x128x64) fed by TMA loads on mbarriers "
                      "into 3 swizzled stages, epilogue in place over the accumulator tile; the cost model "
                      "charges mma.sync at 0.45 of the sm_90 peak for single GEMMs; partition cuts read only "
                      "by tensor cores go through memory in f16 (MLP and GEMM chain parts on wgmma)"),
    ("v18-fused-epilogue", "consecutive elementwise ops of a block (a GEMM's bias, activation and rounding) in "
                           "one thread-strided pass, 4 iterations per trip with the loads first, values in "
                           "registers between them"),
    ("v19-wgmma-attention", "row fragments on Hopper wgmma: each warpgroup issues its 64 rows' contractions as "
                            "wgmma on the accumulator registers (Q K^T through two swizzled-tile descriptors, "
                            "P V with P from registers, V through a transposed descriptor), cp.async copies "
                            "write the 128-byte swizzle; the cost model keeps row tiles in registers and picks "
                            "128-wide K / V steps, on two cp.async stages (two blocks per SM)"),
    ("v20-host-buffers", "the runtime keeps buffers freed on the caller's stream for the next call (the "
                         "driver's stream-ordered free and allocation of a partitioned graph's intermediate "
                         "had cost 300-470 us of host time per call, more than the kernels); GELU's tanh "
                         "on tanh.approx.f32; TMA pipeline depth chosen by how the blocks fill their waves"),
    ("v21-setmaxnreg", "optional warp specialization with setmaxnreg (two consumer warpgroups, 128x256 tiles; "
                       "measured slower, not chosen by the search); a TMA depth tie over a grid of several "
                       "waves goes to the shallower depth (the K=768 GEMM and the MLPs on two stages)"),
    ("v22-raster-groups", "blocks of a wide two-dim grid (32 or more columns) numbered in groups of 16 rows, "
                          "column-major inside a group, so that the blocks running at once share A and B "
                          "tiles in L2 (large GEMMs and the wide MLP)"),
    ("v23-checked-entries", "entry points check the descriptors' sizes before launching; the harness "
                            "re-checks outputs after timing, adds SDPA mem-efficient and the cuBLAS 8192^3 "
                            "ceiling in the same run (same kernels as v22)"),
]


def shape(workload, args):
    if workload == "gemm_chain":
        return "%dx%s" % (args[0], "x".join(map(str, args[1])))
    return "x".join(map(str, args))


def main():
    timed, rows = None, []
    for tag, change in VERSIONS:
        path = os.path.join(RESULTS, "fused-%s.json" % tag)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            results = json.load(f)["results"]
        measured = [r for r in results if r.get("timed")]
        if timed is None:
            timed = [(r["workload"], r["args"]) for r in measured]
        values = []
        for workload, args in timed:
            match = [r for r in measured if r["workload"] == workload and r["args"] == args]
            values.append("%.1f" % match[0]["spacefusion_TFLOPs"]
                          if match and "spacefusion_TFLOPs" in match[0] else "-")
        correct = all(r.get("correct") for r in results if "error" not in r)
        rows.append("| %s | %s | %s | %s |" % (tag, change, " | ".join(values), "yes" if correct else "NO"))
    lines = ["# Compute-bound graphs: what each version changed (H200, fp16, TFLOP/s)", "",
             "Every version was checked for correctness on all the shapes of `bench/build_fused.py` before "
             "timing (column `all correct`). Raw data: `fused-v*.json`; the latest full table: "
             "[fused.md](fused.md). \"-\": not built (v1 could not schedule the f16 LSTM cell before "
             "`smap-fuse-conversions`) or not run (v16 ran a subset). Regenerate with `bench/history_fused.py`.", "",
             "| version | change | " + " | ".join("%s %s" % (w, shape(w, a)) for w, a in timed) + " | all correct |",
             "|---|---|" + "---|" * len(timed) + "---|"] + rows
    with open(os.path.join(RESULTS, "fused-history.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
