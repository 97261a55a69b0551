# Session 32, device run G: the kernel warp's naps and doorbell once more, every combination
# in one call (runs C, D and F disagreed on the doorbell's gain). The standalone .cu of
# quicksort_balanced 10^6 from s32c (296da3b: no doorbell, naps up to 2048 ns) and s32h
# (5f35353: the doorbell, naps up to 8192 ns), each built with FK_KERNEL_WARP_NAP 2048 and
# 8192; quicksort.fork 10^6 from both as emitted. The persistent kernel's time
# (time_kernel.py) at P = 4096, 9 rounds interleaved.
C=$PWD/.device-bin/s32c/forkcc; . scripts/results-lib.sh
R=docs/results/h200-2026-11-30-s32
python3 $R/time_kernel.py .device-bin/s32f/qc.cu /tmp/qc-t.cu
python3 $R/time_kernel.py .device-bin/s32f/qh.cu /tmp/qh-t.cu
python3 $R/time_kernel.py .device-bin/s32x/qf.cu /tmp/fc-t.cu
python3 $R/time_kernel.py .device-bin/s32y/qf.cu /tmp/fh-t.cu
for v in c h; do for n in 2048 8192; do
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -DFK_KERNEL_WARP_NAP=$n -o /tmp/q$v$n /tmp/q$v-t.cu > $OUT/nvcc-q$v$n.txt 2>&1 &
done
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/f$v /tmp/f$v-t.cu > $OUT/nvcc-f$v.txt 2>&1 &
done
wait; at "built"
for i in 1 2 3 4 5 6 7 8 9; do for v in qc2048 qc8192 qh2048 qh8192 fc fh; do
    timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err
    echo "code $v round $i rc=$? $(grep prof $OUT/$v-$i.err) $(head -1 $OUT/$v-$i.out | head -c 50)"
done; done | tee $OUT/rounds.txt
for v in qc2048 qc8192 qh2048 qh8192 fc fh; do
    t=$(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n)
    echo "code $v median $(echo "$t" | sed -n 5p) ms, min $(echo "$t" | head -1), max $(echo "$t" | tail -1)"
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
