# Session 41, device run B: what run A's v2 did not reach in its 150 s (tests/cpu_plan/
# switch_breaks.fork, every case), and the three transformation-rule programs whose region
# code changed (transform/tests/rules, no `//! run:` lines): stdout and exit status of
# `forkcc sim` against `forkcc run --backend gpu` on both schedules at P = 1, 4 and 32.
C=$PWD/.device-bin/s41/forkcc; . scripts/results-lib.sh
verify v3 200 0 0 tests/cpu_plan/switch_breaks.fork
for f in fig5_loop_with_shared_write rule3_switch_conditional_break sequence_conditional_host_op; do
    for p in 1 4 32; do
        ref=$("$C" sim transform/tests/rules/$f.fork -p $p 2>/dev/null; echo "rc=$?")
        for s in host device; do
            got=$(timeout 60 "$C" run --backend gpu --schedule $s transform/tests/rules/$f.fork -p $p 2>/dev/null; echo "rc=$?")
            [ "$ref" = "$got" ] && echo "same $f -p $p $s ${ref##*rc=}" || echo "DIFFERS $f -p $p $s"
        done
    done
done | tee $OUT/rules.txt
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
