"""The differential fuzzer: its generator, classifier and known-failures list."""

import os
import subprocess
import sys

import pytest

from spacefusion import fuzz, fuzzgen, fuzzmin

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.environ.get("SPACEFUSION_BUILD_DIR") or os.path.join(ROOT, "build")
OPT = os.path.join(BUILD, "bin", "spacefusion-opt")
needs_opt = pytest.mark.skipif(not os.path.exists(OPT), reason="needs spacefusion-opt (build first)")


def run_fuzz(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-m", "spacefusion.fuzz", *args], capture_output=True,
                          text=True, env=env)


def result(returncode, stdout="", stderr="", seconds=0.1):
    return fuzz.Result(["tool"], returncode, stdout, stderr, seconds)


# -- the generator ---------------------------------------------------------------


def test_seed_prints_the_same_module_every_time():
    first, second = run_fuzz("--seed", "7"), run_fuzz("--seed", "7")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert first.stdout.startswith("// fuzz: seed=7 ")
    assert "func.func @fuzz(" in first.stdout
    assert run_fuzz("--seed", "8").stdout != first.stdout


def test_header_records_seed_and_features():
    text = fuzzgen.generate(12)
    header = text.splitlines()[0]
    for field in ("seed=12", "dtype=", "cse=", "steps=", "features="):
        assert field in header


def test_generator_covers_the_graph_kinds():
    headers = " ".join(fuzzgen.generate(s).splitlines()[0] for s in range(300))
    for kind in ("elementwise", "reduce(", "softmax(named", "softmax(nan-max", "layernorm",
                 "rmsnorm", "gemm(named", "gemm(named-batch", "gemm(generic-transposed",
                 "attention", "transpose", "expand_shape", "collapse_shape", "broadcast(",
                 "multi-output", "multi-result", "used-twice", "computed-init", "dtype=f16",
                 "dtype=bf16", "mask-"):
        assert kind in headers, kind


@needs_opt
def test_every_seed_parses():
    # One spacefusion-opt process for all modules (--split-input-file).
    seeds = range(400)
    text = "\n// -----\n".join(fuzzgen.generate(s) for s in seeds)
    p = subprocess.run([OPT, "--split-input-file", "-", "-o", "/dev/null"], input=text,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[:3000]


# -- classification ----------------------------------------------------------------

CRASH = """PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/
Stack dump:
0.	Program arguments: spacefusion-opt x.mlir --smap-analyze
 #0 0x00007f8b8beb8786 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (/usr/lib/libLLVM.so+0x4)
 #1 0x00007f8b8beb5fd3 llvm::sys::RunSignalHandlers() (/usr/lib/libLLVM.so+0x4)
 #2 0x00007f8b8beb94f4 (/usr/lib/llvm-22/lib/libLLVM.so.22.1+0x4eb94f4)
 #3 0x00007f8b8be4cf33 std::enable_if<a<b const>::value, int>::type llvm::hash_impl<char const>(char const*) (/x)
 #4 0x0000555f125833cb mlir::smap::SpaceMappingGraph::getSpaceAttr(mlir::smap::Space const&) const (/x)
"""
VERIFIER = """x.mlir:15:10: error: 'linalg.generic' op expected type of operand #1 ('tensor<128x1xf32>') \
to match type of corresponding result ('tensor<8x1xf32>')
    %3 = linalg.generic {indexing_maps = [#map, #map1]}
spacefusion-run: the fusion pipeline failed
"""
DIAGNOSTIC = """x.mlir:3:8: error: invalid schedule: size 48 of dim 'n' does not divide its extent 100 \
(ragged slices are not supported yet)
spacefusion-run: the fusion pipeline failed
"""
FAIL = """@fuzz on cpu, 1 fusion graph(s):
  graph 0: #smap.schedule<spatial = [b = 1], temporal = [n = 4], grid = [16], threads = 1>
  max abs error 2.57E-03, max rel error 1.2E-01 over 25600 outputs (atol 2.0E-05 x max|ref|, \
rtol 1.0E-04): FAIL (13058 outputs out of tolerance)
"""


def test_crash_by_text_and_by_signal():
    outcome, reason = fuzz.classify(result(1, stderr=CRASH))
    assert outcome == "crash"
    assert reason == ("signal in llvm::hash_impl, from mlir::smap::SpaceMappingGraph::getSpaceAttr")
    assert fuzz.classify(result(-11))[0] == "crash"
    assert fuzz.classify(result(-6, stderr="x"))[0] == "crash"
    outcome, reason = fuzz.classify(result(134, stderr="spacefusion-opt: Foo.cpp:12: void f(): "
                                                       "Assertion `x && \"bad\"' failed.\n"))
    assert outcome == "crash" and reason.startswith("Assertion `x")
    outcome, reason = fuzz.classify(result(1, stderr="LLVM ERROR: Cannot select: 0x1234\n"))
    assert outcome == "crash" and reason.startswith("LLVM ERROR: Cannot select")


def test_verifier_failure_is_invalid_ir_only_when_it_goes_away_without_the_verifier():
    outcome, reason = fuzz.classify(result(2, stderr=VERIFIER), verified=False)
    assert outcome == "invalid-ir"
    assert reason == ("'linalg.generic' op expected type of operand #N ('tensor<...>') to match "
                      "type of corresponding result ('tensor<...>')")
    # The same text, reproduced with --verify-each=0: a pass emitted it on purpose.
    assert fuzz.classify(result(2, stderr=VERIFIER), verified=True)[0] == "reject"


def test_a_strategy_the_lowering_refuses_is_a_misprediction():
    refused = ("<stdin>:3:5: error: smap-distribute-blocks: the schedule's strategy row_fragments "
               "cannot be built: it takes 32 threads per block, the schedule 64\n")
    outcome, reason = fuzz.classify(result(1, stderr=refused), verified=True)
    assert outcome == "mispredicted" and outcome in fuzz.FAILURES
    assert reason.startswith("smap-distribute-blocks: the schedule's strategy row_fragments cannot be built")


def test_shared_memory_over_the_prediction_is_a_misprediction():
    over = ("<stdin>:3:5: error: smap-distribute-blocks: the block's buffers take 4096 bytes of "
            "shared memory, more than the 2048 its schedule predicted\n")
    outcome, _ = fuzz.classify(result(1, stderr=over), verified=True)
    assert outcome == "mispredicted"


def test_unbuilt_stages_and_a_failed_planned_slice_are_mispredictions():
    unbuilt = ("<stdin>:3:5: error: smap-distribute-blocks: the schedule's 2 cp.async stages "
               "cannot be built: the staged tiles that move with the temporal loop are not "
               "copied in 16-byte chunks that its threads split evenly\n")
    assert fuzz.classify(result(1, stderr=unbuilt), verified=True)[0] == "mispredicted"
    sliced = ("<stdin>:3:5: error: smap-temporal-slice: the rewrite of dim 'l' failed after "
              "its plan accepted it: a member could not be rewritten\n")
    assert fuzz.classify(result(1, stderr=sliced), verified=True)[0] == "mispredicted"


def test_clean_diagnostic_is_a_reject_with_a_normalized_reason():
    outcome, reason = fuzz.classify(result(2, stderr=DIAGNOSTIC), verified=True)
    assert outcome == "reject"
    assert reason == ("invalid schedule: size N of dim 'D' does not divide its extent N "
                      "(ragged slices are not supported yet)")
    f16 = ("spacefusion-run: @fuzz must take and return static f32 or f64 tensors, "
           "got tensor<16x7xf16>\n")
    assert fuzz.classify(result(2, stderr=f16)) == (
        "reject", "spacefusion-run: @fuzz must take and return static f32 or f64 tensors, "
                  "got tensor<...>")


def test_fail_is_wrong_pass_and_timeout():
    outcome, reason = fuzz.classify(result(1, stdout=FAIL))
    assert outcome == "wrong"
    assert reason == "FAIL: 13058 of 25600 outputs out of tolerance, max abs error 2.57E-03"
    assert fuzz.classify(result(0, stdout=FAIL.replace("FAIL (13058 outputs out of tolerance)",
                                                       "PASS"))) == ("pass", "")
    assert fuzz.classify(result(None, seconds=60))[0] == "timeout"


@needs_opt
def test_invalid_ir_from_a_pass_against_a_deliberate_diagnostic(tmp_path):
    # A module the parser is told not to verify stands for IR a pass broke:
    # the verifier after --cse (which changes it: the duplicate constant)
    # rejects it, and without the verifier the pipeline goes through.
    bad = tmp_path / "bad.mlir"
    bad.write_text("""func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x, %x : f32, f32
  } -> tensor<4xf32>
  func.call @use(%c0, %c1) : (index, index) -> ()
  return %r : tensor<4xf32>
}
func.func private @use(index, index)
""")
    tools = fuzz.Tools(BUILD, snapshot=False)
    stage, _ = fuzz.opt_stage(tools, "t", [OPT, "--mlir-very-unsafe-disable-verifier-on-parsing",
                                           "--cse", str(bad), "-o", "/dev/null"], 60)
    assert stage.outcome == "invalid-ir", stage.output
    stage, _ = fuzz.opt_stage(tools, "t", [OPT, os.path.join(ROOT, "examples", "layernorm.mlir")]
                              + fuzz.ANALYZE + ["--smap-schedule=spatial=zz:2", "-o", "/dev/null"],
                              60)
    assert stage.outcome == "reject"
    assert "unknown dim 'D'" in stage.reason


# -- stages ---------------------------------------------------------------------------

ANALYZED = """%0 = smap.graph(%arg1 = %arg0 : tensor<16x16x100xf32>) -> (tensor<16x16x100xf32>) \
attributes {dims = [#smap.dim<"b", 16, parallel>, #smap.dim<"m", 16, temporal>, \
#smap.dim<"n", 100, temporal>], target = #smap.target<name = "cpu">} {"""


def test_graph_dims_and_forced_schedules():
    graphs = fuzz.graph_dims(ANALYZED)
    assert graphs == [[("b", 16, "parallel"), ("m", 16, "temporal"), ("n", 100, "temporal")]]
    schedules = fuzz.forced_schedules(3, graphs)
    assert schedules == fuzz.forced_schedules(3, graphs)  # deterministic
    assert 1 <= len(schedules) <= 2
    for s in schedules:
        name, size = s["temporal"].split(":")
        assert name in "mn" and {"m": 16, "n": 100}[name] % int(size) == 0
        assert int(size) < {"m": 16, "n": 100}[name]
        assert s["spatial"].startswith("b:")
    assert fuzz.forced_schedules(3, []) == []


# -- known failures -------------------------------------------------------------------


def stage(name, outcome, reason="r"):
    return fuzz.Stage(name, outcome, reason, ["spacefusion-run", "x.mlir"], 0.1)


def test_known_failures_file(tmp_path):
    known = tmp_path / "known.txt"
    known.write_text("# header comment\n\n"
                     "12 forced-1 wrong  # LayerNorm over two dims, sliced along one\n"
                     "40 gpu crash  # zero-size dim\n"
                     "77 run invalid-ir  # fixed since\n"
                     "77 forced-1 crash  # its stage no longer runs\n"
                     "900 run crash  # seed not run\n")
    entries = fuzz.read_known(str(known))
    assert entries[(12, "forced-1")] == ("wrong", "LayerNorm over two dims, sliced along one")
    records = [
        {"seed": 12, "stages": [stage("run", "pass"), stage("forced-1", "wrong")]},
        {"seed": 40, "stages": [stage("gpu", "invalid-ir")]},  # known as crash: new
        {"seed": 50, "stages": [stage("run", "timeout")]},
        {"seed": 77, "stages": [stage("run", "reject")]},
    ]
    new, expected, fixed = fuzz.triage(records, entries, range(0, 100))
    assert [(r["seed"], s.name) for r, s in expected] == [(12, "forced-1")]
    assert [(r["seed"], s.name, s.outcome) for r, s in new] == [(40, "gpu", "invalid-ir"),
                                                                (50, "run", "timeout")]
    assert [(k, now) for k, _, now in fixed] == [((77, "run"), "reject"),
                                                 ((77, "forced-1"), "not run")]


def test_known_failures_file_rejects_malformed_lines(tmp_path):
    known = tmp_path / "known.txt"
    known.write_text("12 forced-1 broken  # not an outcome\n")
    with pytest.raises(SystemExit, match="expected `seed stage outcome"):
        fuzz.read_known(str(known))


# -- the minimizer ----------------------------------------------------------------------


def test_minimizer_statements_round_trip():
    for seed in range(50):
        text = fuzzgen.generate(seed)
        assert fuzzmin.Module(text).text() == text


@needs_opt
def test_minimizer_candidates_parse():
    module = fuzzmin.Module(fuzzgen.generate(26))
    texts = [c.text() for c in fuzzmin.candidates(module) if c is not None]
    assert texts
    p = subprocess.run([OPT, "--split-input-file", "-", "-o", "/dev/null"],
                       input="\n// -----\n".join(texts), capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[:3000]


def test_minimize_keeps_what_the_failure_needs():
    text = fuzzgen.generate(26)
    # A fake failure: "fails" while some linalg.batch_matmul is left.
    smallest = fuzzmin.minimize(text, lambda t: "linalg.batch_matmul" in t)
    assert "linalg.batch_matmul" in smallest
    assert smallest.count("linalg.generic") < text.count("linalg.generic")
