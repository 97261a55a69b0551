# Session 22, device run E: the grid regions' warm-up launch and loads ahead (uncommitted tree
# on 913811d). Hillis-Steele 2^20 rows at 65,536 and 1024 (host and device schedule, and the
# hand-written kernels); one --stats run; every case of the grid_region_* semantics programs
# and every classroom example's first case on the five backends.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s22d/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
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
b prefix 120 prefix --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device,cuda-hand --runs 5
$C run classroom-examples/prefix_hillis_steele.fork -D N=1048576 -p 65536 --backend gpu --stats > $OUT/hs-stats.txt 2>&1; tail -3 $OUT/hs-stats.txt
FILES="$(ls tests/semantics/grid_region_*.fork | tr '\n' ' ')" SANITIZE=0 timeout 150 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "grid verify rc=$?"; report /tmp/v1 grid
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=0 timeout 200 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "classroom verify rc=$?"; report /tmp/v0 classroom
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
