# Session 39, device run D: blocks of 256, 320, 384 and 448 threads for the three programs
# with a grid region (their .cu emitted at the commit of run C, FK_DEVICE_THREADS set with
# -D): sieve 10^7 at P = 1024 and 16,384, Hillis-Steele 2^20 at 1024 and 65,536, list
# ranking 2^18 at 65,536; 5 rounds interleaved, the persistent kernel's time.
C=$PWD/.device-bin/s39/forkcc; . scripts/results-lib.sh
S=.device-bin/s39
for p in sv hs lr; do for t in 256 320 384 448; do
    kernel_build $p$t $S/$p.cu -DFK_DEVICE_THREADS=$t -Xptxas -v &
done; done
wait; at "built"
for p in sv hs lr; do for t in 256 320 384 448; do
    echo "$p$t $(grep -A3 "entry function .fk_device_run" $OUT/nvcc-$p$t.txt | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ')"
done; done | tee $OUT/registers.txt
r() { kernel_rounds 5 "-p $2" $1256 $1320 $1384 $1448; mv $OUT/rounds.txt $OUT/rounds-$1-$2.txt; }
r sv 1024; r sv 16384; r hs 1024; r hs 65536; r lr 65536
at "rounds"
for f in $OUT/rounds-*.txt; do echo "$f"; awk '{print $2, $5, $NF}' $f | sort | uniq -c; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
