# Session 28, device run A: quicksort_balanced's partition loop in 'owned' mode (hand_owned.py:
# thread t keeps member t's kernel thread for the loop; the same kernel bodies, checks,
# logging and multiprefix helpers) against the generic region code of HEAD (2094b0a), both
# stamped (stamp_helpers.py); `no384` is `no` with blocks of 384 threads. 10^6 keys at P = 4096.
C=/nonexistent; . scripts/results-lib.sh
D=$PWD/.device-bin/s28a
for v in np no no384; do nvcc -arch=sm_90 -o /tmp/$v $D/$v.o; done
for i in 1 2; do for v in np no no384; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -2 $OUT/$v-$i.out
done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
