# Session 31, device run F: the final code (s31f, 4785ee6) verified. Every classroom example's
# first case and four semantics programs on the simulator, the GPU under both schedules and
# the nvcc .cu of both, with memcheck, racecheck and synccheck; then every case of a fault
# in a loop that the kernel warp runs (fault_in_loop_after_hits) and of the region loop of a
# group larger than the team (region_loop_larger_than_team: P = 1300, a fault at a member a
# team thread runs third), without the sanitizer.
C=$PWD/.device-bin/s31f/forkcc; . scripts/results-lib.sh
verify v0 300 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork
verify v1 150 0 0 tests/semantics/fault_in_loop_after_hits.fork tests/semantics/region_loop_larger_than_team.fork
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
