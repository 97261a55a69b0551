# Session 32, device run H: a kernel that frees no heap block checks a heap block before its
# counted loop (s32i, cbb99b8: quicksort's copy loop `x[i] = buf[i]` runs unchecked after one
# check of both ranges). The standalone .cu of quicksort_balanced 10^6 before (q0, f62be68's
# emission) and after (q1), the persistent kernel's time at P = 4096, 9 rounds interleaved;
# every case of the fault tests of loops, heap blocks and the kernel warp on the simulator,
# the GPU under both schedules and the nvcc .cu of both (no sanitizer); then s32i's bench rows.
C=$PWD/.device-bin/s32i/forkcc; . scripts/results-lib.sh
R=docs/results/h200-2026-11-30-s32
for v in 0 1; do
    python3 $R/time_kernel.py .device-bin/s32r/q$v.cu /tmp/q$v-t.cu
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/q$v /tmp/q$v-t.cu > $OUT/nvcc-$v.txt 2>&1 &
done
verify v1 200 0 0 tests/semantics/fault_free_before_ranged_loop.fork tests/semantics/fault_free_after_settled_loop.fork tests/semantics/fault_free_after_settled_generic_loop.fork tests/semantics/fault_in_loop_after_hits.fork tests/semantics/region_loop_larger_than_team.fork tests/semantics/fault_free_in_owned_loop.fork
wait; at "built"
for i in 1 2 3 4 5 6 7 8 9; do for v in 0 1; do
    timeout 60 /tmp/q$v -p 4096 > $OUT/q$v-$i.out 2> $OUT/q$v-$i.err
    echo "code $v round $i rc=$? $(grep prof $OUT/q$v-$i.err) $(head -1 $OUT/q$v-$i.out | head -c 50)"
done; done > $OUT/rounds.txt
for v in 0 1; do
    t=$(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n)
    echo "code $v median $(echo "$t" | sed -n 5p) ms, min $(echo "$t" | head -1), max $(echo "$t" | tail -1), sorted $(grep "code $v " $OUT/rounds.txt | grep -c 'sorted: yes')/9"
done
b i-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b i-qf 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
