# Session 32, device run A: session 31's final code (s32a, 7e0163d) against the settled
# generic loop (s32b, af9ea62) and that with idle blocks first (s32c, 296da3b) on
# quicksort_balanced 10^6 at P = 4096 (device schedule, medians of 5), interleaved by
# program; then s32c's checked/unchecked/sequential row, its critical path, and sieve 10^7
# at P = 1024 on both schedules.
C=$PWD/.device-bin/s32a/forkcc; . scripts/results-lib.sh
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s32b/forkcc
b b-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s32c/forkcc
b c-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
qsb_path c
b c-sieve 100 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
