# Session 43, device run B: an owned loop's team in registers (FkRegionMine::team) and the
# region's FkRegion kept out of local memory (fk_r_body's FkBodyOut). The binary of this
# change (s43) against session 42's (s42, 7c949c3a's code): the overhead suite's barrier,
# split and loop steps at P = 1 and 32 on both schedules, each binary twice in turn;
# quicksort_balanced 10^6 at P = 4096 with each (device schedule); the README's quick start.
C=$PWD/.device-bin/s43/forkcc; . scripts/results-lib.sh
timeout 60 "$C" run classroom-examples/quicksort.fork -p 32 -D N=2000 > "$OUT/quickstart.txt" 2>&1
at "quickstart rc=$?"; tail -3 "$OUT/quickstart.txt"
i=0
for v in s42 s43 s42 s43; do
    C=$PWD/.device-bin/$v/forkcc
    i=$((i + 1)); b $v-ov$i 90 overhead --program barrier --program split --program loop --procs 1 --procs 32 --backends gpu,gpu-device --runs 5
    grep -A12 "cost per step" $OUT/$v-ov$i.txt
done
for v in s42 s43; do
    C=$PWD/.device-bin/$v/forkcc
    b $v-qsb 60 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
