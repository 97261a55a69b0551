# Session 48, device run A: how many iterations an order-free loop loads ahead (8, the base
# c4edeb29, against 16), and loads ahead for a body of several stores (m8: 8 iterations,
# m16: 16). Hillis-Steele 2^20 at P = 65,536 and 1024, list ranking 2^18 and sieve 10^7,
# both schedules, base and m16 twice; then quicksort and quicksort_balanced 10^6 at
# P = 4096 against the simulator on this machine (issue 10's 100x row); then m16's
# classroom first cases of the three programs and tests/semantics/loads_ahead.fork with
# compute-sanitizer.
. scripts/results-lib.sh
for i in 1 2; do for v in base m16; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v-$i 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device --runs 5
done; done
C=$PWD/.device-bin/m8/forkcc
b hs-m8 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device,cuda-hand --runs 5
for v in base m8 m16; do
    C=$PWD/.device-bin/$v/forkcc
    b lr-$v 60 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
done
for v in base m16; do
    C=$PWD/.device-bin/$v/forkcc
    b sv-$v 60 sieve --n 10000000 --procs 16384 --backends gpu,gpu-device --runs 5
done
C=$PWD/.device-bin/m16/forkcc
b qs 200 quicksort --n 1000000 --procs 4096 --backends gpu-device,sim,seq --runs 5
verify v1 150 1 1 classroom-examples/sieve.fork classroom-examples/prefix_hillis_steele.fork classroom-examples/list_ranking.fork tests/semantics/loads_ahead.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
