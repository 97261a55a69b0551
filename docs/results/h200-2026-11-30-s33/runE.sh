# Session 33, device run E: an owned loop's multiprefix without the gang's meeting where the
# next launch does not touch its cell (s33e). The standalone .cu of quicksort_balanced and
# quicksort.fork 10^6 (P = 4096), the persistent kernel's time (time_kernel.py), 9 rounds
# interleaved: q0/f0 session 32's final emission (s32k), qd run D's s33d, qe/ue/fe s33e
# (ue unchecked); then sieve 10^7 and Hillis-Steele 2^20 at P = 1024 on both schedules
# (s33e's forkcc bench), which have no gang.
C=$PWD/.device-bin/s33e/forkcc; . scripts/results-lib.sh
T=docs/results/h200-2026-11-30-s32/time_kernel.py
python3 $T .device-bin/s32k/quicksort_balanced.cu /tmp/q0-t.cu
python3 $T .device-bin/s32k/quicksort.cu /tmp/f0-t.cu
python3 $T .device-bin/s33d/quicksort_balanced.cu /tmp/qd-t.cu
python3 $T .device-bin/s33e/quicksort_balanced.cu /tmp/qe-t.cu
python3 $T .device-bin/s33e/quicksort.cu /tmp/fe-t.cu
build() { nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 "${@:3}" -o /tmp/$1 /tmp/$2-t.cu > $OUT/nvcc-$1.txt 2>&1; }
build q0 q0 & build f0 f0 & build qd qd & build qe qe & build ue qe -DFK_CHECKS=0 & build fe fe &
wait; at "built"
V="q0 qd qe ue f0 fe"
for i in 1 2 3 4 5 6 7 8 9; do for v in $V; do
    timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err
    echo "code $v round $i rc=$? $(grep prof $OUT/$v-$i.err) $(head -1 $OUT/$v-$i.out | head -c 50)"
done; done > $OUT/rounds.txt
for v in $V; do
    t=$(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n)
    echo "code $v median $(echo "$t" | sed -n 5p) ms, min $(echo "$t" | head -1), max $(echo "$t" | tail -1), sorted $(grep "code $v " $OUT/rounds.txt | grep -c 'sorted: yes')/9"
done
b e-sieve 60 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
b e-hs 60 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --backends gpu,gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
