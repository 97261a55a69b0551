# Session 17, device run 5 (c = b + the checks' object cache for access sites outside loops,
# FK_ITERS_STATEMENT_SHIFT): quicksort's time, every classroom example's first case on all
# five backends with the sanitizer, and the overhead suite for groups of 1, 32 and 1024.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s17/forkcc-c
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
( time timeout 60 $C run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats ) > $OUT/qs-dev-stats.txt 2>&1
at "qs stats"; grep -A4 "^device time" $OUT/qs-dev-stats.txt
timeout 60 $C bench quicksort --n 1000000 --procs 4096 --runs 3 --backends gpu-device,seq --out /tmp/qs-bench > $OUT/qs-bench.txt 2>&1; at "qs bench"; grep -A4 '^program' $OUT/qs-bench.txt | cut -c1-200
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=40 timeout 250 bash scripts/gpu-verify.sh $C /tmp/verify > /tmp/verify.log 2>&1
at "verify"; cp /tmp/verify/summary.txt $OUT/verify-summary.txt 2>/dev/null || cp /tmp/verify/progress.txt $OUT/verify-progress.txt
grep -E "^cases|differ|rc=[^0]" $OUT/verify-summary.txt 2>/dev/null | head -20
RUNS=3 bash scripts/gpu-bench.sh $C /tmp/b5 overhead-few > /tmp/b5.log 2>&1; at "overhead-few"; cp /tmp/b5/overhead-few.txt $OUT/ 2>/dev/null; grep -A14 '^program' $OUT/overhead-few.txt | cut -c1-200
