"""bench/model_check.py reads the schedule search from its remarks: the
candidates it builds must be the ones the search ranked, and a candidate
forced through the pipeline's options must be priced as the search priced
it. A change to the remarks' wording that the tool no longer parses fails
here, not silently on the GPU machine."""

import os
import sys

import pytest

import spacefusion as sf
from spacefusion.compiler import find_tools

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import model_check  # noqa: E402


@pytest.fixture(scope="module")
def opt():
    return find_tools(os.environ.get("SPACEFUSION_BUILD_DIR"))["spacefusion-opt"]


def test_candidates_are_parsed_best_first(opt):
    source = sf.workloads.attention(2, 4, 256, 64, dtype="f16")
    found = model_check.candidates_of(opt, source, 3, "")
    assert [c["rank"] for c in found] == [1, 2, 3]
    assert all(c["strategy"] and c["blocks"] > 0 and c["predicted"] > 0 for c in found)
    assert [c["predicted"] for c in found] == sorted(c["predicted"] for c in found)


def test_candidates_of_a_masked_graph(opt):
    # The remark adds the fraction of slices a mask lets a block skip.
    source = sf.workloads.attention(1, 2, 256, 64, dtype="f16", causal=True)
    found = model_check.candidates_of(opt, source, 2, "")
    assert [c["rank"] for c in found] == [1, 2]


def test_candidates_with_a_declared_residency(opt):
    # ViT's ragged 128-key slices: the schedule declares two blocks per SM.
    source = sf.workloads.attention(64, 12, 197, 64, dtype="f16")
    found = model_check.candidates_of(opt, source, 3, "")
    assert [c["rank"] for c in found] == [1, 2, 3]
    assert (found[0]["temporal"], found[0]["blocks_per_sm"], found[0]["regs"]) == ("l=128", 2, 128)
    assert found[0]["predicted"] == pytest.approx(forced_prediction(opt, source, found[0]))


def forced_prediction(opt, source, candidate):
    import subprocess
    options = model_check.forced_options(candidate["spatial"], candidate["temporal"])
    run = subprocess.run([opt, "--spacefusion-lower-gpu=chip=sm_90a format=isa " + options,
                          "--remarks-filter=smap", "--remark-format=emitRemark", "-o", "/dev/null", "-"],
                         input=source, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return float(model_check.GIVEN.search(run.stderr).group("predicted"))


def test_forced_candidate_is_priced_as_searched(opt):
    import subprocess
    source = sf.workloads.gemm(512, 512, 256, dtype="f16")
    second = model_check.candidates_of(opt, source, 2, "")[1]
    options = model_check.forced_options(second["spatial"], second["temporal"])
    run = subprocess.run([opt, "--spacefusion-lower-gpu=chip=sm_90a format=isa " + options,
                          "--remarks-filter=smap", "--remark-format=emitRemark", "-o", "/dev/null", "-"],
                         input=source, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert float(model_check.GIVEN.search(run.stderr).group("predicted")) == second["predicted"]


def test_partitioned_workloads_are_skipped(opt):
    # Forced tiles would apply to both parts of a partitioned graph.
    source = sf.workloads.linear_layernorm(8192, 768, 3072, dtype="f16")
    assert model_check.candidates_of(opt, source, 2, "") is None


def test_forced_options_and_rank_correlation():
    assert model_check.forced_options("b=1, m=128", "l=64") == "spatial=b:1,m:128 temporal=l:64"
    assert model_check.forced_options("", "") == ""
    assert model_check.spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert model_check.spearman([1, 2, 3], [30, 20, 10]) == pytest.approx(-1.0)


def test_ptx_of_an_isa_module(opt):
    import subprocess
    source = sf.workloads.gemm(256, 256, 128, dtype="f16")
    run = subprocess.run([opt, "--spacefusion-lower-gpu=chip=sm_90a format=isa", "-o", "-", "-"],
                         input=source, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    ptx = model_check.ptx_of(run.stdout)
    assert ptx.lstrip().startswith("//") and ".target sm_90a" in ptx and ".entry" in ptx
    assert '\\22' not in ptx and '\\0A' not in ptx
