# Session 25, device run F (s25f = s25e + the bench's heap for the quicksort programs):
# quicksort_balanced.fork at 10^6, P = 4096 on both schedules against the sequential leaf;
# every case of quicksort_balanced.fork and of four fault programs (the checks changed) on
# the five backends.
C=$PWD/.device-bin/s25f/forkcc; . scripts/results-lib.sh
b qsb 170 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu,seq --runs 3
S=tests/semantics
FILES="classroom-examples/quicksort_balanced.fork $S/fault_in_loop_after_hits.fork $S/fault_pointer_out_of_bounds.fork $S/fault_use_after_free.fork $S/fault_null_pointer.fork" SANITIZE=0 timeout 200 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "verify rc=$?"; report /tmp/v1 cases
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
