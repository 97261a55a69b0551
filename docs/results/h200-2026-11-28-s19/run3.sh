# Session 19, device run 3 (the final code): the overhead suite at P = 1, 32, 1024 after the
# --crcw common log keeps its count in the thread (run 2 found the check at half a block
# region's step), then the study programs' rows that this session's changes touch.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s19/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
b() { # name timeout args...
    local name=$1 limit=$2; shift 2
    timeout $limit $C bench "$@" --out $OUT/$name > $OUT/$name.txt 2>&1
    at "$name rc=$?"; rm -f $OUT/$name/*.svg
    grep -A40 "^program" $OUT/$name.txt | grep -v "^  " | head -40
}
b overhead 150 overhead --procs 1 --procs 32 --procs 1024 --backends gpu,gpu-device --runs 5
b sieve 90 sieve --n 10000000 --procs 1024 --procs 16384 --backends gpu,gpu-device,seq --runs 5
b matmul 90 matmul --n 2048 --procs 4194304 --backends gpu,gpu-unchecked,cuda-hand --runs 5
b prefix 60 prefix --n 1048576 --procs 1024 --procs 65536 --backends gpu,gpu-unchecked,gpu-device,cuda-hand --runs 5
b quicksort 90 quicksort --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b list_ranking 60 list_ranking --n 65536 --procs 1024 --backends gpu,gpu-device,seq --runs 5
# Quicksort's checks split: the --crcw common check against the memory checks (--stats).
for v in "" "--crcw arbitrary" "--unchecked"; do
    printf 'quicksort 10^6 P=4096 device %s: ' "$v"
    timeout 40 $C run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device $v --stats 2>&1 | grep -E "^  (quicksort|main) |total" | tr -s ' ' | tr '\n' ' '
    echo
done > $OUT/quicksort-checks.txt 2>&1
at "quicksort checks"; cat $OUT/quicksort-checks.txt
