# Session 25, device run H: the final runtime (c = fk_at and fk_seen_miss take the thread by
# value) against f3ec219 (a) on Hillis–Steele 2^20 at P = 65,536 (run G: the first version
# cost it 300 -> 406 us); quicksort and quicksort_balanced at 10^6, P = 4096 on the device
# schedule; two programs' cases on the five backends (a fault after hits, quicksort).
for V in a c; do
  C=$PWD/.device-bin/s25h/forkcc-$V; . scripts/results-lib.sh
  b $V-prefix 30 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu,cuda-hand --runs 5
done
b qs 80 quicksort --n 1000000 --procs 4096 --backends gpu-device,seq --runs 3
FILES="tests/semantics/fault_in_loop_after_hits.fork classroom-examples/quicksort_balanced.fork" FIRST_ONLY=1 SANITIZE=0 timeout 45 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "verify rc=$?"; report /tmp/v1 cases
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
