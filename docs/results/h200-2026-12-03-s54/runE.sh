# Session 54, device run E: forkcc bench of s54f (8ecc8895) on both schedules, right after
# run D: matmul 2048 at P = N^2, Hillis-Steele 2^20, list ranking 2^18 and sieve 10^7.
C=$PWD/.device-bin/s54f/forkcc
. scripts/results-lib.sh
b mm 120 matmul --n 2048 --procs 4194304 --backends gpu,gpu-device --runs 3
b hs 120 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --procs 1000 --procs 20000 --backends gpu,gpu-device --runs 5
b lr 60 list_ranking --n 262144 --procs 65536 --procs 20000 --backends gpu,gpu-device --runs 5
b sieve 60 sieve --n 10000000 --procs 16384 --procs 1000 --backends gpu,gpu-device --runs 5
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
