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
