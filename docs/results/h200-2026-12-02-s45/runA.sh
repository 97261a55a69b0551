# Session 45, device run A: runner warps that nap while their block's team runs a grid region
# (fk_runner_idle: FK_GRID_RUNNER_NAP ns between looks instead of 64) against polling every
# 64 ns (s45a, e581745b). s45b naps 1024 ns, s45c 4096 ns. The device schedule's bench rows of
# the programs with a grid region (sieve 10^7 at P = 1024 and 16,384; Hillis-Steele 2^20 at
# 1024 and 65,536; list ranking 262,144 at 65,536) and the grid barrier's overhead rows
# (1024, 65,536), each binary in turn (BINS, if set, names others: run B).
. scripts/results-lib.sh
for c in ${BINS:-s45a s45b s45c}; do
    C=$PWD/.device-bin/$c/forkcc
    b sv-$c 150 sieve --n 10000000 --procs 1024 --procs 16384 --backends gpu-device --runs 5
    b hs-$c 100 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --procs 65536 --backends gpu-device --runs 5
    b lr-$c 60 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
    b gb-$c 100 overhead --program grid_barrier --procs 1024 --procs 65536 --backends gpu-device --runs 5
    grep -A8 "cost per step" $OUT/gb-$c.txt
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
