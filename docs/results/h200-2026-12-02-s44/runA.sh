# Session 44, device run A: the region task's path inlined into the persistent kernel
# (variants.py) against the code as emitted (s44a, 34f6e0e7), on the persistent kernel's time
# (kernel_rounds, 5 rounds interleaved): bench/overhead/barrier.fork (b) and split.fork (s;
# su: --unchecked) with N = 20000 at P = 1 and 32, and quicksort_balanced 10^6 (q) at
# P = 4096; name 2: inlined. The host schedule's split region kernel (checked sh, unchecked
# shu) under ncu, 3 runs each at P = 1 and 32.
C=$PWD/.device-bin/s44a/forkcc; . scripts/results-lib.sh
X=.device-bin/s44x
for v in bd bd2 sd sd2 su su2 qd qd2; do kernel_build $v $X/$v.cu & done
for v in sh shu; do nvcc -O2 -arch=sm_90 -o /tmp/$v $X/$v.cu > $OUT/nvcc-$v.txt 2>&1 & done
wait; at built
kernel_rounds 5 "-p 1" bd bd2 sd sd2 su su2 | tee $OUT/kernel-p1.txt; mv $OUT/rounds.txt $OUT/rounds-p1.txt
kernel_rounds 5 "-p 32" bd bd2 sd sd2 su su2 | tee $OUT/kernel-p32.txt; mv $OUT/rounds.txt $OUT/rounds-p32.txt
kernel_rounds 5 "-p 4096" qd qd2 | tee $OUT/kernel-q.txt; mv $OUT/rounds.txt $OUT/rounds-q.txt
at timed
for v in sh shu; do for p in 1 32; do for i in 1 2 3; do
    timeout 60 ncu --clock-control none --kernel-name regex:r0_ --metrics gpu__time_duration.sum /tmp/$v -p $p 2>&1 | grep -E "gpu__time_duration|splits" | tr -s ' ' | sed "s/^/$v P=$p: /"
done; done; done | tee $OUT/host-times.txt
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
