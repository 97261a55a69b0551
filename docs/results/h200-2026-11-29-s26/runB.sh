# Session 26, device run B: warp tasks (s26b) against session 25's final runtime (s26a) on
# quicksort_balanced 10^6 at P = 4096, device schedule; quicksort.fork with warp tasks.
for V in a b; do
  C=$PWD/.device-bin/s26$V/forkcc; . scripts/results-lib.sh
  b $V-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,seq --runs 3
done
b b-qs 100 quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 3
timeout 60 $C run --backend gpu --schedule device --stats --trace $OUT/qsb.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/qsb-stats.txt 2>&1
at "qsb trace rc=$?"; tail -6 $OUT/qsb-stats.txt
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb.json > $OUT/qsb-critical-path.txt 2>&1
gzip $OUT/qsb.json
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
