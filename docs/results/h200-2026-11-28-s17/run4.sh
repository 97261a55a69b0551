# Session 17, device run 4 (b): where quicksort's time goes, by P and with the checks off.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
B=$PWD/.device-bin/s17/forkcc-b
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
Q="classroom-examples/quicksort.fork -D N=1000000 --backend gpu --schedule device --stats"
run() { n=$1; shift; ( time timeout 100 $B run $Q "$@" ) > $OUT/$n.txt 2>&1; at $n; grep -A3 "^device time" $OUT/$n.txt; }
run p4096-unchecked -p 4096 --unchecked
run p16384 -p 16384
run p65536 -p 65536
run p1024 -p 1024
