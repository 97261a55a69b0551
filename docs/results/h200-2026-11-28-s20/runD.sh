# Session 20, device run D (final tree): grid regions on several blocks at small P, where a
# block's team has more threads than its share of the group: the device schedule's .cu of
# five classroom examples with -DFK_REGION_TASK_MAX=4 -DFK_DEVICE_RUNNERS=32 (P = 300: 10
# blocks) against forkcc sim, and compute-sanitizer on two of them; the classroom examples'
# first cases on sim, gpu, dev, cu and cud (cud with grid regions past 4 members); sieve's
# host schedule at more P.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s20c/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/machine.txt
mkdir -p /tmp/g $OUT/grid
grid() { # name N
    $C build classroom-examples/$1.fork -D N=$2 --emit cuda --schedule device -o /tmp/g/$1.cu &&
    nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MAX=4 -DFK_DEVICE_RUNNERS=32 /tmp/g/$1.cu -o /tmp/g/$1 &&
    $C sim classroom-examples/$1.fork -D N=$2 -p 300 > /tmp/g/$1.sim 2>/dev/null
    timeout 60 /tmp/g/$1 -p 300 > /tmp/g/$1.out 2> $OUT/grid/$1.err
    echo "$1 rc=$? $(cmp -s /tmp/g/$1.out /tmp/g/$1.sim && echo same || echo DIFFERS)" | tee -a $OUT/grid/result.txt
}
grid sieve 100000 & grid prefix_hillis_steele 4096 & grid prefix_blelloch 4096 & grid crcw_max 64 & grid list_ranking 1000 & wait
at "grid"
for tool in memcheck synccheck racecheck; do
    for p in sieve prefix_hillis_steele; do
        (timeout 60 compute-sanitizer --tool $tool /tmp/g/$p -p 300 > /tmp/g/$p.$tool.out 2>&1
         echo "$p $tool rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' /tmp/g/$p.$tool.out)") &
    done
done 2>&1 | tee $OUT/grid/sanitizer.txt; wait
at "sanitizer"
timeout 60 $C bench sieve --n 10000000 --procs 8192 --procs 32768 --backends gpu,seq --runs 5 --out $OUT/sieve > $OUT/sieve.txt 2>&1
at "sieve rc=$?"; rm -f $OUT/sieve/*.svg; grep -A12 "^program" $OUT/sieve.txt | grep -v "^  "
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" CUD_FLAGS=-DFK_REGION_TASK_MAX=4 FIRST_ONLY=1 SANITIZE=0 \
    timeout 150 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "verify rc=$?"; cp /tmp/v0/progress.txt $OUT/verify-progress.txt; cp /tmp/v0/summary.txt $OUT/verify-summary.txt 2>/dev/null
awk '{print $1}' $OUT/verify-progress.txt | sort | uniq -c; grep -v "^pass" $OUT/verify-progress.txt | head
tar czf /tmp/runD.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/runD.tgz $OUT/
