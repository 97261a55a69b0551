# Session 18, device run 3: the final tree's code on the GPU. The first case of every
# program of the corpus (classroom examples, tests/semantics, tests/cpu_plan, tests/random)
# on sim, gpu, dev, cu and cud, the sanitizer on the classroom examples' binaries; then 40
# random programs of forkgen (seed 18000000), every case.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s18/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s"; }
FILES="$(ls classroom-examples/*.fork tests/semantics/*.fork tests/cpu_plan/*.fork tests/random/*.fork | tr '\n' ' ')" \
    FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=30 timeout 360 bash scripts/gpu-verify.sh $C /tmp/verify > /tmp/verify.log 2>&1
at "corpus verify rc=$?"
cp /tmp/verify/summary.txt $OUT/verify-summary.txt 2>/dev/null || cp /tmp/verify/progress.txt $OUT/verify-progress.txt
grep -E "^cases|agree|differ|rc=[^0]|^DIFF|^FAIL" $OUT/verify-*.txt | head -30
SANITIZE=0 timeout 140 bash scripts/gpu-verify.sh $C /tmp/verify-random .device-bin/s18/random > /tmp/verify-random.log 2>&1
at "random verify rc=$?"
cp /tmp/verify-random/summary.txt $OUT/verify-random-summary.txt 2>/dev/null || cp /tmp/verify-random/progress.txt $OUT/verify-random-progress.txt
grep -E "^cases|agree|differ|^DIFF|^FAIL" $OUT/verify-random-*.txt | head -20
