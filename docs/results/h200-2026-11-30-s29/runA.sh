# Session 29, device run A: the checks' object before the last in shared memory and settled
# owned loops (s29a = the working tree after 874ced9 with both). Stamps of quicksort_balanced's
# partition loop (stamp_helpers.py + stamp_owned.py: `old` is s28f's code, 874ced9, `new`
# s29a's), quicksort_balanced 10^6 at P = 4096 with both binaries, and the two new fault
# tests on the five backends.
C=/nonexistent; . scripts/results-lib.sh
nvcc -arch=sm_90 -o /tmp/old $PWD/.device-bin/s29a/old.o
nvcc -arch=sm_90 -o /tmp/new $PWD/.device-bin/s29a/new.o
for i in 1 2; do for v in old new; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
C=$PWD/.device-bin/s28f/forkcc
b old-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s29a/forkcc
b new-qsb 120 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
FILES="tests/semantics/fault_free_after_settled_loop.fork tests/semantics/fault_free_in_owned_loop.fork tests/semantics/fault_two_objects_by_turns.fork" SANITIZE=0 timeout 120 bash scripts/gpu-verify.sh $C /tmp/v1 > $OUT/faults.log 2>&1
at "faults rc=$?"; report /tmp/v1 faults
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
