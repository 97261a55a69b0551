# Session 50, device run A. First the GPU verification that sessions 48 and 49 owed for the
# tree at e12d6b5f (its emitted CUDA is byte-identical to session 48's r16): every classroom
# example's first case and tests/semantics/loads_ahead.fork on every backend, with
# compute-sanitizer (v1). Then lever 1 of docs/performance.md: does a team of one member per
# thread beat two members a thread at P = 65,536? The device-schedule `.cu` of Hillis-Steele
# (N = 2^20) and list ranking (N = 2^18), their seq check loops cut to 0 iterations
# (.device-bin/cu/*_nc.cu), built with blocks of
#   384 threads, 128 runners: a team of 256 a block, 33,792 on 132 SMs: two members a thread
#       (the default; 168 registers)
#   640 threads, 128 runners: a team of 512, 67,584: one member a thread (96 registers, spills)
#   544 threads,  32 runners: a team of 512 with fewer runners (96 registers)
#   512 threads, 128 runners: a team of 384, 50,688 (128 registers)
# and the persistent kernel's time of each, 7 rounds interleaved, at -p 65536. Last, `t4`
# (loads ahead 16, then 4 at a time, the values' uncovered elements of array variables tested
# first) against `s49` (16 at a time): Hillis-Steele 2^20 at P = 65,536 and 1024, list ranking
# 2^18 at 65,536, both schedules.
. scripts/results-lib.sh
C=$PWD/.device-bin/s49/forkcc
verify v1 330 1 1 classroom-examples/*.fork tests/semantics/loads_ahead.fork
cp classroom-examples/lcg.h /tmp/
kernel_build hs384 .device-bin/cu/hs_nc.cu -DFK_DEVICE_THREADS=384 &
kernel_build hs640 .device-bin/cu/hs_nc.cu -DFK_DEVICE_THREADS=640 &
kernel_build hs544 .device-bin/cu/hs_nc.cu -DFK_DEVICE_THREADS=544 -DFK_DEVICE_RUNNERS=32 &
kernel_build hs512 .device-bin/cu/hs_nc.cu -DFK_DEVICE_THREADS=512 &
kernel_build lr384 .device-bin/cu/lr_nc.cu -DFK_DEVICE_THREADS=384 &
kernel_build lr640 .device-bin/cu/lr_nc.cu -DFK_DEVICE_THREADS=640 &
kernel_build lr544 .device-bin/cu/lr_nc.cu -DFK_DEVICE_THREADS=544 -DFK_DEVICE_RUNNERS=32 &
wait
at built
kernel_rounds 7 "-p 65536" hs384 hs640 hs544 hs512 lr384 lr640 lr544
for v in s49 t4; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device --runs 5
    b lr-$v 40 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
