# Session 20, device run E (final tree): syncadd and the other result-free updates combined
# per cell across a warp's lanes before the atomic (fk_sync_update). Every case of the
# programs that make such updates on sim, gpu, dev, cu and cud; sieve on both schedules.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s20e/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/machine.txt
timeout 70 $C bench sieve --n 10000000 --procs 16384 --backends gpu,gpu-unchecked,gpu-device,seq --runs 5 --out $OUT/sieve > $OUT/sieve.txt 2>&1
at "sieve rc=$?"; rm -f $OUT/sieve/*.svg; grep -A12 "^program" $OUT/sieve.txt | grep -v "^  "
FILES="tests/semantics/syncadd_cells.fork tests/semantics/syncadd.fork tests/semantics/order_free_loop.fork classroom-examples/sieve.fork" \
    SANITIZE=0 timeout 90 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "verify rc=$?"; cp /tmp/v0/progress.txt $OUT/verify-progress.txt; cp /tmp/v0/summary.txt $OUT/verify-summary.txt 2>/dev/null
awk '{print $1}' $OUT/verify-progress.txt | sort | uniq -c; grep -v "^pass" $OUT/verify-progress.txt | head
tar czf /tmp/runE.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/runE.tgz $OUT/
