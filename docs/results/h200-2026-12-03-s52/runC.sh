# Session 52, device run C: where Hillis-Steele's function spends the time outside its grid
# region on the device schedule (hs_device_a_stamp: `s52a`'s `.cu` stamped by stamp_hs.py,
# 3 runs at P = 65,536, 16,384 and 1024); then the verification of `s52a` (a ranged loop's
# accesses through one pointer checked with one call, the freed mark read once): every
# classroom example's first case and the semantics programs of the ranged checks through
# pointers (the new fault_ranged_loop_through_pointer.fork, fault_free_before_ranged_loop,
# fault_free_after_objects_by_turns, fault_two_objects_by_turns, fault_in_loop_after_hits,
# loads_ahead, fault_loads_ahead_tested) on every backend with compute-sanitizer (v1); every
# case of the new program and of fault_ranged_loop.fork without it (v2).
C=$PWD/.device-bin/s52a/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
cu_build stamp .device-bin/exp52/hs_device_a_stamp.cu
at built
for p in 65536 16384 1024; do
    for i in 1 2 3; do
        timeout 60 /tmp/stamp -p $p > "$OUT/stamp-$p-$i.out" 2> "$OUT/stamp-$p-$i.err"
        echo "p=$p rc=$? $(tr '\n' ' ' < "$OUT/stamp-$p-$i.err") $(grep -c 'x\[0\] = 0' "$OUT/stamp-$p-$i.out")"
    done
done | tee "$OUT/stamps.txt"
S=tests/semantics
verify v1 330 1 1 classroom-examples/*.fork $S/fault_ranged_loop_through_pointer.fork \
    $S/fault_free_before_ranged_loop.fork $S/fault_free_after_objects_by_turns.fork \
    $S/fault_two_objects_by_turns.fork $S/fault_in_loop_after_hits.fork $S/loads_ahead.fork \
    $S/fault_loads_ahead_tested.fork
verify v2 90 0 0 $S/fault_ranged_loop_through_pointer.fork $S/fault_ranged_loop.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
