# Session 33, device run D: run C's comparison with s33d (the gang's helpers out of line,
# so that the region functions spill as before; the gang barrier a release and an acquire,
# not two fences). The standalone .cu of quicksort_balanced and quicksort.fork 10^6
# (P = 4096), the persistent kernel's time (time_kernel.py), 9 rounds interleaved:
#   q0/f0     session 32's final emission (s32k)
#   qn/fn     s33d with -DFK_GANG_MAX=1: no gang forms, the new code otherwise
#   qg/fg     s33d, gangs of 2 to 8 teams
#   qs/fs     s33d with -DFK_GANG_NAP=100: a gang's waiting thread sleeps 100 ns a poll
#   ug        s33d unchecked (-DFK_CHECKS=0), u0 s32k's
C=$PWD/.device-bin/s33d/forkcc; . scripts/results-lib.sh
T=docs/results/h200-2026-11-30-s32/time_kernel.py
python3 $T .device-bin/s32k/quicksort_balanced.cu /tmp/q0-t.cu
python3 $T .device-bin/s32k/quicksort.cu /tmp/f0-t.cu
python3 $T .device-bin/s33d/quicksort_balanced.cu /tmp/qs-t.cu
python3 $T .device-bin/s33d/quicksort.cu /tmp/fs-t.cu
build() { nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 "${@:3}" -o /tmp/$1 /tmp/$2-t.cu > $OUT/nvcc-$1.txt 2>&1; }
build q0 q0 & build u0 q0 -DFK_CHECKS=0 & build f0 f0 &
build qn qs -DFK_GANG_MAX=1 & build qg qs & build ug qs -DFK_CHECKS=0 &
build fn fs -DFK_GANG_MAX=1 & build fg fs & build qs qs -DFK_GANG_NAP=100 & build fs fs -DFK_GANG_NAP=100 &
wait; at "built"
V="q0 qn qg qs u0 ug f0 fn fg fs"
for i in 1 2 3 4 5 6 7 8 9; do for v in $V; do
    timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err
    echo "code $v round $i rc=$? $(grep prof $OUT/$v-$i.err) $(head -1 $OUT/$v-$i.out | head -c 50)"
done; done > $OUT/rounds.txt
for v in $V; do
    t=$(grep "code $v " $OUT/rounds.txt | awk '{print $8}' | sort -n)
    echo "code $v median $(echo "$t" | sed -n 5p) ms, min $(echo "$t" | head -1), max $(echo "$t" | tail -1), sorted $(grep "code $v " $OUT/rounds.txt | grep -c 'sorted: yes')/9"
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
