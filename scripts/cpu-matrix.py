#!/usr/bin/env python3
"""Differential runs of every example on the CPU, over shapes and slice sizes.

    cpu-matrix.py TOOLS_DIR EXAMPLES_DIR [NAME ...]

TOOLS_DIR holds spacefusion-opt and spacefusion-run (build/bin).

For each example (all of EXAMPLES_DIR/*.mlir unless names are given) and for
each of two shapes (the sizes in SHAPES rewritten by scale-shapes.py), it
reads the graph's dims from `smap-analyze`, then runs `spacefusion-run` with
the searched schedule and with two forced temporal slice sizes (a quarter and
a half of the extent) of every temporal dim, and a slice size that does not
divide the first temporal dim (a ragged last slice, overlapping the previous
one, its repeated elements left out of the reductions). Each run
prints one line (with "sliced" when the temporal slicer materialized a
slice, "not sliced" when it declined with a remark); the exit status is 1 if
any run fails or any error is missing.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Two shapes per example, small enough for a CPU: scale-shapes.py rewrites.
SHAPES = {
    "attention": ["512=128", "512=64 8=2"],
    "attention_kt": ["256=128", "256=64 16=4"],
    "attention_mask": ["512=128", "512=64 8=2"],
    "attention_paper": ["512=128", "512=256"],
    "bert_output": ["4096=64 3072=96 768=128", "4096=32 3072=64 768=64"],
    "gemm_chain": ["1024=64", "1024=32 256=128"],
    "layernorm": ["4096=256", "4096=64 1024=512"],
    "lstm_cell": ["", "64=32"],
    "mlp": ["4096=64 3072=256 768=64", "4096=32 3072=128 768=128"],
    "rmsnorm": ["4096=256", "4096=64 1024=512"],
    "rmsnorm_gemm": ["4096=64 1024=128", "4096=32 1024=256"],
    "softmax_dim0": ["", "1024=256 512=128"],
    "softmax_last": ["4096=256", "4096=64 1024=512"],
    "softmax_named": ["4096=128", "4096=64 1024=512"],
}

# Examples whose forced schedules cannot run, and why.
SEARCHED_ONLY = {
    "lstm_cell": "partitioned: a forced schedule covers the whole graph, which "
                 "does not fit the target; the searched parts slice k1 temporally",
}

DIM = re.compile(r'#smap\.dim<"(\w+)", (\d+), (\w+)>')


def temporal_dims(opt, path):
    """(name, extent) of every temporal dim of the file's graphs."""
    out = subprocess.run([opt, "--smap-form-graphs", "--smap-analyze", path],
                         capture_output=True, text=True, check=True).stdout
    dims = {}
    for line in out.splitlines():
        if "smap.graph" in line and "dims = [" in line:
            for name, extent, cls in DIM.findall(line.split("dims = [", 1)[1]):
                if cls == "temporal":
                    dims[name] = int(extent)
    return sorted(dims.items())


def searched_spatial(output):
    """The --spatial option that repeats the searched blocks of every graph."""
    tiles = {}
    for graph in re.findall(r"spatial = \[([^\]]*)\]", output):
        for dim, size in re.findall(r"(\w+) = (\d+)", graph):
            tiles.setdefault(dim, size)
    spec = ",".join(f"{dim}:{size}" for dim, size in tiles.items())
    return [f"--spatial={spec}"] if spec else []


def non_divisor(extent):
    return next(n for n in range(max(3, extent // 3), extent) if extent % n)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tools, examples = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or sorted(SHAPES)
    opt = os.path.join(tools, "spacefusion-opt")
    run = os.path.join(tools, "spacefusion-run")
    tmp = os.environ.get("TMPDIR", "/tmp")
    failures = 0
    for name in names:
        for index, mapping in enumerate(SHAPES[name]):
            text = subprocess.run(
                [sys.executable, os.path.join(HERE, "scale-shapes.py"),
                 os.path.join(examples, name + ".mlir")] + mapping.split(),
                capture_output=True, text=True, check=True).stdout
            path = os.path.join(tmp, f"cpu-matrix-{os.getpid()}-{name}-{index}.mlir")
            with open(path, "w") as f:
                f.write(text)
            dims = temporal_dims(opt, path)
            if name in SEARCHED_ONLY:
                print(f"{name} shape{index}: searched schedule only: {SEARCHED_ONLY[name]}")
                dims = []
            schedules = [[]]
            spatial = None if dims else []
            for schedule in schedules:
                result = subprocess.run([run, path, "--reps=1"] + schedule,
                                        capture_output=True, text=True)
                verdict = re.search(r"max abs error ([^,]+),.*: (PASS|FAIL)", result.stdout)
                ok = result.returncode == 0 and verdict and verdict.group(2) == "PASS"
                failures += not ok
                label = " ".join(schedule) or "searched"
                if "temporally sliced" in result.stdout:
                    label += " (sliced)"
                elif any(arg.startswith("--temporal") for arg in schedule):
                    label += " (not sliced)"
                error = verdict.group(1) if verdict else "-"
                print(f"{name} shape{index} {label}: max error {error}: "
                      f"{'PASS' if ok else 'FAIL'}")
                if not ok:
                    print(result.stdout + result.stderr)
                if spatial is None:
                    # The forced temporal slices keep the searched blocks.
                    spatial = searched_spatial(result.stdout)
                    for dim, extent in dims:
                        for size in (extent // 4, extent // 2):
                            schedules.append([f"--temporal={dim}:{size}"] + spatial)
                    for dim, extent in dims[:1]:
                        schedules.append([f"--temporal={dim}:{non_divisor(extent)}"] + spatial)
            os.remove(path)
    print(f"{failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
