# Session 48, device run C: loads ahead as kept (r16: 16 iterations at a time while 16 run,
# then the rest as the unrolled loop that does not load ahead; a body of several stores too)
# (the base c4edeb29 as measured in runs A and B, which agreed within 1%; the session's device
# time left no room for it here): Hillis-Steele 2^20 at P = 65,536 and 1024, list ranking 2^18
# at 65,536, quicksort_balanced 10^6 at 4096; then r16's first cases of the programs whose
# loops load ahead with compute-sanitizer (v1), and every classroom example's first case (v2).
. scripts/results-lib.sh
for v in r16; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 50 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device --runs 5
    b lr-$v 50 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
    b qsb-$v 50 quicksort --program quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
done
C=$PWD/.device-bin/r16/forkcc
verify v1 100 1 1 classroom-examples/prefix_hillis_steele.fork classroom-examples/list_ranking.fork classroom-examples/quicksort_balanced.fork tests/semantics/loads_ahead.fork
verify v2 100 1 0 classroom-examples/*.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
