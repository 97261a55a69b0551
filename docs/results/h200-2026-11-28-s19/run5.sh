# Session 19, device run 5 (the final code): the study programs' rows and the overhead suite,
# the checked rows now with the --crcw common check (forkcc run's default), the unchecked
# rows for the checks' cost; quicksort's sequential baselines in the same invocation.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s19/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/machine.txt
b() { # name timeout args...
    local name=$1 limit=$2; shift 2
    timeout $limit $C bench "$@" --out $OUT/$name > $OUT/$name.txt 2>&1
    at "$name rc=$?"; rm -f $OUT/$name/*.svg
    grep -A40 "^program" $OUT/$name.txt | grep -v "^  " | head -40
}
b matmul 90 matmul --n 2048 --procs 4194304 --backends gpu,gpu-unchecked,gpu-device,cuda-hand --runs 5
b prefix 90 prefix --n 1048576 --procs 1024 --procs 65536 --backends gpu,gpu-unchecked,gpu-device,gpu-device-unchecked,cuda-hand --runs 5
b quicksort 100 quicksort --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b sieve 60 sieve --n 10000000 --procs 16384 --backends gpu,gpu-unchecked,gpu-device,seq --runs 5
b overhead 150 overhead --procs 1 --procs 32 --procs 1024 --backends gpu,gpu-device,gpu-unchecked,gpu-device-unchecked --runs 5
