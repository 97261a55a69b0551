# Session 33, device run F: the final code (s33f, 0805da5: s33e with FK_OWN_TEAM_MAX defined
# once, for both schedules; the later commits change docs and results only) verified and
# measured. Every classroom example's first case and four
# semantics programs on the simulator, the GPU under both schedules and the nvcc .cu of both,
# with memcheck, racecheck and synccheck (v0); the first case of four classroom examples
# with owned loops through the device schedule's .cu built with -DFK_OWN_TEAM_MAX=2, so that
# their groups of 3 or more members form gangs, with the sanitizer (g2); the bench row of
# quicksort_balanced 10^6 at P = 4096 (checked, unchecked, the sequential leaf) and its
# critical path.
C=$PWD/.device-bin/s33f/forkcc; . scripts/results-lib.sh
verify v0 300 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork
CUD_FLAGS=-DFK_OWN_TEAM_MAX=2 verify g2 120 1 1 classroom-examples/quicksort_balanced.fork classroom-examples/odd_even_sort.fork classroom-examples/prefix_blelloch.fork classroom-examples/list_ranking.fork
b f-qsb 70 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
qsb_path f
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
