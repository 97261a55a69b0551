# Session 47, device run C: the tree with the new grid barrier (s47b) on the GPU, the cases
# runs B here and E of session 46 did not reach: the first case of every tests/semantics and
# tests/cpu_plan program with a `-p 1` run line, every case of the programs with a grid
# region in tests/semantics and of sieve.fork, every backend against the simulator.
. scripts/results-lib.sh
C=$PWD/.device-bin/s47b/forkcc
verify v3 290 1 0 $(grep -l "run:.*-p 1\b" tests/semantics/*.fork tests/cpu_plan/*.fork | tr '\n' ' ')
verify v4 150 0 0 tests/semantics/grid_region_crcw_common.fork tests/semantics/grid_region_fault.fork tests/semantics/grid_region_step_limit.fork classroom-examples/sieve.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
