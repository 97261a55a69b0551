# Session 29, device run E: the final verification of s29d. Every classroom example's first
# case and the first cases of pointer_one_past_end, mpadd_order, multiprefix_wide and
# mpmax_mpmin on the five backends (sim, gpu, gpu-device, the nvcc-built .cu of both
# schedules), the classroom examples under compute-sanitizer; then this session's tests and
# the fault tests with owned loops, all their cases, without the sanitizer.
C=$PWD/.device-bin/s29d/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 300 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
T="fault_free_after_settled_loop fault_free_in_owned_loop fault_crcw_common_in_owned_loop fault_two_objects_by_turns fault_crcw_common_beside_order_free_loop fault_in_loop_after_hits"
FILES="$(for f in $T; do echo -n "tests/semantics/$f.fork "; done)" SANITIZE=0 timeout 200 bash scripts/gpu-verify.sh $C /tmp/v1 > $OUT/faults.log 2>&1
at "faults rc=$?"; report /tmp/v1 faults
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
