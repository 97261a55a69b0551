# Session 34, device run C: narrow owned loops (s34c: s34b with an owned loop of a group
# that fits in fewer warps than the team run on its first warps alone). The standalone .cu
# of quicksort_balanced and quicksort.fork 10^6 at P = 4096, the persistent kernel's time,
# 9 rounds interleaved: qb/fb s34b, qc/fc s34c, uc s34c unchecked. Then the bench row of
# quicksort_balanced (checked, unchecked, the sequential leaf), its critical path, and the
# bench rows of sieve 10^7 and Hillis-Steele 2^20 at P = 1024 (both schedules).
C=$PWD/.device-bin/s34c/forkcc; . scripts/results-lib.sh
kernel_build qb .device-bin/s34b/quicksort_balanced.cu &
kernel_build qc .device-bin/s34c/quicksort_balanced.cu &
kernel_build uc .device-bin/s34c/quicksort_balanced.cu -DFK_CHECKS=0 &
kernel_build fb .device-bin/s34b/quicksort.cu &
kernel_build fc .device-bin/s34c/quicksort.cu &
wait; at "built"
# A probe first: a hang of the new code would spend the call in the rounds' timeouts.
if timeout 30 /tmp/qc -p 4096 > $OUT/qc-probe.out 2>&1; then
    kernel_rounds 9 "-p 4096" qb qc uc fb fc
else
    echo "qc probe failed"; tail -5 $OUT/qc-probe.out
fi
at "rounds"
b c-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
qsb_path c
b c-sieve 60 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
b c-hs 60 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --backends gpu,gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
