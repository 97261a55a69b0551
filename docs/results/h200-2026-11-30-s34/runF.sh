# Session 34, device run F: run D's racecheck hazards. Run D's racecheck reported hazards
# (shared memory) on the device schedule's .cu of 11 classroom examples, where session 33's
# run F had none: thread 0 of a narrow team restored the team's size while the team's other
# threads could still read it. s34e's fk_team_widen meets the narrow team first. The
# verification of run D again with s34e (v1: every classroom example and five semantics
# programs, with the sanitizer; g3: gangs with -DFK_OWN_TEAM_MAX=2), and the racecheck logs
# that report a hazard.
C=$PWD/.device-bin/s34e/forkcc; . scripts/results-lib.sh
verify v1 320 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork tests/semantics/gang_exit_waits.fork
mkdir -p $OUT/hazards
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/v1/logs/*.racecheck.log 2>/dev/null | head -4); do cp $f $OUT/hazards/; done
CUD_FLAGS=-DFK_OWN_TEAM_MAX=2 verify g3 200 1 1 classroom-examples/quicksort_balanced.fork classroom-examples/odd_even_sort.fork classroom-examples/prefix_blelloch.fork classroom-examples/list_ranking.fork tests/semantics/gang_exit_waits.fork
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/g3/logs/*.racecheck.log 2>/dev/null | head -2); do cp $f $OUT/hazards/g3-$(basename $f); done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
