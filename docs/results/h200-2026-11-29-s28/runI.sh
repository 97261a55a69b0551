# Session 28, device run I: run H again with a warp-wide ballot before the barrier of
# FK_R_OWN_LAUNCH_REGS (`qd`) and in place of fk_team_sync's __syncwarp (`qf`): q.cu edited by hand.
C=/nonexistent; . scripts/results-lib.sh
D=$PWD/.device-bin/s28e
for v in qd qf; do nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/$v $D/$v.cu > $OUT/$v.nvcc 2>&1 & done; wait
for v in qd qf; do timeout 60 compute-sanitizer --tool synccheck --error-exitcode 99 /tmp/$v -p 8 > $OUT/$v.sync 2>&1; at "$v rc=$?"; head -6 $OUT/$v.sync; tail -2 $OUT/$v.sync; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
