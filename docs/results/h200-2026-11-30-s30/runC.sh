# Session 30, device run C: spread runners. s30c = s30a + the persistent kernel's runner
# threads take at most 8 processors a warp (FK_DEVICE_LANES 8, up to 128 runners a block:
# at P = 4096, 4 runner warps of 8 lanes a block instead of one of 32); s30d the same with
# 16 lanes a warp (2 runner warps). quicksort_balanced 10^6 at P = 4096 with s30a, s30c and
# s30d in one call.
C=$PWD/.device-bin/s30a/forkcc; . scripts/results-lib.sh
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s30c/forkcc
b c-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
C=$PWD/.device-bin/s30d/forkcc
b d-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
