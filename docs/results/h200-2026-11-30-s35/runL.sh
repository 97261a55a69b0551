# Session 35, device run L: narrow teams of one warp only, meeting at __syncwarp (s35b; runs
# H to K showed racecheck's hazards with every named-barrier scheme for narrow teams and none
# for one warp at __syncwarp). racecheck (with memcheck and synccheck) over the 11 examples
# that reported hazards in session 34; the standalone .cu of quicksort_balanced and
# quicksort.fork 10^6 at P = 4096, s34e (narrow teams of up to 18 warps) against s35b, 9
# rounds interleaved; the bench row of quicksort_balanced.
C=$PWD/.device-bin/s35b/forkcc; . scripts/results-lib.sh
kernel_build qe .device-bin/s34e/quicksort_balanced.cu &
kernel_build qb .device-bin/s35b/quicksort_balanced.cu &
kernel_build fe .device-bin/s34e/quicksort.cu &
kernel_build fb .device-bin/s35b/quicksort.cu &
verify v3 240 1 1 classroom-examples/crcw_max.fork classroom-examples/farm_tasks.fork classroom-examples/groups.fork classroom-examples/list_ranking.fork classroom-examples/merge.fork classroom-examples/odd_even_sort.fork classroom-examples/pack.fork classroom-examples/prefix_blelloch.fork classroom-examples/quicksort.fork classroom-examples/quicksort_balanced.fork classroom-examples/reduce_fork.fork
mkdir -p $OUT/hazards
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/v3/logs/*.racecheck.log 2>/dev/null | head -4); do cp $f $OUT/hazards/; done
wait; at "built"
if timeout 30 /tmp/qb -p 4096 > $OUT/qb-probe.out 2>&1; then
    kernel_rounds 9 "-p 4096" qe qb fe fb
else
    echo "qb probe failed"; tail -5 $OUT/qb-probe.out
fi
at "rounds"
b l-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
