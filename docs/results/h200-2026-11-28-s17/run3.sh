# Session 17, device run 3 (b): a longer trace of quicksort 10^6 (P = 4096) on the device
# schedule, and pack's and odd-even sort's time on both schedules.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
B=$PWD/.device-bin/s17/forkcc-b
t0=$(date +%s); at() { echo "$1 at $(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
( time timeout 120 $B run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats --trace /tmp/qs.json --trace-limit 120000 ) > $OUT/qs-dev-stats.txt 2>&1
at "qs"; gzip -c /tmp/qs.json > $OUT/qs-dev-trace.json.gz; ls -la $OUT; cat $OUT/qs-dev-stats.txt | cut -c1-200
for s in host device; do ( time timeout 60 $B run classroom-examples/pack.fork -p 4096 -D N=1000000 --backend gpu --schedule $s --stats ) > $OUT/pack-$s.txt 2>&1; at "pack $s"; grep -A4 "^device time" $OUT/pack-$s.txt; done
