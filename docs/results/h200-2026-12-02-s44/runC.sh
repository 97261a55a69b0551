# Session 44, device run C: the step of a kernel's log tag read once where the thread or its
# region begins (FkThread::step; s44b) against reading the group's step at each logging
# kernel (s44a, 34f6e0e7). The persistent kernel's time (kernel_rounds, 5 rounds
# interleaved) of bench/overhead/split.fork (s) and barrier.fork (b) with N = 20000 at P = 1
# and 32, and quicksort_balanced 10^6 (q) at P = 4096: name 3 emitted by s44b, the others by
# s44a. The overhead suite's bench rows with each binary in one call; the grid barrier's rows
# (s44b).
C=$PWD/.device-bin/s44b/forkcc; . scripts/results-lib.sh
X=.device-bin/s44x
for v in sd sd3 bd bd3 qd qd3; do kernel_build $v $X/$v.cu & done
wait; at built
kernel_rounds 5 "-p 1" sd sd3 bd bd3 | tee $OUT/kernel-p1.txt; mv $OUT/rounds.txt $OUT/rounds-p1.txt
kernel_rounds 5 "-p 32" sd sd3 bd bd3 | tee $OUT/kernel-p32.txt; mv $OUT/rounds.txt $OUT/rounds-p32.txt
kernel_rounds 5 "-p 4096" qd qd3 | tee $OUT/kernel-q.txt; mv $OUT/rounds.txt $OUT/rounds-q.txt
at timed
for c in s44a s44b; do
    C=$PWD/.device-bin/$c/forkcc
    b ov-$c 100 overhead --program barrier --program split --program loop --procs 1 --procs 32 --backends gpu,gpu-device --runs 5
    grep -A14 "cost per step" $OUT/ov-$c.txt
done
b gb 120 overhead --program grid_barrier --procs 1024 --procs 65536 --procs 1048576 --backends gpu,gpu-device --runs 5
grep -A14 "cost per step" $OUT/gb.txt
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
