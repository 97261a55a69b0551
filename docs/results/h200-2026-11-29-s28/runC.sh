# Session 28, device run C: the thread's object before its last one (fk_seen_before) for the
# checks. Stamps of HEAD's generic loop (`np`, s28a), the working tree's (`ap`) and the
# working tree's with run A's owned loop (`ao`); quicksort_balanced 10^6 at P = 4096 with
# s27f (f781ce4, session 27's measured tree) and the working tree (s28b), with the sequential leaf.
C=/nonexistent; . scripts/results-lib.sh
nvcc -arch=sm_90 -o /tmp/np $PWD/.device-bin/s28a/np.o
for v in ap ao; do nvcc -arch=sm_90 -o /tmp/$v $PWD/.device-bin/s28b/$v.o; done
for i in 1 2; do for v in np ap ao; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
C=$PWD/.device-bin/s27f/forkcc
b old-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s28b/forkcc
b new-qsb 120 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
