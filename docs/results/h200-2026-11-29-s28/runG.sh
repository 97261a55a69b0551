# Session 28, device run G: run F's synccheck again after fk_r_own_member lost its branch:
# quicksort_balanced's (`q`) and quicksort's (`qs`) first cases (-p 8, N = 1000), device
# schedule, checked, as emitted by the working tree.
C=/nonexistent; . scripts/results-lib.sh
D=$PWD/.device-bin/s28e
for v in q qs; do nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/$v $D/$v.cu > $OUT/$v.nvcc 2>&1 & done; wait
for v in q qs; do timeout 60 compute-sanitizer --tool synccheck --error-exitcode 99 /tmp/$v -p 8 > $OUT/$v.sync 2>&1; at "$v rc=$?"; head -8 $OUT/$v.sync; tail -2 $OUT/$v.sync; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
