# Session 18, device run 4 (main 8c4d400, the final code): the programs whose checks the
# ranged loops change, every case, on sim, gpu, dev, cu and cud (no sanitizer); then the
# cost of a barrier (bench/overhead/barrier.fork: main's device time at N = 1100 less at
# N = 100 barriers, over 1000; 65,536 processors: N = 110 less N = 10, over 100).
# (run3 ran the whole corpus but its 360 s cap ended it before the summary was written, and
# it kept only the summary's header: no result.)
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s18/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s"; }
for sched in host device; do
    for p in 32 1024 65536; do
        for n in 100 1100; do
            [ $p = 65536 ] && n=$((n / 10))
            printf '%s P=%s N=%s ' $sched $p $n
            timeout 60 $C run bench/overhead/barrier.fork -p $p -D N=$n --backend gpu --schedule $sched --stats 2>&1 | grep -E "^  main|^barriers" | tr '\n' ' '
            echo
        done
    done
done > $OUT/barrier.txt 2>&1
at barrier; cat $OUT/barrier.txt
FILES="tests/semantics/fault_ranged_loop.fork tests/semantics/fault_in_loop_after_hits.fork tests/random/kernel_loop_fault_of_earliest_iteration.fork tests/semantics/grid_region_fault.fork tests/semantics/fault_out_of_bounds.fork tests/semantics/fault_pointer_out_of_bounds.fork tests/semantics/fault_use_after_free.fork tests/semantics/index_rows_whole_object.fork tests/semantics/order_free_loop.fork tests/semantics/private_return_in_loop.fork tests/semantics/structs_pointers.fork classroom-examples/quicksort.fork classroom-examples/prefix_hillis_steele.fork classroom-examples/sieve.fork classroom-examples/matmul.fork classroom-examples/odd_even_sort.fork classroom-examples/merge.fork classroom-examples/pack.fork $(ls .device-bin/s18/random/*.fork | head -12 | tr '\n' ' ')" \
    SANITIZE=0 timeout 330 bash scripts/gpu-verify.sh $C /tmp/verify > /tmp/verify.log 2>&1
at "verify rc=$?"
cp /tmp/verify/progress.txt $OUT/verify-progress.txt; cp /tmp/verify/summary.txt $OUT/verify-summary.txt
awk '{print $1}' $OUT/verify-progress.txt | sort | uniq -c
grep -v "^pass" $OUT/verify-progress.txt | head -20
