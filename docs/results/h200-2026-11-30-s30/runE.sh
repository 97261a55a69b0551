# Session 30, device run E: the final tree (s30f, the code of bf070ae). The verification as
# in session 29's run G: every classroom example's first case and four semantics programs on
# the simulator, the GPU under both schedules and the nvcc .cu of both, with memcheck,
# racecheck and synccheck; the fault tests of the checks without the sanitizer; then
# quicksort_balanced 10^6 at P = 4096 (device schedule, checked and unchecked, sequential).
C=$PWD/.device-bin/s30f/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 290 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
T="fault_in_owned_loop fault_free_after_settled_loop fault_free_in_owned_loop fault_two_objects_by_turns fault_in_loop_after_hits"
FILES="$(for f in $T; do echo -n "tests/semantics/$f.fork "; done)" SANITIZE=0 timeout 100 bash scripts/gpu-verify.sh $C /tmp/v1 > $OUT/faults.log 2>&1
at "faults rc=$?"; report /tmp/v1 faults
b f-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
