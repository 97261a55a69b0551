# Session 27, device run C: the kept version (s27c: a region's private slots in registers, a
# multiprefix after a launch from the threads' copies; the whole kernel thread no longer
# kept) against session 26's final tree (s26d stamps, s26f bench) in one call: the stamped
# .cu of both, quicksort_balanced and quicksort 10^6 at P = 4096 with the sequential leaf;
# every classroom example's first case, pointer_one_past_end and the multiprefix programs'
# first cases on the five backends, with compute-sanitizer.
C=$PWD/.device-bin/s26f/forkcc; . scripts/results-lib.sh
for v in s26d s27c; do nvcc -arch=sm_90 -o /tmp/$v $PWD/.device-bin/$v/np.o; done
for i in 1 2; do for v in s26d s27c; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
b old-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s27c/forkcc
b new-qs 160 quicksort --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 330 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
