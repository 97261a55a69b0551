# Session 29, device run G: s29g = s29d + an owned loop's check of a member's one logged
# write reads the write's copy in shared memory (fk_write_first), and the owned loop's exit
# reads the fault flag every 64th iteration. Stamps of s29d (`d`) and s29g (`g`);
# quicksort_balanced 10^6 at P = 4096 with both binaries; then the verification of s29g as
# in run E, with fault_in_owned_loop added to the fault tests.
C=/nonexistent; . scripts/results-lib.sh
nvcc -arch=sm_90 -o /tmp/d $PWD/.device-bin/s29d/new.o; nvcc -arch=sm_90 -o /tmp/g $PWD/.device-bin/s29g/new.o
for i in 1 2; do for v in d g; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
C=$PWD/.device-bin/s29d/forkcc
b d-qsb 60 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s29g/forkcc
b g-qsb 60 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 290 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
T="fault_in_owned_loop fault_free_after_settled_loop fault_free_in_owned_loop fault_crcw_common_in_owned_loop fault_two_objects_by_turns fault_crcw_common_beside_order_free_loop fault_in_loop_after_hits"
FILES="$(for f in $T; do echo -n "tests/semantics/$f.fork "; done)" SANITIZE=0 timeout 110 bash scripts/gpu-verify.sh $C /tmp/v1 > $OUT/faults.log 2>&1
at "faults rc=$?"; report /tmp/v1 faults
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
