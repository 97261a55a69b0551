# Session 34, device run B: the final code (s34b: s34a with the heap's shadow map filled 16
# bytes a store). The standalone .cu of quicksort_balanced 10^6 at P = 4096, the persistent
# kernel's time, 9 rounds interleaved: qa s34a (run A's), qb s34b, ub s34b unchecked, and
# s34b with the gang's wait for its helpers at 5 and 80 µs (w5, w80; the default is 20 µs,
# FK_GANG_WAIT_NS). Then the bench rows of quicksort_balanced (checked, unchecked, the
# sequential leaf) and of sieve 10^7 at P = 1024 (both schedules), and quicksort_balanced's
# critical path.
C=$PWD/.device-bin/s34b/forkcc; . scripts/results-lib.sh
kernel_build qa .device-bin/s34a/quicksort_balanced.cu &
kernel_build qb .device-bin/s34b/quicksort_balanced.cu &
kernel_build ub .device-bin/s34b/quicksort_balanced.cu -DFK_CHECKS=0 &
kernel_build w5 .device-bin/s34b/quicksort_balanced.cu -DFK_GANG_WAIT_NS=5000ull &
kernel_build w80 .device-bin/s34b/quicksort_balanced.cu -DFK_GANG_WAIT_NS=80000ull &
wait; at "built"
kernel_rounds 9 "-p 4096" qa qb ub w5 w80
at "rounds"
b b-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b b-sieve 60 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
qsb_path b
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
