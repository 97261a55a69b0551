# Session 32, device run K: a fork whose keys are 0 and 1 forms its subgroups over the warp
# (s32k, the fork commit after 309daa9), against one thread (s32r's q1: s32i's emission). The
# standalone .cu of quicksort_balanced and quicksort.fork 10^6 of both (s32r's qf1: s32i's
# emission of quicksort.fork), the persistent kernel's time at P = 4096,
# 9 rounds interleaved; every case of the fork tests (v2) and the first case of the classroom
# examples with a fork, with the sanitizer (v3), on the simulator, the GPU under both
# schedules and both .cu.
C=$PWD/.device-bin/s32k/forkcc; . scripts/results-lib.sh
R=docs/results/h200-2026-11-30-s32
python3 $R/time_kernel.py .device-bin/s32r/q1.cu /tmp/qi-t.cu
python3 $R/time_kernel.py .device-bin/s32k/quicksort_balanced.cu /tmp/qk-t.cu
python3 $R/time_kernel.py .device-bin/s32r/qf1.cu /tmp/fi-t.cu
python3 $R/time_kernel.py .device-bin/s32k/quicksort.cu /tmp/fk-t.cu
for v in qi qk fi fk; do
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/$v /tmp/$v-t.cu > $OUT/nvcc-$v.txt 2>&1 &
done
verify v2 200 0 0 tests/semantics/fork_large_group_keys.fork tests/semantics/fork_index_out_of_range.fork tests/semantics/fork_sets_dollar.fork tests/semantics/nested_fork.fork tests/semantics/output_order_fork.fork &
verify v3 250 1 1 classroom-examples/groups.fork classroom-examples/reduce_fork.fork classroom-examples/quicksort.fork classroom-examples/quicksort_balanced.fork
wait; at "built"
for i in 1 2 3 4 5 6 7 8 9; do for v in qi qk fi fk; do
    timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err
    echo "code $v round $i rc=$? $(grep prof $OUT/$v-$i.err) $(head -1 $OUT/$v-$i.out | head -c 50)"
done; done > $OUT/rounds.txt
for v in qi qk fi fk; do
    t=$(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n)
    echo "code $v median $(echo "$t" | sed -n 5p) ms, min $(echo "$t" | head -1), max $(echo "$t" | tail -1), sorted $(grep "code $v " $OUT/rounds.txt | grep -c 'sorted: yes')/9"
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
