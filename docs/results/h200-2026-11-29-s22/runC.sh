# Session 22, device run C: 913811d with a temporary host trace (not committed: an eprintln
# with the host's clock at each launch, read-back and function stamp, FK_HOST_TRACE=1), on
# Hillis-Steele 2^20 at P = 65,536, host schedule, with and without --stats.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s22b/forkcc-trace
HS="classroom-examples/prefix_hillis_steele.fork -D N=1048576"
$C run $HS -p 65536 --backend gpu --stats > /dev/null 2>&1
for r in 1 2 3; do FK_HOST_TRACE=1 $C run $HS -p 65536 --backend gpu --stats > $OUT/stats-$r.txt 2>&1; done
for r in 1 2; do FK_HOST_TRACE=1 $C run $HS -p 65536 --backend gpu > $OUT/plain-$r.txt 2>&1; done
grep -A12 "HT launch k1_main" $OUT/stats-3.txt; tail -3 $OUT/stats-3.txt
