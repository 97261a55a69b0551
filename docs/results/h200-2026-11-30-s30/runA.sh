# Session 30, device run A: s30a = s29g + stores into cells that differ between members are
# not logged for the --crcw common check (Kernel::distinct_stores, bf070ae). quicksort_balanced
# 10^6 at P = 4096 and quicksort.fork with s29g and s30a in one call; then the fault tests of
# the checks under both schedules and the nvcc .cu, the new fault_crcw_common_distinct_store
# among them, and the sorting examples with the sanitizer.
C=$PWD/.device-bin/s29g/forkcc; . scripts/results-lib.sh
b g-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s30a/forkcc
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
C=$PWD/.device-bin/s29g/forkcc
b g-qs 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s30a/forkcc
b a-qs 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
T="fault_crcw_common_distinct_store fault_crcw_common_in_owned_loop fault_crcw_common_beside_order_free_loop fault_crcw_common_conflict fault_in_owned_loop"
FILES="$(for f in $T; do echo -n "tests/semantics/$f.fork "; done)" SANITIZE=0 timeout 150 bash scripts/gpu-verify.sh $C /tmp/v1 > $OUT/faults.log 2>&1
at "faults rc=$?"; report /tmp/v1 faults
FILES="classroom-examples/quicksort_balanced.fork classroom-examples/quicksort.fork classroom-examples/pack.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 150 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
