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
cmake -G Ninja -S "$root/examples/custom-compiler" -B "$cc_build" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DSpaceFusion_DIR="$prefix/lib/cmake/SpaceFusion" > /dev/null
cmake --build "$cc_build"
ctest --test-dir "$cc_build" --output-on-failure
