export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s21a/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/machine.txt
$C run classroom-examples/sieve.fork -p 16384 -D N=10000000 --backend gpu --stats > $OUT/sieve-stats.txt 2>&1; at "sieve stats rc=$?"
timeout 120 ncu --kernel-name regex:r1_sieve --launch-count 1 --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section SourceCounters --import-source no -o /tmp/sieve -f $C run classroom-examples/sieve.fork -p 16384 -D N=10000000 --backend gpu > $OUT/sieve-ncu.log 2>&1; at "ncu sieve rc=$?"
ncu -i /tmp/sieve.ncu-rep --page details > $OUT/sieve-details.txt 2>&1
ncu -i /tmp/sieve.ncu-rep --page source --csv --print-source sass > $OUT/sieve-sass.csv 2>&1
at "export"
timeout 120 ncu --kernel-name regex:r0_hillis --launch-count 1 --section WarpStateStats --section SchedulerStats --section LaunchStats --section SourceCounters -o /tmp/hs -f $C run classroom-examples/prefix_hillis_steele.fork -p 65536 -D N=1048576 --backend gpu > $OUT/hs-ncu.log 2>&1; at "ncu hs rc=$?"
ncu -i /tmp/hs.ncu-rep --page details > $OUT/hs-details.txt 2>&1
ncu -i /tmp/hs.ncu-rep --page source --csv --print-source sass > $OUT/hs-sass.csv 2>&1
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
