# Session 31, device run A: session 30's final code (s31a, 421ae45) against the same code with
# the processors dealt out across the runner warps (s31b, session 30's dealt-runners.diff):
# quicksort_balanced 10^6 at P = 4096 under the device schedule, the interpreter's time per
# instruction for the processors of groups of at most 8 (stamp_interpreter.py's .cu of each,
# built with nvcc here), and s31b's trace along the critical path.
C=$PWD/.device-bin/s31a/forkcc; . scripts/results-lib.sh
for v in a b; do (nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 .device-bin/s31$v/stamp.cu -o /tmp/stamp-$v > $OUT/nvcc-$v.log 2>&1; echo "nvcc $v rc=$?" >> $OUT/nvcc-$v.log) & done
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
C=$PWD/.device-bin/s31b/forkcc
b b-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked --runs 5
timeout 100 $C run --backend gpu --schedule device --stats --trace $OUT/qsb-b.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/trace-b.txt 2>&1; at "trace b rc=$?"
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb-b.json > $OUT/qsb-b-critical-path.txt 2>&1
python3 docs/results/h200-2026-11-30-s30/critical_path_split.py $OUT/qsb-b-critical-path.txt; rm -f $OUT/qsb-b.json
wait; cat $OUT/nvcc-*.log | tail -4
for i in 1 2; do for v in a b; do timeout 60 /tmp/stamp-$v -p 4096 > $OUT/stamp-$v-$i.out 2> $OUT/stamp-$v-$i.err; at "stamp $v $i rc=$?"; tail -1 $OUT/stamp-$v-$i.out; done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
