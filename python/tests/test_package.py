"""The package's version, tool discovery and module cache."""

import os
import re
import shutil

import pytest

import spacefusion as sf
from spacefusion import compiler

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_version_is_the_projects():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        declared = re.search(r"project\(spacefusion VERSION ([0-9.]+)", f.read()).group(1)
    assert sf.__version__ == declared
    with open(os.path.join(ROOT, "python", "pyproject.toml")) as f:
        assert 'version = {attr = "spacefusion.__version__"}' in f.read()


def test_build_dir_that_lacks_the_compiler_falls_back_to_path(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(sf.CompileError, match=r"spacefusion-opt not found \(looked in .*nowhere/bin"
                                              r" and PATH\); build SpaceFusion first"):
        sf.find_tools(str(tmp_path / "nowhere"))


def test_llvm_bin_from_the_environment(tmp_path, monkeypatch):
    for name in ("mlir-translate", "clang"):
        os.symlink(shutil.which(name) or os.path.join("/usr/lib/llvm-22/bin", name), tmp_path / name)
    monkeypatch.setenv("SPACEFUSION_LLVM_BIN", str(tmp_path))
    tools = sf.find_tools()
    assert tools["mlir-translate"] == str(tmp_path / "mlir-translate")
    assert tools["clang"] == str(tmp_path / "clang")


def test_cache_is_per_user_and_keyed_by_the_compiler(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert compiler.default_cache_dir() == str(tmp_path / "spacefusion")
    tools = sf.find_tools()
    before = compiler.compiler_identity(tools)
    # Another spacefusion-opt (a rebuilt one): another key, so a module cached
    # by the old compiler is not reused.
    copy = tmp_path / "spacefusion-opt"
    shutil.copy(tools["spacefusion-opt"], copy)
    assert compiler.compiler_identity(dict(tools, **{"spacefusion-opt": str(copy)})) != before
    module = sf.compile(sf.workloads.softmax(4, 32))
    cached = os.listdir(tmp_path / "spacefusion")
    assert len(cached) == 1 and cached[0].startswith("softmax-")


@pytest.mark.parametrize("call, message", [
    (lambda: sf.workloads.layernorm(rows=-1, hidden=64), r"layernorm: rows must be a positive integer, got -1"),
    (lambda: sf.workloads.gemm(0, 4, 4), r"gemm: m must be a positive integer, got 0"),
    (lambda: sf.workloads.attention(1, 2, 3.5, 4), r"attention: seq must be a positive integer, got 3.5"),
    (lambda: sf.workloads.attention(1, 2, 8, 4, window=0), r"attention: window must be a positive integer"),
    (lambda: sf.workloads.attention(1, 2, 8, 4, prefix=9), r"attention: prefix must be a key count in \[0, 8\]"),
    (lambda: sf.workloads.attention(1, 2, 8, 4, prefix=2, window=4), r"attention: prefix .* without window"),
    (lambda: sf.workloads.gemm_chain(4, [4, -1]), r"gemm_chain: dims must be a positive integer or a list"),
    (lambda: sf.workloads.softmax(4, 4, dtype="f33"), r"dtype must be one of f16, bf16, f32, f64"),
    (lambda: sf.workloads.softmax(4, 4, dtype="f8"), r"dtype must be one of .*got 'f8'"),
])
def test_generators_reject_bad_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_generators_take_numpy_and_torch_dtypes():
    import numpy as np
    assert sf.workloads.element_type(np.float16) == "f16"
    assert sf.workloads.element_type(np.dtype("float32")) == "f32"
    assert sf.workloads.gemm(4, 4, 4, dtype=np.float16) == sf.workloads.gemm(4, 4, 4, dtype="f16")
    torch = pytest.importorskip("torch")
    assert sf.workloads.gemm(4, 4, 4, dtype=torch.bfloat16) == sf.workloads.gemm(4, 4, 4, dtype="bf16")


def test_compile_error_has_the_error_first():
    source = ("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
              "  %0 = bogus.op %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n")
    with pytest.raises(sf.CompileError) as info:
        sf.compile(source)
    error = info.value
    # The first tool to read the source is the signature query.
    assert error.tool == "spacefusion-run"
    assert re.fullmatch(r"spacefusion-run failed: <stdin>:2:8: error: Dialect `bogus' not found.*", error.error)
    assert str(error).splitlines()[0] == error.error
    assert "Available dialects" in error.diagnostics


def test_module_repr():
    module = sf.compile(sf.workloads.softmax(4, 32))
    assert re.fullmatch(r"<spacefusion\.Module @softmax \(f32\[4x32\]\) -> \(f32\[4x32\]\) from .*\.so>",
                        repr(module))


def test_outputs_written_in_place_with_out():
    import numpy as np
    module = sf.compile(sf.workloads.softmax(4, 32))
    (x,) = sf.random_inputs(module, seed=0)
    (fresh,) = module(x)
    out = np.full((4, 32), np.nan, np.float32)
    (same,) = module(x, out=[out])
    assert same is out and np.array_equal(out, fresh)
    with pytest.raises(ValueError, match=r"output #0 must have shape \(4, 32\), got \(4, 16\)"):
        module(x, out=[np.empty((4, 16), np.float32)])
    with pytest.raises(TypeError, match=r"output #0 must be f32 \(float32\), got float64"):
        module(x, out=[np.empty((4, 32), np.float64)])
    with pytest.raises(ValueError, match="output #0 must be C-contiguous and writable"):
        module(x, out=[np.empty((32, 4), np.float32).T])
    with pytest.raises(TypeError, match="output #0 must be a numpy array or a torch tensor, got list"):
        module(x, out=[[[0.0] * 32] * 4])
    with pytest.raises(TypeError, match="has 1 outputs, got 2 in out="):
        module(x, out=[out, out])


def test_bf16_outputs_written_in_place():
    torch = pytest.importorskip("torch")
    module = sf.compile(sf.workloads.softmax(4, 32, dtype="bf16"))
    (x,) = sf.random_inputs(module, seed=0)
    (fresh,) = module(x)
    out = torch.empty(4, 32, dtype=torch.bfloat16)
    module(x, out=[out])
    assert torch.equal(out, fresh)


def test_compile_logs_progress(caplog, tmp_path):
    import logging
    caplog.set_level(logging.DEBUG, logger="spacefusion")
    source = sf.workloads.softmax(4, 16)
    sf.compile(source, cache_dir=str(tmp_path))
    sf.compile(source, cache_dir=str(tmp_path))
    messages = [r.getMessage() for r in caplog.records if r.name == "spacefusion"]
    assert "compiling @softmax (cpu, fused)" in messages
    assert any(m.startswith("running ") and "spacefusion-opt" in m for m in messages)
    assert any(m.startswith("@softmax: dim ") for m in messages)  # a fusion decision
    assert sum(m.startswith("@softmax: cached ") for m in messages) == 1


def test_signature_is_read_by_the_compiler():
    # The signature comes from spacefusion-run --print-signature, so an
    # attribute block with braces or a comment with a fake signature does
    # not confuse it, and a dynamic shape is the compiler's own error.
    tools = sf.compiler.find_tools()
    source = ("// func.func @decoy(%x: tensor<1xf32>) -> tensor<1xf32> {\n"
              "func.func @g(%a: tensor<2x3xbf16>) -> tensor<2x3xbf16> attributes {x = {y = 1}} {\n"
              "  return %a : tensor<2x3xbf16>\n}\n")
    assert sf.compiler._signature(source, None, tools) == ("g", [((2, 3), "bf16")], [((2, 3), "bf16")])
    with pytest.raises(sf.CompileError) as info:
        sf.compiler._signature("func.func @d(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
                               "  return %a : tensor<?xf32>\n}\n", None, tools)
    assert "must take and return static" in info.value.error
    with pytest.raises(sf.CompileError) as info:
        sf.compiler._signature("func.func @n(%a: tensor<4xf32>) {\n  return\n}\n", None, tools)
    assert "@n returns no tensor" in str(info.value)


ACCUMULATE_INTO_INPUT = """
func.func @gemm_bias(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
"""


@pytest.mark.parametrize("fused", [True, False])
def test_inputs_are_not_overwritten(fused):
    # An op whose init is an argument used to be computed in the caller's
    # array (bufferization takes arguments as writable).
    import numpy as np
    module = sf.compile(ACCUMULATE_INTO_INPUT, fused=fused)
    a, b, acc = sf.random_inputs(module, seed=0)
    before = acc.copy()
    (result,) = module(a, b, acc)
    assert np.array_equal(acc, before)
    np.testing.assert_allclose(result, before + a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


MASKED = """
#x2 = affine_map<(d0, d1) -> (d0, d1)>
#r2 = affine_map<(d0, d1) -> (d0)>
func.func @masked_max(%x: tensor<8x64xf32>, %keep: tensor<8x64xi1>) -> (tensor<8xf32>, tensor<8x64xi1>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#x2, #x2, #r2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %keep : tensor<8x64xf32>, tensor<8x64xi1>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %k: i1, %acc: f32):
    %s = arith.select %k, %a, %ninf : f32
    %r = arith.maximumf %s, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %eb = tensor.empty() : tensor<8x64xi1>
  %pos = linalg.generic {indexing_maps = [#x2, #x2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %keep : tensor<8x64xf32>, tensor<8x64xi1>) outs(%eb : tensor<8x64xi1>) {
  ^bb0(%a: f32, %k: i1, %o: i1):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %a, %zero : f32
    %both = arith.andi %p, %k : i1
    linalg.yield %both : i1
  } -> tensor<8x64xi1>
  return %m, %pos : tensor<8xf32>, tensor<8x64xi1>
}
"""


def test_i1_tensors_in_and_out():
    # Masks are numpy bool arrays (a byte of 0 or 1, as LLVM stores i1).
    import numpy as np
    module = sf.compile(MASKED)
    assert module.inputs[1] == ((8, 64), "i1") and module.outputs[1] == ((8, 64), "i1")
    x, keep = sf.random_inputs(module, seed=0)
    assert keep.dtype == np.bool_ and 0.3 < keep.mean() < 0.7
    row_max, positive = module(x, keep)
    np.testing.assert_array_equal(row_max, np.where(keep, x, -np.inf).max(axis=1))
    np.testing.assert_array_equal(positive, (x > 0) & keep)


def test_function_named_like_a_libc_symbol(tmp_path):
    # The shared object binds @select to its own definition (-Bsymbolic):
    # linked plainly, the call went to libc's select and crashed.
    source = """
func.func @select(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    import numpy as np
    (out,) = sf.compile(source, cache_dir=str(tmp_path))(np.arange(4, dtype=np.float32))
    assert out.tolist() == [0.0, 2.0, 4.0, 6.0]
