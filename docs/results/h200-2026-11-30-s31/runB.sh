# Session 31, device run B: s31c = s31a + owned loops with several members a thread (a block
# region's loop group larger than the team runs owned: thread t runs members t, t + T, ...).
# The new semantics test and the owned-loop fault tests on the GPU (both schedules, the nvcc
# .cu), then quicksort_balanced 10^6 at P = 4096 with s31a and s31c in one call, quicksort.fork,
# and s31c's trace along the critical path.
C=$PWD/.device-bin/s31c/forkcc; . scripts/results-lib.sh
verify v1 150 0 0 tests/semantics/owned_loop_several_members.fork tests/semantics/fault_in_owned_loop.fork tests/semantics/fault_crcw_common_in_owned_loop.fork classroom-examples/quicksort_balanced.fork
C=$PWD/.device-bin/s31a/forkcc
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s31c/forkcc
b c-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b c-qs 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
timeout 100 $C run --backend gpu --schedule device --stats --trace $OUT/qsb-c.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/trace-c.txt 2>&1; at "trace c rc=$?"
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb-c.json > $OUT/qsb-c-critical-path.txt 2>&1
python3 docs/results/h200-2026-11-30-s30/critical_path_split.py $OUT/qsb-c-critical-path.txt; rm -f $OUT/qsb-c.json
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
