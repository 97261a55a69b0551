# Session 20, device run B: grid regions on every block's team under the device schedule
# (a group of every processor past FK_REGION_TASK_MAX), the --crcw common check in a second
# barrier for groups past 32 members. The first case of every classroom example, every case
# of the grid-region and new semantics programs on sim, gpu, dev, cu and cud, the cud builds
# with -DFK_REGION_TASK_MAX=4 (so their groups of more than 4 run grid regions on every
# block), with compute-sanitizer on the classroom binaries; then the study rows and the
# overhead suite at 65,536.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s20b/forkcc
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
FILES="$(ls classroom-examples/*.fork tests/semantics/grid_region*.fork tests/semantics/fault_crcw_common_beside_order_free_loop.fork | tr '\n' ' ')" \
    CUD_FLAGS=-DFK_REGION_TASK_MAX=4 SANITIZE_TIMEOUT=30 FIRST_ONLY=1 \
    timeout 230 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify
grep -i -A14 "sanitizer" /tmp/v0/summary.txt | head -30
b sieve 70 sieve --n 10000000 --procs 16384 --procs 65536 --backends gpu,gpu-device,gpu-device-unchecked,seq --runs 5
b prefix 80 prefix --n 1048576 --procs 65536 --backends gpu,gpu-unchecked,gpu-device,gpu-device-unchecked,cuda-hand --runs 5
b quicksort 70 quicksort --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked --runs 5
b overhead 100 overhead --procs 65536 --backends gpu,gpu-device,gpu-device-unchecked --runs 5
tar czf /tmp/runB.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/runB.tgz $OUT/
