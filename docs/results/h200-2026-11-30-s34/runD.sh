# Session 34, device run D: the final code (s34d) verified. Every classroom example's first
# case and five semantics programs (gang_exit_waits.fork new) on the simulator, the GPU under
# both schedules and the nvcc .cu of both, with memcheck, racecheck and synccheck (v0); the
# first case of four classroom examples with owned loops and of gang_exit_waits.fork through
# the device schedule's .cu built with -DFK_OWN_TEAM_MAX=2, so that their groups of 3 or
# more members form gangs, with the sanitizer (g2); the standalone .cu of s34c and s34d
# (quicksort_balanced 10^6, P = 4096), 9 rounds interleaved.
C=$PWD/.device-bin/s34d/forkcc; . scripts/results-lib.sh
verify v0 320 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork tests/semantics/gang_exit_waits.fork
CUD_FLAGS=-DFK_OWN_TEAM_MAX=2 verify g2 200 1 1 classroom-examples/quicksort_balanced.fork classroom-examples/odd_even_sort.fork classroom-examples/prefix_blelloch.fork classroom-examples/list_ranking.fork tests/semantics/gang_exit_waits.fork
# The narrow region tasks' gain (run E: 96.1 -> 94.3 ms) timed a second time.
kernel_build qc .device-bin/s34c/quicksort_balanced.cu & kernel_build qd .device-bin/s34d/quicksort_balanced.cu &
wait; kernel_rounds 9 "-p 4096" qc qd
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
