# Session 30, device run B: the GPU trace of quicksort_balanced 10^6 at P = 4096 with s30a
# (device schedule, checked), for its critical path by group size (session 24's
# critical_path.py); then quicksort_balanced and quicksort.fork with s30a and with s30b, the
# same code with blocks of 384 threads in the persistent kernel (FK_DEVICE_THREADS 384
# instead of 640: 168 registers a thread instead of 96), in one call.
C=$PWD/.device-bin/s30a/forkcc; . scripts/results-lib.sh
timeout 100 $C run --backend gpu --schedule device --stats --trace $OUT/qsb.json --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork > $OUT/qsb-stats.txt 2>&1
at "qsb trace rc=$?"; tail -12 $OUT/qsb-stats.txt
python3 docs/results/h200-2026-11-29-s24/critical_path.py $OUT/qsb.json > $OUT/qsb-critical-path.txt 2>&1
rm -f $OUT/qsb.json
b a-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s30b/forkcc
b b-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b b-qs 100 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
