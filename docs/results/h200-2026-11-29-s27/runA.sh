# Session 27, device run A: a region's private slots in registers (FK_R_LAUNCH_REGS; s27a)
# against session 26's final tree (s26f) on quicksort_balanced 10^6 at P = 4096 in one call;
# the stamped .cu of both (s26d/np: session 26's stamps; s27a/np); the classroom examples'
# first cases on the five backends with the new binary, without the sanitizer.
C=$PWD/.device-bin/s26f/forkcc; . scripts/results-lib.sh
for v in s26d s27a; do nvcc -arch=sm_90 -o /tmp/$v $PWD/.device-bin/$v/np.o; done
for i in 1 2; do for v in s26d s27a; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
b old-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s27a/forkcc
b new-qsb 150 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=0 timeout 200 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
