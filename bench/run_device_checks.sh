#!/usr/bin/env bash
# One device call that re-checks the compiler on the GPU: the conformance
# corpus, the row benchmarks and the GPU fuzzer, each from a bundle built
# on the CPU machine (bench/conformance_forms.py build, bench/build_rows.py,
# bench/gpu_fuzz.py build) and carried with the call:
#
#   bash bench/run_device_checks.sh [CONFORMANCE_BUNDLE] [ROWS_BUNDLE] [FUZZ_DIR...]
#
# A bundle that is missing is skipped. Results go to $OUT: conformance/,
# rows/ and one FUZZ_DIR-named .json/.md per fuzz directory; the tables are
# printed last.
set -u
conf=${1:-build/conf-bundle} rows=${2:-build/rows-bundle}
if [ $# -ge 2 ]; then shift 2; else set --; fi
fuzz=("${@:-build/gpu-fuzz}")
out=${OUT:-/tmp/device-checks}
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
step() {
  local tag=$1 start=$SECONDS
  shift
  "$@" > "$out/$tag.log" 2>&1
  echo "$tag: exit $? in $((SECONDS - start)) s"
}
for dir in "${fuzz[@]}"; do
  tag=$(basename "$dir")
  [ -d "$dir" ] && step "$tag" python3 bench/gpu_fuzz.py check "$dir" \
    --json "$out/$tag.json" --md "$out/$tag.md" --budget 240
done
[ -d "$rows" ] && step rows python3 bench/run_rows.py "$rows" "$out/rows"
[ -d "$conf" ] && step conformance python3 bench/conformance_forms.py run "$conf" "$out/conformance"
for dir in "${fuzz[@]}"; do
  md="$out/$(basename "$dir").md"
  [ -f "$md" ] && echo "$md" && sed -n '/^| dtype/,/^$/p' "$md"
done
[ -f "$out/rows/rows.md" ] && grep -E '^\|' "$out/rows/rows.md" | cut -c1-140
[ -f "$out/conformance/conformance.md" ] &&
  grep -E '^\|' "$out/conformance/conformance.md" | cut -d'|' -f2-11 | cut -c1-150
exit 0
