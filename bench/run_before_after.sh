#!/usr/bin/env bash
# Times two benchmark bundles in one device call, interleaved (new with the
# baselines, old, new, old), so that the before/after table of a change
# compares runs of one machine and one process environment:
#
#   bash bench/run_before_after.sh OLD_BUNDLE OLD_HARNESS NEW_BUNDLE ONLY_FILE
#
# OLD_HARNESS is the old commit's bench/ and python/ (its run_fused.py reads
# its own bundle format); ONLY_FILE holds the --only regex of the new
# bundle's directories to time (the old bundle's workloads). Results go to
# $OUT/{new1,old1,new2,old2}; bench/compare_runs.py tabulates them.
set -u
old=$1 harness=$2 new=$3 only=$(cat "$4")
out=${OUT:-/tmp/before-after}
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
run() {
  local tag=$1
  shift
  local start=$SECONDS
  "$@" > "$out/$tag.log" 2>&1
  echo "$tag: exit $? in $((SECONDS - start)) s"
  [ "$tag" = old2 ] || return 0
  grep -hE "^\|" "$out"/*/fused.md 2>/dev/null | cut -c1-110 | head -80
}
run new1 python3 bench/run_fused.py "$new" "$out/new1" --only "$only"
run old1 python3 "$harness/bench/run_fused.py" "$old" "$out/old1" --ours-only
run new2 python3 bench/run_fused.py "$new" "$out/new2" --only "$only" --ours-only
run old2 python3 "$harness/bench/run_fused.py" "$old" "$out/old2" --ours-only
