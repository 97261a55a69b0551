# Session 43, device run C: the binary of 35e1d46a (s43). Every classroom example's first case
# with compute-sanitizer memcheck, racecheck and synccheck (v1); quicksort_balanced 10^6 at
# P = 4096 on both schedules beside the sequential Rust program of the same algorithm.
C=$PWD/.device-bin/s43/forkcc; . scripts/results-lib.sh
verify v1 290 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ')
b qsb 150 quicksort_balanced --n 1000000 --procs 4096 --backends gpu,gpu-device,seq --runs 5
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
