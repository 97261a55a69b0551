# Session 44, device run E: the overhead suite with 10,000 steps between its two sizes for the
# groups of at most 1024 (s44c: N = 100 and 10,100) against 1,000 (s44b: N = 100 and 1100),
# barrier, split and loop at P = 1 and 32, both schedules, one call.
C=$PWD/.device-bin/s44c/forkcc; . scripts/results-lib.sh
for c in s44c s44b; do
    C=$PWD/.device-bin/$c/forkcc
    b ov-$c 90 overhead --program barrier --program split --program loop --procs 1 --procs 32 --backends gpu,gpu-device --runs 5
    grep -A14 "cost per step" $OUT/ov-$c.txt | head -15
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
