# Session 28, device run B: what the checks of quicksort_balanced's partition loop cost in the
# owned loop of run A (`no`): x[i]'s check left out (`no_nox`), buf's two (`no_nobuf`), every
# check (`no_unchecked`, FK_CHECKS 0); `np` is HEAD's generic loop. Stamped, 10^6 keys at
# P = 4096, three runs each, interleaved.
C=/nonexistent; . scripts/results-lib.sh
D=$PWD/.device-bin/s28a
V="np no no_nox no_nobuf no_unchecked"
for v in $V; do nvcc -arch=sm_90 -o /tmp/$v $D/$v.o; done
for i in 1 2 3; do for v in $V; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep "prof small" $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
