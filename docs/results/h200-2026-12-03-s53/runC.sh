# Session 53, device run C: pass_hs.py (with the sums by pc) on `s53t`'s device-schedule `.cu`
# of quicksort and quicksort_balanced 10^6 at P = 4096, list ranking 2^18 and Hillis-Steele
# 2^20 at 65,536: where block 0's thread 0's turns at its processors go, by instruction.
C=$PWD/.device-bin/s53t/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp53
for v in quicksort_t quicksort_balanced_t lr_t hs_device_t; do kernel_build ${v}_pass $E/${v}_pass.cu & done
wait
at built
for i in 1 2; do
    for v in quicksort_t quicksort_balanced_t; do
        timeout 60 /tmp/${v}_pass -p 4096 > "$OUT/$v-$i.out" 2> "$OUT/$v-$i.err"
        echo "$v $i rc=$? $(grep -c 'sorted: yes' "$OUT/$v-$i.out") $(grep prof "$OUT/$v-$i.err")"
    done
    for v in lr_t hs_device_t; do
        timeout 60 /tmp/${v}_pass -p 65536 > "$OUT/$v-$i.out" 2> "$OUT/$v-$i.err"
        echo "$v $i rc=$? $(tail -1 "$OUT/$v-$i.out") $(grep prof "$OUT/$v-$i.err")"
    done
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
