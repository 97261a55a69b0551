# Session 42, device run C: what run B did not reach, every case of
# tests/cpu_plan/switch_breaks.fork (v4, its first case is at P = 1); the overhead suite at
# P = 1 with and without the checks, both schedules (s42).
C=$PWD/.device-bin/s42/forkcc; . scripts/results-lib.sh
b s42-ovu 100 overhead --program barrier --program split --program loop --procs 1 --backends gpu,gpu-unchecked,gpu-device,gpu-device-unchecked --runs 5
grep -A14 "cost per step" $OUT/s42-ovu.txt
verify v4 230 0 0 tests/cpu_plan/switch_breaks.fork
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
