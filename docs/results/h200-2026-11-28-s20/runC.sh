# Session 20, device run C: run B's rows again after the fix of the grid regions' blocks
# without members (fk_g_width): sieve, prefix sums and quicksort on both schedules, checked
# and unchecked, with the sequential and hand-written baselines; then every case of the grid
# region semantics programs with the cud builds' grid regions past 4 members.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s20c/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/machine.txt
report() { # dir name
    cp $1/progress.txt $OUT/$2-progress.txt; cp $1/summary.txt $OUT/$2-summary.txt 2>/dev/null
    awk '{print $1}' $OUT/$2-progress.txt | sort | uniq -c
    grep -v "^pass\|^na" $OUT/$2-progress.txt | head -20
    mkdir -p $OUT/$2-logs
    for f in $(grep -v "^pass\|^na" $OUT/$2-progress.txt | awk '{print $2}' | head -4); do
        cp $1/logs/$f.*.err $OUT/$2-logs/ 2>/dev/null; done
}
b() { # name timeout args...
    local name=$1 limit=$2; shift 2
    timeout $limit $C bench "$@" --out $OUT/$name > $OUT/$name.txt 2>&1
    at "$name rc=$?"; rm -f $OUT/$name/*.svg
    grep -A40 "^program" $OUT/$name.txt | grep -v "^  " | head -40
}
b sieve 90 sieve --n 10000000 --procs 16384 --procs 65536 --backends gpu,gpu-device,gpu-device-unchecked,seq --runs 5
tail -3 $OUT/sieve.txt
b prefix 130 prefix --n 1048576 --procs 1024 --procs 65536 --backends gpu,gpu-unchecked,gpu-device,gpu-device-unchecked,cuda-hand --runs 5
b quicksort 80 quicksort --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked --runs 5
FILES="$(ls tests/semantics/grid_region*.fork | tr '\n' ' ')" CUD_FLAGS=-DFK_REGION_TASK_MAX=4 SANITIZE=0 \
    timeout 60 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify
tar czf /tmp/runC.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/runC.tgz $OUT/
