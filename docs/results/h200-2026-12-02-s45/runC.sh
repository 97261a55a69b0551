# Session 45, device run C: the final runtime (s45e): a runner warp whose block's team runs a
# grid region watches the team's flag in shared memory (fk_team_on_grid, fk_runner_idle;
# 256 ns naps) instead of passing over its processors' states every 64 ns. Against s45a
# (e581745b): the device schedule's bench rows of the programs with a grid region and of the
# overhead suite's barrier and split at P = 1 and 32 (programs without one, whose idle
# runners now also read the flag). Then every classroom example's first case with
# compute-sanitizer (v1).
. scripts/results-lib.sh
for c in s45a s45e; do
    C=$PWD/.device-bin/$c/forkcc
    b sv-$c 150 sieve --n 10000000 --procs 1024 --procs 16384 --backends gpu-device --runs 5
    b hs-$c 100 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --procs 65536 --backends gpu-device --runs 5
    b lr-$c 60 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
    b ov-$c 100 overhead --program barrier --program split --procs 1 --procs 32 --backends gpu-device --runs 5
    grep -A8 "cost per step" $OUT/ov-$c.txt | head -8
done
C=$PWD/.device-bin/s45e/forkcc
verify v1 280 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ')
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
