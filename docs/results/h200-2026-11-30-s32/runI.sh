# Session 32, device run I: the final code (s32j, 309daa9; its GPU code is s32i's, cbb99b8,
# the rest is the CPU stand-in) verified. Every classroom example's first case and four
# semantics programs on the simulator, the GPU under both schedules and the nvcc .cu of both,
# with memcheck, racecheck and synccheck; then sieve 10^7 and Hillis–Steele 2^20 at P = 1024
# on both schedules.
C=$PWD/.device-bin/s32j/forkcc; . scripts/results-lib.sh
verify v0 330 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork
b j-sieve 60 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
b j-hs 60 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --backends gpu,gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
