# Session 24, device run G (the final code, s24f): the cases run F's 60 s cap cut
# (tests/semantics/multiprefix_wide.fork and quicksort's second and third) on the five
# backends, and quicksort 10^6 at P = 4096 on the device schedule before (s24b) and after
# (s24f) the one-cell multiprefix, 3 runs each, in one call.
C=$PWD/.device-bin/s24f/forkcc; . scripts/results-lib.sh
FILES="tests/semantics/multiprefix_wide.fork classroom-examples/quicksort.fork" SANITIZE=0 timeout 150 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "multiprefix verify rc=$?"; report /tmp/v1 multiprefix
b qs-after 50 quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 3
C=$PWD/.device-bin/s24b/forkcc
b qs-before 50 quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 3
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
