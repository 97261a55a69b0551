# Session 18, device run 2: ranged loops through pointers (Hillis-Steele's steps,
# seq_quicksort's scan): quicksort and the prefix sums again, and the overhead suite for
# groups of 1, 32 and 1024 processors (one run each, both schedules).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s18/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s"; }
row() { # name cap args...
    local n=$1 t=$2; shift 2
    timeout "$t" $C bench "$@" --out /tmp/b/$n > $OUT/$n.txt 2>&1; at "$n rc=$?"
    grep -A12 '^program' $OUT/$n.txt | cut -c1-260
}
row qs 150 quicksort --n 1000000 --procs 4096 --runs 3 --backends gpu-device,gpu-device-unchecked,seq
row prefix1024 100 prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-unchecked,gpu-device,cuda-hand
row prefix65536 100 prefix --n 1048576 --procs 65536 --runs 5 --backends gpu,gpu-unchecked,gpu-device,cuda-hand
row overhead-few 200 overhead --procs 1 --procs 32 --procs 1024 --runs 1 --backends gpu,gpu-device
