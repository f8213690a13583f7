#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs the main job on
# an example (default: examples/attention.mlir): parse it, group it into
# smap.graph fusion groups, build and explain its Space-Mapping Graph.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SPACEFUSION_BUILD_DIR:-$root/build}"
input="${1:-$root/examples/attention.mlir}"

mkdir -p "$build"
echo "Setting up and building (log: $build/setup.log) ..."
bash "$root/scripts/build.sh" > "$build/setup.log" 2>&1 || {
  cat "$build/setup.log"; exit 1; }
opt="$build/bin/spacefusion-opt"

echo "=== $input, parsed and printed by spacefusion-opt ==="
"$opt" "$input"
echo
echo "=== fusion groups and their Space-Mapping Graph (smap-form-graphs, smap-analyze) ==="
"$opt" --smap-form-graphs --smap-analyze \
  --remarks-filter=smap --remark-format=emitRemark "$input"
echo
echo "=== the SMG as text (smap-dump-graph) ==="
"$opt" --smap-form-graphs --smap-dump-graph "$input" -o /dev/null
