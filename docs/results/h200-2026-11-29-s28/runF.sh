# Session 28, device run F: compute-sanitizer's synccheck on quicksort_balanced's first case
# (-p 8, N = 1000, device schedule, checked), which reported 32 errors in run E, as emitted
# (`q`) and with the owned loops turned off in the .cu (`qn`), to tell where they come from.
C=/nonexistent; . scripts/results-lib.sh
D=$PWD/.device-bin/s28e
for v in q qn; do nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/$v $D/$v.cu > $OUT/$v.nvcc 2>&1 & done; wait
for v in q qn; do timeout 60 compute-sanitizer --tool synccheck --error-exitcode 99 /tmp/$v -p 8 > $OUT/$v.sync 2>&1; at "$v rc=$?"; head -30 $OUT/$v.sync; tail -2 $OUT/$v.sync; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
