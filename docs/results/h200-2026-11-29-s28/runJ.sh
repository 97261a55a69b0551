# Session 28, device run J: the final tree (s28f: owned loops, fk_seen_before, fk_team_sync's
# warps meeting in a ballot): every classroom example's first case, pointer_one_past_end and
# the multiprefix programs' first cases on the five backends, with compute-sanitizer (the
# classroom examples' nvcc binaries, both schedules, checked and unchecked).
C=$PWD/.device-bin/s28f/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 275 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
