# Session 32, device run C: how long an idle lane of the kernel warp sleeps. The standalone
# .cu of quicksort_balanced (qsb) and quicksort.fork (qf), 10^6 keys, device schedule, s32c
# (296da3b), built with -DFK_KERNEL_WARP_NAP = 2048 (the default), 8192 and 32768 ns; the
# persistent kernel's time (time_kernel.py) at P = 4096, 5 rounds interleaved. Then the
# interpreter's time per instruction for the processors of groups of at most 8
# (stamp_interpreter.py on s32c's quicksort_balanced), twice.
C=$PWD/.device-bin/s32c/forkcc; . scripts/results-lib.sh
R=docs/results/h200-2026-11-30-s32
for p in q qf; do python3 $R/time_kernel.py .device-bin/s32x/$p.cu /tmp/$p-t.cu; done
for p in q qf; do for n in 2048 8192 32768; do
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -DFK_KERNEL_WARP_NAP=$n -o /tmp/$p$n /tmp/$p-t.cu > $OUT/nvcc-$p$n.txt 2>&1 &
done; done
nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/stamp .device-bin/s32x/stamp.cu > $OUT/nvcc-stamp.txt 2>&1 &
wait; at "built"
for i in 1 2 3 4 5; do for p in q qf; do for n in 2048 8192 32768; do
    timeout 60 /tmp/$p$n -p 4096 > $OUT/$p$n-$i.out 2> $OUT/$p$n-$i.err
    echo "prog $p nap $n round $i rc=$? $(grep prof $OUT/$p$n-$i.err) $(head -1 $OUT/$p$n-$i.out | head -c 50)"
done; done; done | tee $OUT/rounds.txt
for p in q qf; do for n in 2048 8192 32768; do
    echo "prog $p nap $n median $(grep "prog $p nap $n " $OUT/rounds.txt | awk '{print $10}' | sort -n | sed -n 3p) ms"
done; done
for i in 1 2; do timeout 60 /tmp/stamp -p 4096 > $OUT/stamp-$i.out 2> $OUT/stamp-$i.err; at "stamp $i rc=$?"; tail -1 $OUT/stamp-$i.out; done
grep "^pc" $OUT/stamp-1.err | sort -t' ' -k2,2n | head -70
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
