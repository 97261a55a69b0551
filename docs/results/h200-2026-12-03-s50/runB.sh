# Session 50, device run B: loads ahead in batches of 16, then 4, with the uncovered elements
# of array variables that a batch's values read tested first (`t4b`, each size's loop running
# the next one's where its batch does not run, so the step counter stays a multiple of the
# size), against `s49` (16 at a time, e12d6b5f): Hillis-Steele 2^20 at P = 65,536 and 1024,
# list ranking 2^18 at 65,536, both schedules; quicksort_balanced 10^6 at 4096 on the device
# schedule; then t4b's first cases of the programs whose loops load ahead and
# with compute-sanitizer (v1), and every case of tests/semantics/fault_loads_ahead_tested.fork without it (v2).
# (Run A's `t4`, whose 4-batch loop could run before a 16-batch, lost nvcc's one step-limit
# test a batch and made Hillis-Steele at 1024 1.6x slower.)
. scripts/results-lib.sh
for v in s49 t4b; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device --runs 5
    b lr-$v 40 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
    b qsb-$v 50 quicksort --program quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
done
C=$PWD/.device-bin/t4b/forkcc
verify v1 200 1 1 classroom-examples/prefix_hillis_steele.fork classroom-examples/list_ranking.fork classroom-examples/quicksort.fork tests/semantics/loads_ahead.fork
verify v2 100 0 0 tests/semantics/fault_loads_ahead_tested.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
