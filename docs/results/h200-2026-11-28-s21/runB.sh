# Session 20, device run A: order-free loops unlogged by the --crcw common check. Every case
# of the new semantics program and the first case of every classroom example on sim, gpu,
# dev, cu and cud; then the study programs' rows (checked = forkcc run's default checks,
# --crcw common included; unchecked) as in session 19's run 5.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s21b/forkcc
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
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=0 timeout 130 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "verify first cases rc=$?"; report /tmp/v0 first
b sieve 90 sieve --n 10000000 --procs 16384 --backends gpu,gpu-device,seq --runs 5
b prefix 130 prefix --n 1048576 --procs 1024 --procs 65536 --backends gpu,gpu-device,cuda-hand --runs 5
b matmul 80 matmul --n 2048 --procs 4194304 --backends gpu,gpu-device,cuda-hand --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
