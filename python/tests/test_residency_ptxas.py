"""A residency the schedule declares is one ptxas builds: the kernel's
`.maxnreg` is the schedule's register count, and ptxas (sm_90a, -O3)
allocates at most that many, so the declared blocks fit the SM."""

import os
import re
import subprocess
import sys

import pytest

from spacefusion.compiler import find_tools

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.environ.get("SPACEFUSION_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import model_check  # noqa: E402

PTXAS = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
pytestmark = pytest.mark.skipif(not os.path.exists(PTXAS), reason="needs ptxas")
VIT = os.path.join(ROOT, "test", "Pipelines", "Inputs", "attention_vit_f16.mlir")


def ptxas_registers(options, tmp_path):
    opt = find_tools(BUILD)["spacefusion-opt"]
    run = subprocess.run([opt, VIT, "--spacefusion-lower-gpu=format=isa " + options],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    ptx = tmp_path / "kernel.ptx"
    ptx.write_text(model_check.ptx_of(run.stdout))
    usage = subprocess.run([PTXAS, "-arch=sm_90a", "-O3", "-v", str(ptx), "-o", os.devnull],
                           capture_output=True, text=True)
    assert usage.returncode == 0, usage.stderr
    declared = re.search(r"\.maxnreg (\d+)", ptx.read_text())
    return int(model_check.PTXAS_USAGE.search(usage.stderr).group("regs")), declared


def test_declared_residency_holds_in_ptxas(tmp_path):
    used, declared = ptxas_registers("", tmp_path)
    assert declared and int(declared.group(1)) == 128
    assert used <= 128


def test_undeclared_kernel_takes_more(tmp_path):
    """The same tiles without a declaration: ptxas takes more than two
    blocks' share (the check above could fail)."""
    used, declared = ptxas_registers("spatial=b:1,h:1,m:128 temporal=l:128 blocks-per-sm=1", tmp_path)
    assert declared and int(declared.group(1)) == 255
    assert used > 128
