# Session 23, device run K: run H's binary (runner threads per block from FK_EXP_RUNNERS, not
# committed) on list ranking at P = 65,536 and the overhead suite's grid_barrier at 65,536,
# device schedule, with 128 runners (a team of 512) and the default 320.
C=$PWD/.device-bin/s23b/forkcc; . scripts/results-lib.sh
for r in 128 320; do
  FK_EXP_RUNNERS=$r b list-r$r 50 list_ranking --procs 65536 --backends gpu-device --runs 5
  FK_EXP_RUNNERS=$r b overhead-r$r 60 overhead --program grid_barrier --procs 65536 --backends gpu-device --runs 5
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
