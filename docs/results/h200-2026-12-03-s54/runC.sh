# Session 54, device run C: the checked-ahead copy of a kernel's loop unrolled by 8 (s54g),
# 16 (s54u16) or 32 (s54u32: forkcc built with emit_cuda::device's UNROLL so, not committed):
# matmul 2048 at P = N^2 on both schedules, quicksort and quicksort_balanced 10^6 at 4096 on
# the device schedule; and whether the persistent kernel's time (time_kernel.py) holds the
# process's first cooperative launch (hsg_warm: one of fk_start_clock before it).
C=$PWD/.device-bin/s54g/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp54
kernel_build hsg $E/hsg.cu & kernel_build hsg_warm $E/hsg_warm.cu & wait
at built
kernel_rounds 7 "-p 65536" hsg hsg_warm
rm -f "$OUT"/*.out
for v in s54g s54u16 s54u32; do
    C=$PWD/.device-bin/$v/forkcc
    b mm-$v 120 matmul --n 2048 --procs 4194304 --backends gpu,gpu-device --runs 3
done
for v in s54g s54u32; do
    C=$PWD/.device-bin/$v/forkcc
    b qs-$v 90 quicksort --program quicksort --program quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
