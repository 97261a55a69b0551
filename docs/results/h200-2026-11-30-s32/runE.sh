# Session 32, device run E: the runner lane sees its handed kernel's end at a second doorbell
# in shared memory (fk_ran_lanes) instead of the processor's `handed` word (e), and the
# runner warps' idle passes sleep longer while nothing moves: from 64 ns doubling up to
# FK_RUNNER_NAP = 512 (f512) or 2048 ns (f2048), against run D's code (d, s32y: 64 ns). The
# standalone .cu of quicksort_balanced (q) and quicksort.fork (qf), 10^6 keys, device
# schedule; the persistent kernel's time (time_kernel.py) at P = 4096, 5 rounds interleaved.
C=$PWD/.device-bin/s32c/forkcc; . scripts/results-lib.sh
R=docs/results/h200-2026-11-30-s32
for p in q qf; do
    python3 $R/time_kernel.py .device-bin/s32y/$p.cu /tmp/$p-d.cu
    python3 $R/time_kernel.py .device-bin/s32z/$p.cu /tmp/$p-z.cu
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/${p}d /tmp/$p-d.cu > $OUT/nvcc-${p}d.txt 2>&1 &
    for n in 64 512 2048; do
        nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -DFK_RUNNER_NAP=$n -o /tmp/${p}f$n /tmp/$p-z.cu > $OUT/nvcc-${p}f$n.txt 2>&1 &
    done
done
wait; at "built"
for i in 1 2 3 4 5; do for p in q qf; do for v in d f64 f512 f2048; do
    timeout 60 /tmp/$p$v -p 4096 > $OUT/$p$v-$i.out 2> $OUT/$p$v-$i.err
    echo "prog $p code $v round $i rc=$? $(grep prof $OUT/$p$v-$i.err) $(head -1 $OUT/$p$v-$i.out | head -c 50)"
done; done; done | tee $OUT/rounds.txt
for p in q qf; do for v in d f64 f512 f2048; do
    echo "prog $p code $v median $(grep "prog $p code $v " $OUT/rounds.txt | awk '{print $10}' | sort -n | sed -n 3p) ms"
done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
