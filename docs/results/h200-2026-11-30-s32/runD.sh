# Session 32, device run D: the kernel warp's idle lanes look at a doorbell in shared memory
# (fk_handed_lanes) instead of each processor's `handed` word in global memory. The
# standalone .cu of quicksort_balanced (q) and quicksort.fork (qf), 10^6 keys, device
# schedule: s32c's (296da3b) built with -DFK_KERNEL_WARP_NAP=8192 (c) against the doorbell's
# (d, naps up to 8192 ns too); the persistent kernel's time (time_kernel.py) at P = 4096, 5
# rounds interleaved.
C=$PWD/.device-bin/s32c/forkcc; . scripts/results-lib.sh
R=docs/results/h200-2026-11-30-s32
for p in q qf; do
    python3 $R/time_kernel.py .device-bin/s32x/$p.cu /tmp/$p-c.cu
    python3 $R/time_kernel.py .device-bin/s32y/$p.cu /tmp/$p-d.cu
    for v in c d; do
        nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -DFK_KERNEL_WARP_NAP=8192 -o /tmp/$p$v /tmp/$p-$v.cu > $OUT/nvcc-$p$v.txt 2>&1 &
    done
done
wait; at "built"
for i in 1 2 3 4 5; do for p in q qf; do for v in c d; do
    timeout 60 /tmp/$p$v -p 4096 > $OUT/$p$v-$i.out 2> $OUT/$p$v-$i.err
    echo "prog $p code $v round $i rc=$? $(grep prof $OUT/$p$v-$i.err) $(head -1 $OUT/$p$v-$i.out | head -c 50)"
done; done; done | tee $OUT/rounds.txt
for p in q qf; do for v in c d; do
    echo "prog $p code $v median $(grep "prog $p code $v " $OUT/rounds.txt | awk '{print $10}' | sort -n | sed -n 3p) ms"
done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
