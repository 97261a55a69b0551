# Session 27, device run F: the final tree (s27f = f781ce4) verified: every classroom
# example's first case, pointer_one_past_end and the multiprefix programs' first cases on
# the five backends, with compute-sanitizer; then, session 26's final tree (s26f) against it
# in one call: the overhead suite's barrier, split and loop at P = 32 and 1024, and sieve 10^7
# at P = 1024 (one block region), both schedules.
C=$PWD/.device-bin/s27f/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 330 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
for V in s26f s27f; do
  C=$PWD/.device-bin/$V/forkcc
  b $V-overhead 55 overhead --program barrier --program split --program loop --procs 32 --procs 1024 --backends gpu,gpu-device --runs 5
  grep -B2 -A12 "cost per step" $OUT/$V-overhead.txt | head -30
  b $V-sieve 60 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
