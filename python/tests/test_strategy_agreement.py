"""The kernel strategy is decided once: what smap-schedule records is what
convert-smap-to-gpu (row kernels) and smap-distribute-blocks (every other
graph) build.

For every example, every pipeline input and the benchmarks' shapes in f16,
the GPU pipeline for sm_90a runs to PTX; each kernel record of the
manifest (smap-write-kernel-manifest) holds what was built and what its
schedule predicted (`predicted`, from #smap.schedule), which must agree:
the same strategy, threads, blocks and pipeline stages (TMA or cp.async),
and the same shared memory (at least the placed bytes for simt). A
mismatch inside the lowering is an error (tested in
test/Conversion/SMapToGPU/distribute-blocks-strategy-invalid.mlir);
this checks that the cost model never predicts one the lowering refuses.
"""

import glob
import json
import os
import re
import subprocess

import pytest

import spacefusion as sf
from spacefusion.compiler import find_tools

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.environ.get("SPACEFUSION_BUILD_DIR", os.path.join(ROOT, "build"))

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
# Inputs the GPU path rejects on purpose (tested for their diagnostics).
REJECTED = {"f8-tensor.mlir", "gpu-index-tensor.mlir", "gpu-reshape-only.mlir", "grid-limit.mlir",
            "unregistered-op.mlir"}
INPUTS = sorted(p for p in glob.glob(os.path.join(ROOT, "test", "Pipelines", "Inputs", "*.mlir"))
                if os.path.basename(p) not in REJECTED)
WORKLOADS = {
    "gemm_4096_f16": lambda: sf.workloads.gemm(4096, 4096, 4096, dtype="f16"),
    "gemm_2048x1024x1024_f16": lambda: sf.workloads.gemm(2048, 1024, 1024, dtype="f16"),
    # torch-mlir's 3-D linear: relayouts folded into the contraction.
    "linear_3d_4x512x1024x1024_f16": lambda: sf.workloads.linear_3d(4, 512, 1024, 1024, dtype="f16"),
    "linear_3d_8x1024x768x3072_bf16": lambda: sf.workloads.linear_3d(8, 1024, 768, 3072, dtype="bf16"),
    # The weight [n, k] in the matmul's indexing maps (K-major B on TMA).
    "linear_8192x3072x768_bf16": lambda: sf.workloads.linear(8192, 3072, 768, dtype="bf16"),
    # The accumulator is the result: f32, no epilogue.
    "gemm_4096_bf16_f32_result": lambda: sf.workloads.gemm(4096, 4096, 4096, dtype="bf16", frontend=True),
    "attention_b4_h32_s2048_d128_f16": lambda: sf.workloads.attention(4, 32, 2048, 128, dtype="f16"),
    "attention_b32_h12_s512_d64_f16": lambda: sf.workloads.attention(32, 12, 512, 64, dtype="f16"),
    # Head dims that are no multiple of 64: partly used swizzle blocks.
    "attention_b4_h32_s2048_d96_f16": lambda: sf.workloads.attention(4, 32, 2048, 96, dtype="f16"),
    "attention_b4_h32_s2048_d80_bf16_frontend":
        lambda: sf.workloads.attention(4, 32, 2048, 80, dtype="bf16", frontend=True),
    # Queries and keys of different lengths: cross attention on wgmma, and
    # a decode step the schedule partitions (scores through scratch).
    "attention_cross_b8_h16_q128_kv4096_d128_f16":
        lambda: sf.workloads.attention(8, 16, 128, 128, dtype="f16", kv_seq=4096),
    "decode_b1_h2_q16_kv1024_d128_bf16": lambda: sf.workloads.attention(1, 2, 16, 128, dtype="bf16", kv_seq=1024),
    # ViT-B: 197 tokens, no tile divides them (ragged blocks and slices).
    "attention_b64_h12_s197_d64_f16": lambda: sf.workloads.attention(64, 12, 197, 64, dtype="f16"),
    # Head dim 128 at 197 tokens: 64-thread row-fragment blocks whose K tile
    # is 32 cp.async chunks per thread (built without its predicted stages
    # when copies ahead were limited to 16 chunks per thread). Not one of
    # the wgmma shapes: its 2 heads of 197 rows do not fill wgmma blocks.
    "ragged_attention_b1_h2_s197_d128_f16": lambda: sf.workloads.attention(1, 2, 197, 128, dtype="f16"),
    "attention_causal_b4_h32_s2048_d128_f16":
        lambda: sf.workloads.attention(4, 32, 2048, 128, dtype="f16", causal=True),
    "attention_window_b1_h32_s8192_d128_w512_bf16":
        lambda: sf.workloads.attention(1, 32, 8192, 128, dtype="bf16", window=512),
    "mlp_512x768x3072_f16": lambda: sf.workloads.mlp(512, 768, 3072, dtype="f16"),
    "lstm_cell_f16": lambda: sf.workloads.lstm_cell(64, 1024, 1024, dtype="f16"),
    # Blocks that read a weight whole (no dim of it tiled): not staged, so
    # not in the predicted shared memory (84224 and 124928 bytes before).
    "gemm_chain_256x128x256x128_f16": lambda: sf.workloads.gemm_chain(256, (128, 256, 128), dtype="f16"),
    "lstm_cell_64x256x256_f16": lambda: sf.workloads.lstm_cell(64, 256, 256, dtype="f16"),
    "layernorm_f16": lambda: sf.workloads.layernorm(16384, 768, dtype="f16"),
    # Row kernels: a warp per row, a block of 4 warps (one reduction over
    # 1024 f16), a block per row (LayerNorm over 8192), a ragged row.
    "rmsnorm_16384x1024_f16": lambda: sf.workloads.rmsnorm(16384, 1024, dtype="f16"),
    "layernorm_1024x8192_f32": lambda: sf.workloads.layernorm(1024, 8192),
    "softmax_4096x1000_f16": lambda: sf.workloads.softmax(4096, 1000, dtype="f16"),
}

# The strategies whose shared memory the cost model predicts exactly: all of
# them on these inputs. For the shared-memory strategies (simt, mma_sync)
# smap-place-block-buffers builds the buffer sharing the model prices, with
# or without a temporal loop; it stays an upper bound, which
# smap-distribute-blocks enforces, only for blocks with a final pass, for
# a temporal loop updating a centered sum of squares, and for
# a temporal loop of a single slice (test/Pipelines/ragged-blocks-final-pass,
# ragged-slice-masked-operand-smem), none of them here.
EXACT_SMEM = {"wgmma_tma", "wgmma_tma_ws", "row_fragments", "row_fragments_wgmma", "rows", "mma_sync",
              "simt"}
SHARED_MEMORY = {"simt", "mma_sync"}
# sm_90a's SM: the register file and the shared memory of its blocks.
REGS_PER_SM, SMEM_PER_SM = 65536, 233472


def built_kernels(source, tmp_path):
    """The kernels built, each with what its schedule predicted (the
    manifest's `predicted`, from the #smap.schedule it was built from)."""
    tools = find_tools(BUILD)
    manifest = str(tmp_path / "kernels.json")
    result = subprocess.run([tools["spacefusion-opt"], "-", "-o", os.devnull,
                             "--spacefusion-lower-gpu=format=isa kernel-manifest=" + manifest],
                            input=source, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    with open(manifest) as f:
        functions = json.load(f)["functions"]
    return [k for fn in functions if not fn["name"].startswith("_mlir_ciface_") for k in fn["kernels"]]


def check_agreement(source, tmp_path):
    built = built_kernels(source, tmp_path)
    for b in built:
        p = b["predicted"]
        assert p["strategy"] == b["strategy"]
        assert p["threads"] == b["threads"]
        assert p["blocks"] == b["blocks"]
        if p["strategy"].startswith("row_fragments"):
            assert p["stages"] == b["parts"].get("cp_async", 1)
        elif p["strategy"] in SHARED_MEMORY:
            # The cp.async depth is the schedule's (0: no tile moves).
            assert max(p["stages"], 1) == b["parts"].get("cp_async", 1)
        else:
            assert p["stages"] == b["parts"].get("stages", 0)
        if p["strategy"] in EXACT_SMEM:
            assert p["smem"] == b["smem"]
        else:
            assert p["smem"] >= b["smem"]
        check_residency(p, b)
    return [b["predicted"] for b in built], built


def check_residency(p, b):
    """A declared residency is built as predicted: every thread starts
    with the schedule's registers, and that many blocks fit the SM."""
    blocks = b["parts"].get("blocks_per_sm", 0)
    if not blocks:
        return
    assert b["parts"]["regs_entry"] == p["regs"]
    assert blocks * b["threads"] * p["regs"] <= REGS_PER_SM
    assert blocks * (b["smem"] + 1024) <= SMEM_PER_SM


@pytest.mark.parametrize("path", EXAMPLES + INPUTS, ids=os.path.basename)
def test_examples_build_what_was_scheduled(path, tmp_path):
    with open(path) as f:
        check_agreement(f.read(), tmp_path)


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_benchmark_shapes_build_what_was_scheduled(name, tmp_path):
    predicted, built = check_agreement(WORKLOADS[name](), tmp_path)
    if name.startswith("gemm_4096") or name.startswith("attention"):
        # The fast paths these shapes are timed on.
        assert built and built[0]["strategy"] in ("wgmma_tma", "row_fragments_wgmma")
    if name.startswith(("rmsnorm", "layernorm", "softmax")):
        assert [k["strategy"] for k in built] == ["rows"]
    if name == "rmsnorm_16384x1024_f16":
        # One reduction over 1024 f16: a block of 4 warps per row.
        assert (built[0]["threads"], built[0]["smem"]) == (128, 128)


# Shared-memory blocks (simt, mma_sync) whose intermediates share buffers:
# smap-place-block-buffers builds the sharing the cost model priced
# (elementwise ops over their inputs, a computed init updated in place,
# each other intermediate in a buffer of its own), and a ragged slice's
# masked copy replaces the staged tile. Each used to be predicted 16% to
# 208% above what was placed (and with a temporal loop 4% to 41%, until the
# placement was built there too).
SHARED_MEMORY_BLOCKS = {
    # mma_sync over all 256 keys (no temporal loop): the softmax's
    # elementwise chain in one score buffer.
    "attention_b1_h2_s256_d64_f16": lambda: sf.workloads.attention(1, 2, 256, 64, dtype="f16"),
    "attention_b2_h4_s128_d64_f32": lambda: sf.workloads.attention(2, 4, 128, 64),
    # A reduction of 72 in slices of 64: B's masked copy, unpadded.
    "gemm_200x120x72_f16": lambda: sf.workloads.gemm(200, 120, 72, dtype="f16"),
    # The cell's gates on simt after the GEMMs' kernel.
    "lstm_cell_64x256x256_f32": lambda: sf.workloads.lstm_cell(64, 256, 256),
    "linear_layernorm_200x96x72_bf16": lambda: sf.workloads.linear_layernorm(200, 96, 72, dtype="bf16"),
    # Temporal loops: f32 attention over 512 and 1024 keys (the online
    # softmax's state, the slice's max, the new max and its guard beside the
    # scores the scale and exp overwrite), causal too, and an MLP's f32 GEMMs.
    "attention_b2_h8_s512_d64_f32": lambda: sf.workloads.attention(2, 8, 512, 64),
    "attention_causal_b1_h4_s1024_d64_f32": lambda: sf.workloads.attention(1, 4, 1024, 64, causal=True),
    "mlp_512x256x1024_f32": lambda: sf.workloads.mlp(512, 256, 1024),
}


@pytest.mark.parametrize("name", sorted(SHARED_MEMORY_BLOCKS))
def test_shared_memory_blocks_place_what_was_scheduled(name, tmp_path):
    _, built = check_agreement(SHARED_MEMORY_BLOCKS[name](), tmp_path)
    assert any(b["strategy"] in SHARED_MEMORY for b in built)
    for b in built:
        assert b["predicted"]["smem"] == b["smem"]


def test_vit_declares_two_blocks_per_sm(tmp_path):
    """ViT's 128-key slices are ragged: the schedule declares two blocks
    per SM and the kernel is built for them (128 registers each)."""
    _, built = check_agreement(WORKLOADS["attention_b64_h12_s197_d64_f16"](), tmp_path)
    assert built[0]["parts"]["blocks_per_sm"] == 2
    assert built[0]["parts"]["regs_entry"] == built[0]["predicted"]["regs"] == 128


def test_residency_check_can_fail():
    built = {"threads": 256, "smem": 93184, "parts": {"blocks_per_sm": 2, "regs_entry": 128}}
    with pytest.raises(AssertionError):
        check_residency({"regs": 160}, built)
    with pytest.raises(AssertionError):
        check_residency({"regs": 128}, dict(built, smem=120000))


def test_agreement_check_can_fail(tmp_path):
    """A schedule edited after smap-schedule (row fragments on 96 threads)
    is refused by the lowering."""
    tools = find_tools(BUILD)
    with open(os.path.join(ROOT, "test", "Pipelines", "Inputs", "attention_f16.mlir")) as f:
        source = f.read()
    result = subprocess.run([tools["spacefusion-opt"], "-", "-o", os.devnull,
                             "--spacefusion-lower-gpu=format=isa",
                             "--mlir-print-ir-before=smap-distribute-blocks"],
                            input=source, capture_output=True, text=True)
    assert result.returncode == 0
    dump = result.stderr.index("IR Dump Before")
    ir = result.stderr[result.stderr.index("\n", dump) + 1:]
    edited = re.sub(r"threads = (\d+), smem = (\d+), regs = (\d+), strategy = (\w+)",
                    r"threads = 96, smem = \2, regs = \3, strategy = \4", ir)
    assert edited != ir
    rerun = subprocess.run([tools["spacefusion-opt"], "-", "-o", os.devnull, "--smap-distribute-blocks"],
                           input=edited, capture_output=True, text=True)
    assert rerun.returncode != 0 and "cannot be built" in rerun.stderr
