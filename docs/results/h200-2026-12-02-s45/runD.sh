# Session 45, device run D: the final tree (s45f): as s45e (run C), with the runner warps'
# look at their team's grid flag compiled only in a program with a grid region
# (FK_USES_GRID_REGIONS), since run C's split step was 3% slower with it. The overhead
# suite's barrier and split at P = 1 and 32 with s45a (e581745b) and s45f; s45f's rows of the
# programs with a grid region; their first cases with compute-sanitizer (v2).
. scripts/results-lib.sh
for c in s45a s45f; do
    C=$PWD/.device-bin/$c/forkcc
    b ov-$c 100 overhead --program barrier --program split --procs 1 --procs 32 --backends gpu-device --runs 5
    grep -A8 "cost per step" $OUT/ov-$c.txt | head -8
done
b sv-s45f 150 sieve --n 10000000 --procs 16384 --backends gpu-device --runs 5
b hs-s45f 100 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu-device --runs 5
b lr-s45f 60 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
verify v2 150 1 1 classroom-examples/sieve.fork classroom-examples/prefix_hillis_steele.fork classroom-examples/list_ranking.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
