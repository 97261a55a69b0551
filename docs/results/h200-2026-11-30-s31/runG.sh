# Session 31, device run G (for the next session; nothing of it is in the final code):
# s31g = s31f + session 30's idle blocks first (13eaa65, the revert of its revert c7b5544:
# `idle-blocks-first.diff`): a region task goes to a block whose team waits with an empty
# list. Now that the steps between the loops are short, a short region (r3) waiting behind
# another group's partition loop in a busy block may matter more. quicksort_balanced 10^6 at
# P = 4096 with s31f and s31g in one call; s31f's trace unchecked along the critical path
# (where the checks' 50 ms go).
C=$PWD/.device-bin/s31f/forkcc; . scripts/results-lib.sh
b f-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s31g/forkcc
b g-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s31f/forkcc
timeout 100 $C run --backend gpu --schedule device --unchecked --stats --trace $OUT/qsb-u.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/trace-u.txt 2>&1; at "trace u rc=$?"; tail -5 $OUT/trace-u.txt
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb-u.json > $OUT/qsb-u-critical-path.txt 2>&1
python3 docs/results/h200-2026-11-30-s30/critical_path_split.py $OUT/qsb-u-critical-path.txt; rm -f $OUT/qsb-u.json
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
