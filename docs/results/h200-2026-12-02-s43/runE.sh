# Session 43, device run E: the binary of the final tree (s43e: 35e1d46a and the region posts'
# cleanup, fk_post_region). The overhead suite's barrier, split and loop at P = 1 and 32
# without the checks, both schedules; every classroom example's first case on every backend
# (v5, no sanitizer).
C=$PWD/.device-bin/s43e/forkcc; . scripts/results-lib.sh
b ovu 110 overhead --program barrier --program split --program loop --procs 1 --procs 32 --backends gpu-unchecked,gpu-device-unchecked --runs 5
grep -A14 "cost per step" $OUT/ovu.txt
verify v5 120 1 0 $(ls classroom-examples/*.fork | tr '\n' ' ')
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
