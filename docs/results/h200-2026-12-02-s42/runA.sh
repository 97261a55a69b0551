# Session 42, device run A: a group of one runs a block region on an idle block's team
# (FK_REGION_TASK_MIN 1). The binary of the tree as handed in (s42) against the one of session
# 41's last commit f88d91af (s41): the overhead suite's barrier, split and loop steps at
# P = 1 and 32 on both schedules, each binary twice in turn; quicksort_balanced 10^6 at
# P = 4096 with each; the README's quick start; every case of the programs with a `-p 1`
# run line, on every backend (no sanitizer).
C=$PWD/.device-bin/s42/forkcc; . scripts/results-lib.sh
timeout 60 "$C" run classroom-examples/quicksort.fork -p 32 -D N=2000 > "$OUT/quickstart.txt" 2>&1
at "quickstart rc=$?"; tail -3 "$OUT/quickstart.txt"
i=0
for v in s41 s42 s41 s42; do
    C=$PWD/.device-bin/$v/forkcc
    i=$((i + 1)); b $v-ov$i 90 overhead --program barrier --program split --program loop --procs 1 --procs 32 --backends gpu,gpu-device --runs 5
    grep -A12 "cost per step" $OUT/$v-ov$i.txt
done
for v in s41 s42; do
    C=$PWD/.device-bin/$v/forkcc
    b $v-qsb 60 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
done
C=$PWD/.device-bin/s42/forkcc
verify v2 330 0 0 $(grep -l "run:.*-p 1\b" tests/semantics/*.fork tests/cpu_plan/*.fork classroom-examples/*.fork | tr '\n' ' ')
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
