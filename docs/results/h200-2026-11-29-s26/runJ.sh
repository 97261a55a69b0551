# Session 26, device run J: the final tree (s26e = bd9f978 + fk_r_inherit_frame + the one-cell
# scan of fk_mp_lanes) against
# session 25's (s26a) on quicksort_balanced 10^6 at P = 4096 in one call; quicksort.fork and
# the sequential baseline; every classroom example's first case and
# tests/semantics/pointer_one_past_end.fork on the five backends, with compute-sanitizer; every
# case of the multiprefix programs on the five backends.
C=$PWD/.device-bin/s26a/forkcc; . scripts/results-lib.sh
# The stamped .cu: session 25's (op), with fk_r_inherit_frame (ip), and the final tree (np:
# also the one-cell scan in fk_mp_lanes), P = 4096, interleaved.
D=$PWD/.device-bin/s26d
for v in op ip np; do nvcc -arch=sm_90 -o /tmp/$v $D/$v.o; done
for i in 1 2; do for v in op ip np; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err
done; done
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s26e/forkcc
b e-qs 150 quicksort --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 330 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
# Every case of the multiprefix programs (fk_mp_lanes changed), without the sanitizer.
FILES="tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork classroom-examples/pack.fork classroom-examples/quicksort.fork" SANITIZE=0 timeout 170 bash scripts/gpu-verify.sh $C /tmp/v1 > $OUT/verify-mp.log 2>&1
at "verify-mp rc=$?"; report /tmp/v1 verify-mp
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
