# Session 24, device run B: the GPU trace of quicksort 10^6 at P = 4096 under the device
# schedule, checked and unchecked, to find its critical path (the group instances' device
# timestamps).
C=$PWD/.device-bin/s24b/forkcc; . scripts/results-lib.sh
for u in "" --unchecked; do
  timeout 60 $C run --backend gpu --schedule device --stats $u --trace $OUT/qs-dev$u.json -p 4096 -D N=1000000 classroom-examples/quicksort.fork > $OUT/qs-dev$u-stats.txt 2>&1
  at "qs trace $u rc=$?"; tail -8 $OUT/qs-dev$u-stats.txt
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
