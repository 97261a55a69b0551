# Session 30, device run D: idle blocks first. s30e = s30a + a region task goes to a block
# whose team waits with an empty task list (fk_d.idle, fk_task_block), else to the next in
# turn as before. quicksort_balanced 10^6 at P = 4096 with s30a and s30e in one call, then
# s30e's trace and critical path (as run B's of s30a).
C=$PWD/.device-bin/s30a/forkcc; . scripts/results-lib.sh
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s30e/forkcc
b e-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
timeout 100 $C run --backend gpu --schedule device --stats --trace $OUT/qsb.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/qsb-stats.txt 2>&1
at "qsb trace rc=$?"; tail -6 $OUT/qsb-stats.txt
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb.json > $OUT/qsb-critical-path.txt 2>&1
rm -f $OUT/qsb.json
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
