"""`python3 -m spacefusion`: one command from a linalg file to a shared object."""

import ctypes
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-m", "spacefusion", *args], capture_output=True, text=True,
                          env=env)


def test_cpu_shared_object(tmp_path):
    result = run_cli("cpu", os.path.join(ROOT, "examples", "softmax_last.mlir"), "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    meta = json.loads((tmp_path / "softmax_last.json").read_text())
    assert meta["inputs"] == [[[4096, 1024], "f32"]] and meta["outputs"] == [[[4096, 1024], "f32"]]
    assert any("formed smap.graph" in d for d in meta["decisions"])
    assert hasattr(ctypes.CDLL(str(tmp_path / meta["library"])), "_mlir_ciface_softmax_last")


@pytest.mark.skipif(not os.path.exists(os.path.join(CUDA_HOME, "bin", "ptxas")), reason="needs ptxas")
def test_gpu_compiles_a_gemm_chain(tmp_path):
    result = run_cli("gpu", os.path.join(ROOT, "examples", "gemm_chain.mlir"), "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    meta = json.loads((tmp_path / "gemm_chain.json").read_text())
    [kernel] = meta["kernels"]
    assert kernel["strategy"] == "simt" and kernel["parts"]["fma"] == 3


@pytest.mark.skipif(not os.path.exists(os.path.join(CUDA_HOME, "bin", "ptxas")), reason="needs ptxas")
def test_gpu_runs_ops_outside_graphs_as_loop_kernels(tmp_path):
    # A convolution (windowed maps: no SMG) is a loop kernel of its own; the
    # relu after it, a graph that is not the whole function, a row kernel
    # built in place, launched after the loop kernel.
    result = run_cli("gpu", os.path.join(ROOT, "examples", "unsupported", "conv2d.mlir"),
                     "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    with open(os.path.join(str(tmp_path), "conv2d.json")) as f:
        kernels = json.load(f)["kernels"]
    assert [k["strategy"] for k in kernels] == ["loops", "rows"]
    assert kernels[0]["blocks"] * kernels[0]["threads"] >= 54 * 54 * 64
    assert "predicted" not in kernels[0]


def test_gpu_rejects_what_no_loop_kernel_runs_with_the_diagnostic_only(tmp_path):
    result = run_cli("gpu", os.path.join(ROOT, "test", "Pipelines", "Inputs", "gpu-index-tensor.mlir"),
                     "-o", str(tmp_path))
    assert result.returncode == 1
    # The error names the op and why it cannot run.
    assert ("'linalg.generic' cannot be compiled for the GPU: it is outside every fusion graph and "
            "cannot run as a loop kernel: element type index" in result.stderr)
    assert "see current operation" not in result.stderr


def test_missing_output_is_a_usage_error():
    result = run_cli("cpu", os.path.join(ROOT, "examples", "softmax_last.mlir"))
    assert result.returncode == 2 and "-o/--output" in result.stderr


@pytest.mark.skipif(not os.path.exists(os.path.join(CUDA_HOME, "bin", "ptxas")), reason="needs ptxas")
def test_gpu_options_reach_the_pipeline(tmp_path):
    source = os.path.join(ROOT, "examples", "softmax_last.mlir")
    result = run_cli("gpu", source, "-o", str(tmp_path), "--options", "row-kernels=false")
    assert result.returncode == 0, result.stderr
    meta = json.loads((tmp_path / "softmax_last.json").read_text())
    assert [k["strategy"] for k in meta["kernels"]] != ["rows"]
    result = run_cli("gpu", source, "-o", str(tmp_path), "--options", "no-such-option=1")
    assert result.returncode == 1 and "no-such-option" in result.stderr


def test_options_are_for_gpu_only():
    result = run_cli("cpu", os.path.join(ROOT, "examples", "softmax_last.mlir"), "-o", "/tmp/x",
                     "--options", "approx-math=false")
    assert result.returncode == 2 and "--options applies to gpu only" in result.stderr
