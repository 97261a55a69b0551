# Session 31, device run C: s31d = s31a + long kernels (a loop or a call in them) handed from
# the runner lanes to their block's kernel warp (fk_s_hand_over). quicksort_balanced 10^6 at
# P = 4096 with s31a and s31d in one call, quicksort.fork, s31d's trace along the critical
# path and its interpreter stamps (stamp_interpreter.py's .cu, groups of at most 8).
C=$PWD/.device-bin/s31a/forkcc; . scripts/results-lib.sh
(nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 .device-bin/s31d/stamp.cu -o /tmp/stamp-d > $OUT/nvcc-d.log 2>&1; echo "nvcc d rc=$?" >> $OUT/nvcc-d.log) &
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s31d/forkcc
b d-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b d-qs 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
timeout 100 $C run --backend gpu --schedule device --stats --trace $OUT/qsb-d.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/trace-d.txt 2>&1; at "trace d rc=$?"
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb-d.json > $OUT/qsb-d-critical-path.txt 2>&1
python3 docs/results/h200-2026-11-30-s30/critical_path_split.py $OUT/qsb-d-critical-path.txt; rm -f $OUT/qsb-d.json
wait; cat $OUT/nvcc-d.log | tail -2
for i in 1 2; do timeout 60 /tmp/stamp-d -p 4096 > $OUT/stamp-d-$i.out 2> $OUT/stamp-d-$i.err; at "stamp d $i rc=$?"; tail -1 $OUT/stamp-d-$i.out; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
