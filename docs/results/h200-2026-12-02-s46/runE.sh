# Session 46, device run E: the final tree (s46f = 9351a9bd: the driver takes "has a grid
# region" from Emitted instead of the Plan; fk_team_on_grid only where used) on the GPU:
# every classroom example's cases against the simulator on both schedules (no sanitizer),
# Hillis-Steele 2^20 at P = 65,536 on the device schedule.
. scripts/results-lib.sh
C=$PWD/.device-bin/s46f/forkcc
verify v1 200 0 0 $(ls classroom-examples/*.fork | tr '\n' ' ')
b hs-s46f 100 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu-device --runs 5
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
