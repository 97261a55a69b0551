# Session 41, device run C: run A's comparison with the unchecked builds and the overhead
# suite's split too (its loop, a shared loop around a predicated private `if`, runs owned
# now): barrier and split at P = 32, both schedules, checked and unchecked, the binaries
# s39 (7cd7bc83) and s41 (a8ad8752) in turn twice within one call, 5 runs each.
C=$PWD/.device-bin/s41/forkcc; . scripts/results-lib.sh
i=0
for v in s39 s41 s39 s41; do
    C=$PWD/.device-bin/$v/forkcc
    i=$((i + 1)); b $v-ov$i 90 overhead --program barrier --program split --procs 32 --backends gpu,gpu-unchecked,gpu-device,gpu-device-unchecked --runs 5
    grep -A12 "cost per step" $OUT/$v-ov$i.txt | grep -v wrote
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
