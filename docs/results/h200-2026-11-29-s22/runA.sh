# Session 22, device run A (913811d): every classroom example's first case on the five backends
# with compute-sanitizer (a7628cd's fix on its own binary); Hillis-Steele 2^20 at P = 65,536:
# the bench row, the region kernel of hand-edited .cu variants (base; the fast loops without
# fk_spin; and in a function with __restrict__ parameters) under Nsight Compute, and the
# hand-written kernels with and without __restrict__ (.device-bin/s22a/hand_hs.cu).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
D=$PWD/.device-bin/s22a; C=$D/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/machine.txt
b() { # name timeout args...
    local name=$1 limit=$2; shift 2
    timeout $limit $C bench "$@" --out $OUT/$name > $OUT/$name.txt 2>&1
    at "$name rc=$?"; rm -f $OUT/$name/*.svg
    grep -A40 "^program" $OUT/$name.txt | grep -v "^  " | head -40
}
# The experiments first (short), then the sanitizer pass.
for v in base nospin restrict; do nvcc -O3 -arch=sm_90 -o /tmp/hs_$v $D/hs_$v.cu > $OUT/nvcc-$v.txt 2>&1 & done
nvcc -O3 -arch=sm_90 -o /tmp/hand_hs $D/hand_hs.cu > $OUT/nvcc-hand.txt 2>&1; wait
at "nvcc"
/tmp/hand_hs 65536 | tee $OUT/hand.txt; /tmp/hand_hs 1024 | tee -a $OUT/hand.txt
for v in base nospin restrict; do
    /tmp/hs_$v -p 65536 > $OUT/hs-$v.out 2>&1; tail -1 $OUT/hs-$v.out
    for r in 1 2 3 4 5; do
        ncu --kernel-name r0_hillis_steele_scan --launch-count 1 --cache-control none --clock-control none \
            --metrics gpu__time_duration.sum --csv /tmp/hs_$v -p 65536 2>/dev/null | grep gpu__time_duration | tail -1 >> $OUT/hs-$v-ncu.csv
    done
    echo "$v: $(awk -F'","' '{gsub(/[",]/,"",$NF); print $NF}' $OUT/hs-$v-ncu.csv | sort -n | tr '\n' ' ')"
done | tee $OUT/hs-variants.txt
at "variants"
b prefix 60 prefix --n 1048576 --procs 65536 --backends gpu,cuda-hand --runs 5
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=30 timeout 330 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "verify rc=$?"
cp /tmp/v0/progress.txt $OUT/classroom-progress.txt; cp /tmp/v0/summary.txt $OUT/classroom-summary.txt 2>/dev/null
awk '{print $1}' $OUT/classroom-progress.txt | sort | uniq -c
cat /tmp/v0/rows/san.* > $OUT/classroom-sanitizer.txt 2>/dev/null; wc -l < $OUT/classroom-sanitizer.txt
grep -v "rc=0 .* 0 error\|rc=0 .* 0 hazard" $OUT/classroom-sanitizer.txt | head -12
mkdir -p $OUT/logs; cp /tmp/v0/logs/*.log $OUT/logs/ 2>/dev/null
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
