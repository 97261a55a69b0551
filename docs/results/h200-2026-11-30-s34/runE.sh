# Session 34, device run E: narrow region tasks (s34d: s34c with a block region task of a
# group that fits in fewer warps than the team run on its first warps alone, as s34c's owned
# loops). The standalone .cu of quicksort_balanced and quicksort.fork 10^6 at P = 4096, the
# persistent kernel's time, 9 rounds interleaved: qc/fc s34c, qd/fd s34d, ud s34d unchecked.
# Then the bench row of quicksort_balanced (checked, unchecked, the sequential leaf), its
# critical path, and the overhead suite's barrier, split and loop at P = 32 and 1024 on both
# schedules (s34c's and s34d's).
C=$PWD/.device-bin/s34d/forkcc; . scripts/results-lib.sh
kernel_build qc .device-bin/s34c/quicksort_balanced.cu &
kernel_build qd .device-bin/s34d/quicksort_balanced.cu &
kernel_build ud .device-bin/s34d/quicksort_balanced.cu -DFK_CHECKS=0 &
kernel_build fc .device-bin/s34c/quicksort.cu &
kernel_build fd .device-bin/s34d/quicksort.cu &
wait; at "built"
# A probe first: a hang of the new code would spend the call in the rounds' timeouts.
if timeout 30 /tmp/qd -p 4096 > $OUT/qd-probe.out 2>&1; then
    kernel_rounds 9 "-p 4096" qc qd ud fc fd
else
    echo "qd probe failed"; tail -5 $OUT/qd-probe.out
fi
at "rounds"
b e-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
qsb_path e
for v in s34c s34d; do
    C=$PWD/.device-bin/$v/forkcc
    b $v-overhead 60 overhead --program barrier --program split --program loop --procs 32 --procs 1024 --backends gpu,gpu-device --runs 5
    grep -B2 -A12 "cost per step" $OUT/$v-overhead.txt | head -30
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
