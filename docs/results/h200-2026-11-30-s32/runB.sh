# Session 32, device run B: where a large group's region runs. The standalone .cu of
# quicksort_balanced 10^6 (device schedule, s32c = 296da3b) built with
# -DFK_REGION_TASK_MAX = 4096 (the default: a group of up to 4096 runs its region on one
# block's team), 2048, 1024 and 576 (groups above it run the region's instructions one by
# one in the interpreter, on every block's runner lanes); the persistent kernel's time
# (time_kernel.py) at P = 4096, 7 rounds interleaved.
C=$PWD/.device-bin/s32c/forkcc; . scripts/results-lib.sh
python3 docs/results/h200-2026-11-30-s32/time_kernel.py .device-bin/s32x/q.cu /tmp/qt.cu
for m in 4096 2048 1024 576; do
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -DFK_REGION_TASK_MAX=$m -o /tmp/q$m /tmp/qt.cu > $OUT/nvcc-$m.txt 2>&1 &
done
wait; at "built"
for i in 1 2 3 4 5 6 7; do for m in 4096 2048 1024 576; do
    timeout 60 /tmp/q$m -p 4096 > $OUT/q$m-$i.out 2> $OUT/q$m-$i.err
    echo "max $m round $i rc=$? $(grep prof $OUT/q$m-$i.err) $(head -c 60 $OUT/q$m-$i.out | head -1)"
done; done | tee $OUT/rounds.txt
for m in 4096 2048 1024 576; do
    echo "max $m median $(grep "max $m " $OUT/rounds.txt | awk '{print $8}' | sort -n | sed -n 4p) ms"
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
