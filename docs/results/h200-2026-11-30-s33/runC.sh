# Session 33, device run C: what gangs gain and cost, in one call. The standalone .cu of
# quicksort_balanced and quicksort.fork 10^6 (P = 4096), the persistent kernel's time
# (time_kernel.py), 9 rounds interleaved:
#   q0/u0/f0  session 32's final emission (s32k), checked / unchecked (-DFK_CHECKS=0)
#   qn        s33c's emission (gangs, the launch barriers a gang needs only) with
#             -DFK_GANG_MAX=1: no gang forms, the new code otherwise
#   qg/ug/fg  s33c, gangs of 2 to 8 teams
#   q3/u3/f3  s33c with -DFK_GANG_MIN=3: gangs of 3 to 8 teams
C=$PWD/.device-bin/s33c/forkcc; . scripts/results-lib.sh
T=docs/results/h200-2026-11-30-s32/time_kernel.py
python3 $T .device-bin/s32k/quicksort_balanced.cu /tmp/q0-t.cu
python3 $T .device-bin/s32k/quicksort.cu /tmp/f0-t.cu
python3 $T .device-bin/s33c/quicksort_balanced.cu /tmp/qs-t.cu
python3 $T .device-bin/s33c/quicksort.cu /tmp/fs-t.cu
build() { nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 "${@:3}" -o /tmp/$1 /tmp/$2-t.cu > $OUT/nvcc-$1.txt 2>&1; }
build q0 q0 & build u0 q0 -DFK_CHECKS=0 & build f0 f0 &
build qn qs -DFK_GANG_MAX=1 & build qg qs & build ug qs -DFK_CHECKS=0 & build fg fs &
build q3 qs -DFK_GANG_MIN=3 & build u3 qs -DFK_CHECKS=0 -DFK_GANG_MIN=3 & build f3 fs -DFK_GANG_MIN=3 &
wait; at "built"
V="q0 qn qg q3 u0 ug u3 f0 fg f3"
for i in 1 2 3 4 5 6 7 8 9; do for v in $V; do
    timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err
    echo "code $v round $i rc=$? $(grep prof $OUT/$v-$i.err) $(head -1 $OUT/$v-$i.out | head -c 50)"
done; done > $OUT/rounds.txt
for v in $V; do
    t=$(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n)
    echo "code $v median $(echo "$t" | sed -n 5p) ms, min $(echo "$t" | head -1), max $(echo "$t" | tail -1), sorted $(grep "code $v " $OUT/rounds.txt | grep -c 'sorted: yes')/9"
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
