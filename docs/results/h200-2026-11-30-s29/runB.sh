# Session 29, device run B: settled loops everywhere in block regions (s29b: the loop that
# frees no heap block marks the region settled from its entry to its exit, owned or not).
# Stamps of quicksort_balanced's partition loop: `old` (874ced9), `a` (run A's s29a: owned
# loops settled, the object before the last in shared memory), `b` (s29b), and s29b's code
# by hand without the fault flag's read in fk_log_begin (`nf`) and without the checks
# (`un`, FK_CHECKS 0). quicksort_balanced 10^6 at P = 4096 and sieve 10^7 at P = 1024 with
# s28f (874ced9) and s29b in one call.
C=/nonexistent; . scripts/results-lib.sh
A=$PWD/.device-bin/s29a; B=$PWD/.device-bin/s29b
nvcc -arch=sm_90 -o /tmp/old $A/old.o; nvcc -arch=sm_90 -o /tmp/a $A/new.o
for v in new nf un; do nvcc -arch=sm_90 -o /tmp/$v $B/$v.o; done; mv /tmp/new /tmp/b
for i in 1 2; do for v in old a b nf un; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
C=$PWD/.device-bin/s28f/forkcc
b old-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
b old-sieve 100 sieve --n 10000000 --procs 1024 --backends gpu-device --runs 5
C=$B/forkcc
b new-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
b new-sieve 100 sieve --n 10000000 --procs 1024 --backends gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
