# Session 28, device run H: where run G's synccheck error at the owned loop's first barrier
# comes from: quicksort_balanced's first case (-p 8, N = 1000, device schedule, checked) with
# FK_R_OWN_LAUNCH_REGS's member run as a loop of at most one pass instead of an `if` (`qa`),
# with its barrier not `.aligned` (`qb`), and with the owned loop as labels and gotos like the
# generic loop instead of `for (;;)` (`qc`). The .cu files are q.cu edited by hand.
C=/nonexistent; . scripts/results-lib.sh
D=$PWD/.device-bin/s28e
for v in qa qb qc; do nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/$v $D/$v.cu > $OUT/$v.nvcc 2>&1 & done; wait
for v in qa qb qc; do timeout 60 compute-sanitizer --tool synccheck --error-exitcode 99 /tmp/$v -p 8 > $OUT/$v.sync 2>&1; at "$v rc=$?"; head -6 $OUT/$v.sync; tail -2 $OUT/$v.sync; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
