# Session 26, device run L: after the review's mends (fk_lanes_scan shared by the block scan
# and fk_mp_lanes, fk_r_same_group keeping g's frame without a second load; s26f), every
# classroom example's first case, pointer_one_past_end and the multiprefix programs' first
# cases on the five backends, without the sanitizer (the device time left did not allow it).
C=$PWD/.device-bin/s26f/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=0 timeout 190 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
