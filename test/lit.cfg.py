# -*- Python -*-

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "SPACEFUSION"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.spacefusion_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "results", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(
    ("%spacefusion_plugin",
     os.path.join(config.spacefusion_obj_root, "lib", "SpaceFusionPlugin.so")))
config.substitutions.append(
    ("%spacefusion_runtime_link",
     "-L{0} -lspacefusion_cuda_runtime -Wl,-rpath,{0}".format(
         os.path.join(config.spacefusion_obj_root, "lib"))))
config.substitutions.append(
    ("%spacefusion_include", os.path.join(config.spacefusion_src_root, "include")))
config.substitutions.append(("%spacefusion_bin", config.spacefusion_tools_dir))
config.substitutions.append(("%scripts", os.path.join(config.spacefusion_src_root, "scripts")))
config.substitutions.append(("%examples", os.path.join(config.spacefusion_src_root, "examples")))

import shutil
if config.spacefusion_has_cuda_runtime:
    config.available_features.add("cuda-runtime")
if shutil.which("nvidia-smi") and os.path.exists("/dev/nvidia0"):
    config.available_features.add("gpu")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "CUDA_HOME",
                                    "CUDA_ROOT", "CUDA_PATH"])
# MLIR's NVVM serialization links CUDA's libdevice (math functions) from the
# toolkit named by CUDA_HOME/CUDA_ROOT/CUDA_PATH; without it the PTX keeps
# unresolved calls. Tests that check PTX need it.
cuda_home = next((config.environment[v] for v in ("CUDA_HOME", "CUDA_ROOT", "CUDA_PATH")
                  if config.environment.get(v)), None)
if not cuda_home and os.path.isdir("/usr/local/cuda"):
    cuda_home = "/usr/local/cuda"
    config.environment["CUDA_HOME"] = cuda_home
if cuda_home and os.path.exists(os.path.join(cuda_home, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("libdevice")
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.spacefusion_tools_dir, config.llvm_tools_dir]
tools = ["spacefusion-opt", "spacefusion-run", "spacefusion-capi-test", "mlir-opt",
         "mlir-translate", "clang"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
