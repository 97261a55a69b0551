# Session 35, device run N: the final verification of s35b (narrow teams of one warp only,
# meeting at __syncwarp): sieve 10^7 and Hillis-Steele 2^20 at P = 1024 on both schedules;
# every classroom example and five semantics programs with the sanitizer (v1); gangs with
# -DFK_OWN_TEAM_MAX=2 (g3); the racecheck logs that report a hazard, if any.
C=$PWD/.device-bin/s35b/forkcc; . scripts/results-lib.sh
b n-sieve 45 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
b n-hs 45 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --backends gpu,gpu-device --runs 5
verify v1 300 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork tests/semantics/gang_exit_waits.fork
mkdir -p $OUT/hazards
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/v1/logs/*.racecheck.log 2>/dev/null | head -4); do cp $f $OUT/hazards/; done
CUD_FLAGS=-DFK_OWN_TEAM_MAX=2 verify g3 160 1 1 classroom-examples/quicksort_balanced.fork classroom-examples/odd_even_sort.fork classroom-examples/prefix_blelloch.fork classroom-examples/list_ranking.fork tests/semantics/gang_exit_waits.fork
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/g3/logs/*.racecheck.log 2>/dev/null | head -2); do cp $f $OUT/hazards/g3-$(basename $f); done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
