# Session 19, device run 4 (the final code): every case of the two programs this session's
# changes are tested by, and the first case of each tests/cpu_plan and tests/random program
# and of the tests/semantics programs run 1 did not reach, on sim, gpu, dev, cu and cud; then
# the classroom examples' first cases again with compute-sanitizer (memcheck, racecheck,
# synccheck) on their nvcc builds.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s19/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
report() { # dir name
    cp $1/progress.txt $OUT/$2-progress.txt; cp $1/summary.txt $OUT/$2-summary.txt
    awk '{print $1}' $OUT/$2-progress.txt | sort | uniq -c
    grep -v "^pass\|^na" $OUT/$2-progress.txt | head -20
    mkdir -p $OUT/$2-logs
    for f in $(grep -v "^pass\|^na" $OUT/$2-progress.txt | awk '{print $2}' | head -4); do
        cp $1/logs/$f.*.err $OUT/$2-logs/ 2>/dev/null; done
}
FILES="tests/semantics/fault_ranged_loop.fork tests/semantics/shared_local_increment.fork" \
    SANITIZE=0 timeout 60 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "verify changed rc=$?"; report /tmp/v0 changed
DONE=$(cat .device-bin/s19/run1-done.txt)
REST=$(for f in tests/semantics/*.fork; do n=$(basename $f .fork); echo "$DONE" | grep -qx "$n" || echo $f; done | tr '\n' ' ')
FILES="$(ls tests/cpu_plan/*.fork tests/random/*.fork | tr '\n' ' ') $REST" FIRST_ONLY=1 SANITIZE=0 \
    timeout 200 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "verify corpus rc=$?"; report /tmp/v1 corpus
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE_TIMEOUT=40 \
    timeout 260 bash scripts/gpu-verify.sh $C /tmp/v2 > /tmp/v2.log 2>&1
at "verify classroom + sanitizer rc=$?"; report /tmp/v2 classroom
grep -i -A12 "sanitizer" /tmp/v2/summary.txt | head -40; tail -15 /tmp/v2.log
