# Session 32, device run F: the standalone .cu of quicksort_balanced 10^6 (device schedule)
# from s32a (7e0163d, session 31's final code), s32b (af9ea62, the settled generic loop),
# s32c (296da3b, and idle blocks first) and s32h (5f35353: and the kernel warp's naps up to
# 8 µs and its doorbell); the persistent kernel's time (time_kernel.py) at P = 4096, 9 rounds
# interleaved, checked (the default) and with -DFK_CHECKS=0.
C=$PWD/.device-bin/s32c/forkcc; . scripts/results-lib.sh
R=docs/results/h200-2026-11-30-s32
for v in a b c h; do
    python3 $R/time_kernel.py .device-bin/s32f/q$v.cu /tmp/q$v-t.cu
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/q$v /tmp/q$v-t.cu > $OUT/nvcc-$v.txt 2>&1 &
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -DFK_CHECKS=0 -o /tmp/q${v}u /tmp/q$v-t.cu > $OUT/nvcc-${v}u.txt 2>&1 &
done
wait; at "built"
for i in 1 2 3 4 5 6 7 8 9; do for v in a b c h au bu cu hu; do
    timeout 60 /tmp/q$v -p 4096 > $OUT/q$v-$i.out 2> $OUT/q$v-$i.err
    echo "code $v round $i rc=$? $(grep prof $OUT/q$v-$i.err) $(head -1 $OUT/q$v-$i.out | head -c 50)"
done; done | tee $OUT/rounds.txt
for v in a b c h au bu cu hu; do
    echo "code $v median $(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n | sed -n 5p) ms, min $(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n | head -1), max $(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n | tail -1)"
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
