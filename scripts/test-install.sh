#!/usr/bin/env bash
# Installs a SpaceFusion build tree into a fresh prefix, then builds and
# tests examples/custom-compiler against that install only.
#   scripts/test-install.sh <build-dir>
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:?usage: test-install.sh <build-dir>}" && pwd)"
prefix="$build/install-test/prefix"
cc_build="$build/install-test/custom-compiler"

rm -rf "$build/install-test"
cmake --install "$build" --prefix "$prefix" > /dev/null
# Everything a host needs is in the prefix (the CUDA runtime when it was
# built, which needs cuda.h).
expected=(bin/spacefusion-opt bin/spacefusion-run lib/libSpaceFusion-C.so
  lib/SpaceFusionPlugin.so include/spacefusion/InitAll.h
  include/spacefusion-c/SpaceFusion.h include/spacefusion/Version.h
  lib/cmake/SpaceFusion/SpaceFusionConfig.cmake)
if [ -e "$build/lib/libspacefusion_cuda_runtime.so" ]; then
  expected+=(lib/libspacefusion_cuda_runtime.so include/spacefusion-runtime)
fi
for path in "${expected[@]}"; do
  [ -e "$prefix/$path" ] || { echo "test-install: $path was not installed" >&2; exit 1; }
done
echo "test-install: ${#expected[@]} expected paths installed"
empty="$(find "$prefix" -type d -empty)"
[ -z "$empty" ] || { echo "test-install: empty directories installed: $empty" >&2; exit 1; }

# The installed Python package finds the installed compiler (run from
# outside the checkout, with no build directory named) and compiles.
python_check='
import numpy as np, os, sys, spacefusion as sf
tools = sf.find_tools()
assert tools["spacefusion-opt"] == os.path.join(sys.argv[1], "bin", "spacefusion-opt"), tools
assert tools["spacefusion-run"] == os.path.join(sys.argv[1], "bin", "spacefusion-run"), tools
source = sf.workloads.layernorm(rows=8, hidden=64, dtype="f32")
module = sf.compile(source, target="cpu", cache_dir=sys.argv[2])
x, gamma, beta = sf.random_inputs(module, seed=0)
(y,) = module(x, gamma, beta)
error = np.abs(y - sf.workloads.reference("layernorm", x, gamma, beta)).max()
assert error < 1e-4, error
print("test-install: python package %s from %s compiles with %s" %
      (sf.__version__, os.path.dirname(sf.__file__), tools["spacefusion-opt"]))
'
(cd "$build/install-test" && env -u SPACEFUSION_BUILD_DIR PYTHONPATH="$prefix/lib/python" \
  /usr/bin/python3 -c "$python_check" "$prefix" "$build/install-test/cache")
# `pip install ./python` installs the package alone; it then finds the
# compiler on PATH.
pip_src="$build/install-test/pip-src"
mkdir -p "$pip_src"
cp -r "$root/python/pyproject.toml" "$root/python/spacefusion" "$pip_src"
/usr/bin/python3 -m pip install -q --no-deps --no-build-isolation --no-index \
  --target "$build/install-test/pip-target" "$pip_src" 2>&1 | grep -v "as the 'root' user" || true
(cd "$build/install-test" && env -u SPACEFUSION_BUILD_DIR PATH="$prefix/bin:$PATH" \
  PYTHONPATH="$build/install-test/pip-target" /usr/bin/python3 -c "$python_check" "$prefix" \
  "$build/install-test/cache")
# A C++-only consumer (project(... LANGUAGES CXX)) finds the package too:
# LLVM's config probes C headers, which the package config enables C for.
cxx_only="$build/install-test/cxx-only"
mkdir -p "$cxx_only"
cat > "$cxx_only/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(cxx_only LANGUAGES CXX)
find_package(SpaceFusion REQUIRED CONFIG)
add_executable(print-version main.cpp)
target_link_libraries(print-version PRIVATE SpaceFusion::SpaceFusion-C)
CMAKE
cat > "$cxx_only/main.cpp" <<'CPP'
#include "spacefusion-c/SpaceFusion.h"
#include <cstdio>
int main() { std::printf("%s\n", spacefusionGetVersion()); }
CPP
cmake -G Ninja -S "$cxx_only" -B "$cxx_only/build" -DCMAKE_CXX_COMPILER=clang++-22 \
  -DSpaceFusion_DIR="$prefix/lib/cmake/SpaceFusion" > /dev/null
cmake --build "$cxx_only/build" > /dev/null
version="$("$cxx_only/build/print-version")"
header_version="$(sed -n 's/^#define SPACEFUSION_VERSION_STRING "\(.*\)"$/\1/p' \
  "$prefix/include/spacefusion/Version.h")"
[ "$version" = "$header_version" ] || {
  echo "test-install: the C API says version '$version', Version.h '$header_version'" >&2; exit 1; }
echo "test-install: a C++-only project links the installed C API, version $version"

cmake -G Ninja -S "$root/examples/custom-compiler" -B "$cc_build" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DSpaceFusion_DIR="$prefix/lib/cmake/SpaceFusion" > /dev/null
cmake --build "$cc_build"
ctest --test-dir "$cc_build" --output-on-failure
