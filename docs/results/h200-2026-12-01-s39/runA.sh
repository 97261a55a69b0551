# Session 39, device run A: the persistent kernel's block size. FK_DEVICE_THREADS (640 since
# session 25, 96 registers a thread under __launch_bounds__(640, 1)) set by sed to 384, 512,
# 640 and 768 in the emitted device-schedule .cu of four study programs (binary built at
# the commit named in README.md): quicksort_balanced and quicksort 10^6 at P = 4096, sieve
# 10^7 and Hillis-Steele 2^20 at P = 1024; each built by nvcc -O2 (time_kernel.py), 7 rounds
# interleaved within one call, the persistent kernel's time.
C=$PWD/.device-bin/s39/forkcc; . scripts/results-lib.sh
S=.device-bin/s39
for p in qb qf sv hs; do for t in 384 512 640 768; do
    sed "s/^#define FK_DEVICE_THREADS 640$/#define FK_DEVICE_THREADS $t/" $S/$p.cu > /tmp/$p-$t.cu
    grep -c "^#define FK_DEVICE_THREADS $t$" /tmp/$p-$t.cu > /dev/null || echo "sed missed $p $t"
    kernel_build $p$t /tmp/$p-$t.cu -Xptxas -v &
done; done
wait; at "built"
for p in qb qf sv hs; do for t in 384 512 640 768; do
    echo "$p$t $(grep -A3 "entry function .fk_device_run" $OUT/nvcc-$p$t.txt | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ')"
done; done | tee $OUT/registers.txt
kernel_rounds 7 "-p 4096" qb384 qb512 qb640 qb768
kernel_rounds 5 "-p 4096" qf384 qf512 qf640 qf768
kernel_rounds 7 "-p 1024" sv384 sv512 sv640 sv768
kernel_rounds 7 "-p 1024" hs384 hs512 hs640 hs768
at "rounds"
for p in qb qf sv hs; do md5sum $OUT/$p*-1.out | awk '{print $1}' | sort | uniq -c; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
