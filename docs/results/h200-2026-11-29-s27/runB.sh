# Session 27, device run B: a region thread keeps its member's kernel thread and a multiprefix
# right after a launch takes the threads' copies (s27b) against run A's registers (s27a) and
# session 26's final tree (s26d stamps, s26f bench): the stamped .cu of each, and
# quicksort_balanced 10^6 at P = 4096 in one call.
C=$PWD/.device-bin/s26f/forkcc; . scripts/results-lib.sh
for v in s26d s27a s27b; do nvcc -arch=sm_90 -o /tmp/$v $PWD/.device-bin/$v/np.o; done
for i in 1 2; do for v in s26d s27a s27b; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
b old-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s27b/forkcc
b new-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
