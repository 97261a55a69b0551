# Session 29, device run D: the final runtime (s29d: bb9bd46 + the object before the last
# tried inline at the access site, and an owned loop's --crcw common log without the fault
# flag's read, stopping at a conflict). Stamps of quicksort_balanced's partition loop: `old`
# (874ced9), `a` (bb9bd46), `d` (s29d). quicksort_balanced and quicksort 10^6 at P = 4096
# and sieve 10^7 at P = 1024, with s28f (874ced9) and s29d in one call.
C=/nonexistent; . scripts/results-lib.sh
A=$PWD/.device-bin/s29a; D=$PWD/.device-bin/s29d
nvcc -arch=sm_90 -o /tmp/old $A/old.o; nvcc -arch=sm_90 -o /tmp/a $A/new.o; nvcc -arch=sm_90 -o /tmp/d $D/new.o
for i in 1 2; do for v in old a d; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
C=$PWD/.device-bin/s28f/forkcc
b old-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
b old-qs 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
b old-sieve 60 sieve --n 10000000 --procs 1024 --backends gpu-device --runs 5
C=$D/forkcc
b new-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b new-qs 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
b new-sieve 60 sieve --n 10000000 --procs 1024 --backends gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
