set -x
nvidia-smi --query-gpu=name,clocks.sm --format=csv
for d in ws2 ws4 ws ws3; do
  timeout 150 python3 bench/run_fused.py build/$d $OUT/$d > $OUT/$d.log 2>&1; echo "$d rc=$?"
  tail -15 $OUT/$d.log
done
