# Session 39, device run B: run A's block sizes for the three programs with a grid region at
# larger P (whose teams then run several members a thread): Hillis-Steele 2^20 at P = 65,536
# and 2^20, list ranking 2^18 at P = 1024 and 65,536, sieve 10^7 at P = 16,384 and 65,536;
# FK_DEVICE_THREADS 384, 512 and 640, 5 rounds interleaved, the persistent kernel's time.
C=$PWD/.device-bin/s39/forkcc; . scripts/results-lib.sh
S=.device-bin/s39
for p in sv hs lr; do for t in 384 512 640; do
    sed "s/^#define FK_DEVICE_THREADS 640$/#define FK_DEVICE_THREADS $t/" $S/$p.cu > /tmp/$p-$t.cu
    grep -c "^#define FK_DEVICE_THREADS $t$" /tmp/$p-$t.cu > /dev/null || echo "sed missed $p $t"
    kernel_build $p$t /tmp/$p-$t.cu &
done; done
wait; at "built"
kernel_rounds 5 "-p 65536" hs384 hs512 hs640
mv $OUT/rounds.txt $OUT/rounds-hs-65536.txt
kernel_rounds 5 "-p 1048576" hs384 hs512 hs640
mv $OUT/rounds.txt $OUT/rounds-hs-1048576.txt
kernel_rounds 5 "-p 1024" lr384 lr512 lr640
mv $OUT/rounds.txt $OUT/rounds-lr-1024.txt
kernel_rounds 5 "-p 65536" lr384 lr512 lr640
mv $OUT/rounds.txt $OUT/rounds-lr-65536.txt
kernel_rounds 5 "-p 16384" sv384 sv512 sv640
mv $OUT/rounds.txt $OUT/rounds-sv-16384.txt
kernel_rounds 5 "-p 65536" sv384 sv512 sv640
mv $OUT/rounds.txt $OUT/rounds-sv-65536.txt
at "rounds"
for f in $OUT/rounds-*.txt; do echo "$f"; awk '{print $2, $NF}' $f | sort | uniq -c | head -3; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
