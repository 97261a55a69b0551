# Session 53, device run D: matmul 2048 at P = N^2 on both schedules and the hand-written
# kernel (`s53t`, b831d740), not measured on the device schedule since session 21 (28.0 ms
# against the host schedule's 4.05 ms).
C=$PWD/.device-bin/s53t/forkcc
. scripts/results-lib.sh
b matmul-s53t 200 matmul --n 2048 --backends gpu,gpu-device,cuda-hand --runs 3
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
