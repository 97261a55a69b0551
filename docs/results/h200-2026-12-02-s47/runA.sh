# Session 47, device run A: the grid barrier of one atomic and one poll (s47b, the working
# tree on 3232c511) against session 46's (s47a = 3232c511): the barrier alone (probe/
# grid_barrier.cu), the overhead suite's grid barrier step at P = 1024, 65,536 and 2^20 on
# both schedules, twice each, interleaved; the study programs with a grid region.
. scripts/results-lib.sh
nvcc -O2 -arch=sm_90 docs/results/h200-2026-12-02-s47/probe/grid_barrier.cu -o /tmp/gbp && /tmp/gbp | tee "$OUT/probe.txt"
at probe
for i in 1 2; do for v in s47a s47b; do
    C=$PWD/.device-bin/$v/forkcc
    b gb-$v-$i 90 overhead --program grid_barrier --procs 1024 --procs 65536 --procs 1048576 --backends gpu,gpu-device --runs 5
done; done
for v in s47a s47b; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 90 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device --runs 5
    b sv-$v 90 sieve --n 10000000 --procs 16384 --backends gpu,gpu-device --runs 5
    b lr-$v 90 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
