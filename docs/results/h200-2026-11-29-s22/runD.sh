# Session 22, device run D: the grid regions' warm-up launch (uncommitted tree on 913811d:
# fk_g_warm_up, Machine::warm_up_grid_regions, FK_GRID_WARM_UP). Every case of the grid_region_*
# semantics programs and every classroom example's first case on the five backends; the
# Hillis-Steele rows at 65,536 and 1024, sieve, list ranking.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s22c/forkcc
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
b prefix 90 prefix --n 1048576 --procs 65536,1024 --backends gpu,cuda-hand --runs 5
b sieve 60 sieve --n 10000000 --procs 16384 --backends gpu,seq --runs 5
b lr 60 list_ranking --procs 65536 --backends gpu --runs 5
FILES="$(ls tests/semantics/grid_region_*.fork | tr '\n' ' ')" SANITIZE=0 timeout 150 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "grid verify rc=$?"; report /tmp/v1 grid
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=0 timeout 200 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "classroom verify rc=$?"; report /tmp/v0 classroom
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
