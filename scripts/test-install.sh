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
  include/spacefusion-c/SpaceFusion.h lib/cmake/SpaceFusion/SpaceFusionConfig.cmake)
if [ -e "$build/lib/libspacefusion_cuda_runtime.so" ]; then
  expected+=(lib/libspacefusion_cuda_runtime.so include/spacefusion-runtime)
fi
for path in "${expected[@]}"; do
  [ -e "$prefix/$path" ] || { echo "test-install: $path was not installed" >&2; exit 1; }
done
echo "test-install: ${#expected[@]} expected paths installed"
cmake -G Ninja -S "$root/examples/custom-compiler" -B "$cc_build" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DSpaceFusion_DIR="$prefix/lib/cmake/SpaceFusion" > /dev/null
cmake --build "$cc_build"
ctest --test-dir "$cc_build" --output-on-failure
