# Session 26, device run A: the GPU trace of quicksort_balanced 10^6 at P = 4096 under the
# device schedule (checked), for its critical path by group size.
C=$PWD/.device-bin/s26a/forkcc; . scripts/results-lib.sh
timeout 100 $C run --backend gpu --schedule device --stats --trace $OUT/qsb.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/qsb-stats.txt 2>&1
at "qsb trace rc=$?"; tail -12 $OUT/qsb-stats.txt
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb.json > $OUT/qsb-critical-path.txt 2>&1
gzip $OUT/qsb.json
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
