# Session 31, device run E: the final code (s31f, 4785ee6: the kernel warp) against session
# 30's (s31a) on the programs whose blocks now have a kernel warp beside a smaller team
# (P = 1024: one runner warp a block): sieve 10^7 and Hillis–Steele 2^20, device schedule,
# one call; then quicksort_balanced 10^6 at P = 4096 with s31f (checked, unchecked, the
# sequential leaf).
C=$PWD/.device-bin/s31a/forkcc; . scripts/results-lib.sh
b a-sieve 100 sieve --n 10000000 --procs 1024 --backends gpu-device --runs 5
b a-hs 100 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --backends gpu-device --runs 5
C=$PWD/.device-bin/s31f/forkcc
b f-sieve 100 sieve --n 10000000 --procs 1024 --backends gpu-device --runs 5
b f-hs 100 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --backends gpu-device --runs 5
b f-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
