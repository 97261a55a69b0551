# Session 19, device run 1 (main f807c77): forkcc bench overhead on both schedules (the
# barrier, split and loop programs, which hung on the CUDA backends before 7765b5f), then the
# first case of every classroom example and tests/semantics program on sim, gpu, dev, cu, cud.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s19/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/machine.txt
for procs in "--procs 32 --procs 1024" "--procs 1" "--procs 65536 --procs 1048576"; do
    d=$OUT/overhead-$(echo $procs | tr -dc '0-9_' | head -c 20)
    timeout 110 $C bench overhead $procs --backends gpu,gpu-device --runs 5 --out $d > $d.txt 2>&1
    at "overhead $procs rc=$?"
    rm -f $d/*.svg
done
tail -n 40 $OUT/overhead-*.txt
FILES="$(ls classroom-examples/*.fork tests/semantics/*.fork | tr '\n' ' ')" FIRST_ONLY=1 \
    SANITIZE=0 timeout 200 bash scripts/gpu-verify.sh $C /tmp/verify > /tmp/verify.log 2>&1
at "verify rc=$?"
cp /tmp/verify/progress.txt $OUT/verify-progress.txt; cp /tmp/verify/summary.txt $OUT/verify-summary.txt
tail -5 /tmp/verify.log
awk '{print $1}' $OUT/verify-progress.txt | sort | uniq -c
grep -v "^pass" $OUT/verify-progress.txt | head -20
for f in $(grep -v "^pass" $OUT/verify-progress.txt | awk '{print $2}' | head -5); do mkdir -p $OUT/logs; cp /tmp/verify/logs/$f.* $OUT/logs/ 2>/dev/null; done
