# Session 53, device run G: `s53c` (a call's leader action loads its members' slots in
# batches of 32, fk_form_call_group): session 52's stamps (stamp2) of Hillis-Steele 2^20 at
# P = 65,536 (the callee's group forms at the call's release), `forkcc bench` of matmul 2048
# at P = N^2 and Hillis-Steele at 65,536 on the device schedule; then every classroom
# example's first case and the fault programs that stop the run on every backend with
# compute-sanitizer (v1).
C=$PWD/.device-bin/s53c/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
cu_build hs2_stamp2 .device-bin/exp53/hs2_stamp2.cu
at built
for i in 1 2; do
    timeout 60 /tmp/hs2_stamp2 -p 65536 > "$OUT/stamp2-$i.out" 2> "$OUT/stamp2-$i.err"
    echo "stamp2 $i rc=$? $(tail -1 "$OUT/stamp2-$i.out") $(grep -E 'prof|group[01] |release[0-9] |arrive pc3' "$OUT/stamp2-$i.err" | tr '\n' ' ')"
done
b mm-s53c 80 matmul --n 2048 --procs 4194304 --backends gpu-device --runs 3
b hs-s53c 40 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu-device --runs 5
S=tests/semantics
verify v1 280 1 1 classroom-examples/*.fork $S/fault_sibling_race.fork $S/fault_step_limit.fork \
    $S/fault_recursion_depth.fork $S/grid_region_fault.fork $S/fault_in_owned_loop.fork \
    $S/fault_division_by_zero.fork $S/straight_call_sync.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
