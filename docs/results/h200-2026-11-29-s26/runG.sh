# Session 26, device run G: one launch helper of the partition loop, stage by stage
# (stamp_launch.py, `ol`), at P = 2 and P = 4096; then the final tree's verification
# (s26a = bd9f978, whose runtime this session leaves as it was): every classroom example's
# first case and tests/semantics/pointer_one_past_end.fork on the five backends, with
# compute-sanitizer.
C=$PWD/.device-bin/s26a/forkcc; . scripts/results-lib.sh
D=$PWD/.device-bin/s26d
nvcc -arch=sm_90 -o /tmp/ol $D/ol.o
for p in 2 4096; do
  t=$(date +%s%N); timeout 60 /tmp/ol -p $p > $OUT/ol-$p.out 2> $OUT/ol-$p.err; at "ol -p $p rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep "prof\|launch" $OUT/ol-$p.err
done
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 380 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; tail -30 /tmp/v0/summary.txt
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
