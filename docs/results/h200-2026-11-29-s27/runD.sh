# Session 27, device run D: reads through a pointer load the value beside the heap block's
# freed word (fk_get_seen; s27d) against run C's kept version (s27c) in one call: the stamped
# .cu of both, and quicksort_balanced 10^6 at P = 4096.
C=$PWD/.device-bin/s27c/forkcc; . scripts/results-lib.sh
for v in s27c s27d; do nvcc -arch=sm_90 -o /tmp/$v $PWD/.device-bin/$v/np.o; done
for i in 1 2; do for v in s27c s27d; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
b c-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s27d/forkcc
b d-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
