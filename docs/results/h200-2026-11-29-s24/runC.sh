# Session 24, device run C: what the checks cost quicksort's sequential leaf. The device
# schedule's standalone .cu of quicksort 10^6 (P = 4096), built locally with nvcc -O2 -c:
# as emitted (q3d), unchecked (q3u), with swap's accesses unchecked (qA), with the leaf
# loop's x[i] unchecked (qB), with fk_spin never testing the limits (qC). Three runs each.
C=$PWD/.device-bin/s24b/forkcc; . scripts/results-lib.sh
for v in q3d q3u qA qB qC; do
  o=.device-bin/s24b/$v.o; [ -f $o ] || o=.device-bin/s24c/$v.o
  nvcc -arch=sm_90 -o /tmp/$v $o > $OUT/$v-link.txt 2>&1
  for r in 1 2 3; do /usr/bin/time -f "$v %e s" /tmp/$v -p 4096 > $OUT/$v-out.txt 2>> $OUT/qs-variants.txt; done
  at "$v"; cat $OUT/$v-out.txt
done
cat $OUT/qs-variants.txt
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
