#!/usr/bin/env bash
# Runs the slicing passes under valgrind (memcheck) on the examples and the
# CPU differential tests' inputs, with the searched schedule and with forced
# temporal slices; prints one line per run and exits 1 if any run reads or
# writes memory it must not (a use-after-free in smap-temporal-slice went
# unnoticed in Release builds). Slow: run it once per change to the slicers.
#   scripts/valgrind-slicers.sh [BUILD_DIR]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opt="${1:-$root/build}/bin/spacefusion-opt"
passes=(--smap-form-graphs --smap-set-target=target=cpu --smap-analyze)
slicers=(--smap-spatial-slice --smap-temporal-slice)
status=0

check() { # FILE SCHEDULE
  local out
  out=$(valgrind -q --error-exitcode=99 "$opt" "$1" -split-input-file \
        "${passes[@]}" "$2" "${slicers[@]}" -o /dev/null 2>&1)
  local errors
  errors=$(grep -c '==[0-9]*== \(Invalid\|Conditional jump\|Use of uninit\)' <<<"$out")
  echo "$1 $2: memcheck errors $errors"
  [ "$errors" -eq 0 ] || status=1
}

for f in "$root"/examples/*.mlir "$root"/test/Execution/CPU/*.mlir; do
  grep -q '^//--- ' "$f" && continue # split-file inputs
  check "$f" --smap-schedule
done
check "$root/examples/attention_paper.mlir" "--smap-schedule=temporal=l:64"
check "$root/examples/layernorm.mlir" "--smap-schedule=temporal=n:256"
check "$root/test/Execution/CPU/rescaled-computed-init.mlir" "--smap-schedule=temporal=l:16"
check "$root/test/Execution/CPU/welford-two-dims.mlir" "--smap-schedule=temporal=n:4"
check "$root/test/Execution/CPU/rmsnorm-gemm-fused-rsqrt.mlir" "--smap-schedule=temporal=l:32"
exit $status
