# Session 24, device run D: quicksort 10^6 (P = 4096) traced under the host schedule, checked
# and unchecked: its leaves run one at a time there, with nothing else on the GPU, to
# compare with the device schedule's leaf (run B).
C=$PWD/.device-bin/s24b/forkcc; . scripts/results-lib.sh
for u in "" --unchecked; do
  timeout 90 $C run --backend gpu --schedule host --stats $u --trace $OUT/qs-host$u.json -p 4096 -D N=1000000 classroom-examples/quicksort.fork > $OUT/qs-host$u-stats.txt 2>&1
  at "qs host trace $u rc=$?"; tail -5 $OUT/qs-host$u-stats.txt
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
