# Session 31, device run D: s31e = s31d + the kernel warp's idle lanes sleep from 64 ns up to
# 2 us between looks (they had polled every 64 ns, and quicksort's leaves took twice as long
# on the kernel warp as on the runner warps). quicksort_balanced 10^6 at P = 4096 with s31d
# and s31e in one call, quicksort.fork, s31e's trace along the critical path.
C=$PWD/.device-bin/s31d/forkcc; . scripts/results-lib.sh
b d-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s31e/forkcc
b e-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b e-qs 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
timeout 100 $C run --backend gpu --schedule device --stats --trace $OUT/qsb-e.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/trace-e.txt 2>&1; at "trace e rc=$?"; tail -5 $OUT/trace-e.txt
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb-e.json > $OUT/qsb-e-critical-path.txt 2>&1
python3 docs/results/h200-2026-11-30-s30/critical_path_split.py $OUT/qsb-e-critical-path.txt; rm -f $OUT/qsb-e.json
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
