#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs the test suite
# (lit + FileCheck through CTest). CI runs exactly this.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SPACEFUSION_BUILD_DIR:-$root/build}"

bash "$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -V
