#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs the main job on
# an example (default: examples/attention.mlir) along the CPU path: group it
# into fusion graphs, explain its Space-Mapping Graph, schedule and slice it
# (online softmax for attention), then run the fused and the unfused program
# on the CPU on the same random inputs and compare them.
# SPACEFUSION_SKIP_SETUP=1 uses an existing build as is (CTest's demo test).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SPACEFUSION_BUILD_DIR:-$root/build}"
input="${1:-$root/examples/attention.mlir}"
target="${SPACEFUSION_TARGET:-cpu}"

if [ "${SPACEFUSION_SKIP_SETUP:-0}" != 1 ]; then
  mkdir -p "$build"
  echo "Setting up and building (log: $build/setup.log) ..."
  bash "$root/scripts/build.sh" > "$build/setup.log" 2>&1 || {
    cat "$build/setup.log"; exit 1; }
fi
opt="$build/bin/spacefusion-opt"
run="$build/bin/spacefusion-run"

echo
echo "=== $input, parsed and printed by spacefusion-opt ==="
"$opt" "$input"

echo
echo "=== fusion decisions for $input (target $target) ==="
"$opt" --spacefusion-pipeline="target=$target" \
  --remarks-filter=smap --remark-format=emitRemark "$input" -o /dev/null 2>&1 \
  | sed -n 's/.*remark: \[\([A-Za-z]*\)\] [a-z-]* | Category:smap:\([a-z-]*\) | \(Function=[^ ]* | \)\{0,1\}Remark="\([^"]*\)".*$/  [\2] \4/p'
echo
echo "=== the Space-Mapping Graph ==="
"$opt" --smap-form-graphs --smap-dump-graph "$input" -o /dev/null
echo
echo "=== fused vs unfused on the CPU (spacefusion-run), with the searched schedule ==="
"$run" "$input" --target="$target"
if [ "$input" = "$root/examples/attention.mlir" ]; then
  echo
  echo "=== the same with l sliced temporally by 128: online softmax ==="
  "$run" "$input" --target="$target" --spatial=b:1,h:1,m:64 --temporal=l:128
fi
