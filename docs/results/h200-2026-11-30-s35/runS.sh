# Session 35, device run S: narrow teams of several warps meeting at an mbarrier (s35c; run R
# showed racecheck clean on the probe kernel with it). racecheck (with memcheck and synccheck)
# over the 11 examples whose groups narrow and the five semantics programs (v4); the
# standalone .cu of quicksort_balanced and quicksort.fork 10^6 at P = 4096, s35b (one-warp
# narrow teams only) against s35c, 7 rounds interleaved.
C=$PWD/.device-bin/s35c/forkcc; . scripts/results-lib.sh
kernel_build qb .device-bin/s35b/quicksort_balanced.cu &
kernel_build qc .device-bin/s35c/quicksort_balanced.cu &
kernel_build fb .device-bin/s35b/quicksort.cu &
kernel_build fc .device-bin/s35c/quicksort.cu &
verify v4 200 1 1 classroom-examples/crcw_max.fork classroom-examples/farm_tasks.fork classroom-examples/groups.fork classroom-examples/list_ranking.fork classroom-examples/merge.fork classroom-examples/odd_even_sort.fork classroom-examples/pack.fork classroom-examples/prefix_blelloch.fork classroom-examples/quicksort.fork classroom-examples/quicksort_balanced.fork classroom-examples/reduce_fork.fork tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork tests/semantics/gang_exit_waits.fork
mkdir -p $OUT/hazards
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/v4/logs/*.racecheck.log 2>/dev/null | head -4); do cp $f $OUT/hazards/; done
wait; at "built"
if timeout 30 /tmp/qc -p 4096 > $OUT/qc-probe.out 2>&1; then
    kernel_rounds 7 "-p 4096" qb qc fb fc
else
    echo "qc probe failed"; tail -5 $OUT/qc-probe.out
fi
at "rounds"
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
