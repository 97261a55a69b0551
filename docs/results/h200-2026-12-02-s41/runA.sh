# Session 41, device run A: owned loops of loops that form no group (a shared or uniform
# condition). The binary of the tree as handed in (s41) against the one of session 39's last
# commit 7cd7bc83 (s39): the overhead suite's barrier step at P = 1 and 32 on both
# schedules, each binary twice in turn; the README's quick start; every
# case of the programs whose emitted code changed (v2, no sanitizer); every classroom
# example's first case with compute-sanitizer memcheck, racecheck and synccheck (v1).
C=$PWD/.device-bin/s41/forkcc; . scripts/results-lib.sh
timeout 60 "$C" run classroom-examples/quicksort.fork -p 32 -D N=2000 > "$OUT/quickstart.txt" 2>&1
at "quickstart rc=$?"; tail -3 "$OUT/quickstart.txt"
i=0
for v in s39 s41 s39 s41; do
    C=$PWD/.device-bin/$v/forkcc
    i=$((i + 1)); b $v-ov$i 60 overhead --program barrier --procs 1 --procs 32 --backends gpu,gpu-device --runs 5
    grep -A10 "cost per step" $OUT/$v-ov$i.txt
done
C=$PWD/.device-bin/s41/forkcc
verify v2 150 0 0 classroom-examples/list_ranking.fork classroom-examples/prefix_hillis_steele.fork tests/semantics/shared_loop_after_continue.fork tests/semantics/shared_local_increment.fork tests/semantics/fault_step_limit.fork tests/semantics/grid_region_fault.fork tests/semantics/grid_region_step_limit.fork tests/semantics/private_continue.fork tests/semantics/do_while_continue.fork tests/cpu_plan/switch_breaks.fork
verify v1 280 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ')
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
