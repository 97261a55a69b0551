# Session 33, device run A: session 32's final tree (s33a = c46af7c) verified. Every classroom
# example's first case and four semantics programs on the simulator, the GPU under both
# schedules and the nvcc .cu of both, with memcheck, racecheck and synccheck; then the bench
# row of quicksort_balanced 10^6 at P = 4096 as this session's baseline.
C=$PWD/.device-bin/s33a/forkcc; . scripts/results-lib.sh
verify v0 330 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork
b a-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
