# Session 18, device run 1: what the checks' changes (the thread's last object, checks made
# before ranged loops) buy, with the simulator on the same machine for the study's ratio.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s18/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
lscpu | grep "Model name" >> $OUT/gpu.txt
row() { # name cap args...
    local n=$1 t=$2; shift 2
    timeout "$t" $C bench "$@" --out /tmp/b/$n > $OUT/$n.txt 2>&1; at "$n rc=$?"
    grep -A12 '^program' $OUT/$n.txt | cut -c1-260
}
row qs 200 quicksort --n 1000000 --procs 4096 --runs 3 --backends gpu-device,gpu-device-unchecked,seq,sim
row matmul 150 matmul --n 2048 --procs 4194304 --runs 5 --backends gpu,gpu-unchecked,gpu-device,cuda-hand
row prefix1024 120 prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-unchecked,gpu-device,cuda-hand,seq,sim
row sieve1024 60 sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device,seq,sim
row lr 60 list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device,seq,sim
