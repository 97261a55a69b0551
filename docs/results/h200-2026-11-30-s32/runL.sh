# Session 32, device run L: the final code's (s32k: a two-way fork formed over the warp)
# bench row of quicksort_balanced 10^6 at P = 4096 (checked, unchecked, the sequential leaf)
# and its critical path.
C=$PWD/.device-bin/s32k/forkcc; . scripts/results-lib.sh
b k-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
qsb_path k
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
