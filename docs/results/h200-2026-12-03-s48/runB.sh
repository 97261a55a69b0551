# Session 48, device run B: run A's loads ahead batch (a fixed 8 or 16 iterations, else one at
# a time) against a batch of up to N iterations, fewer at a loop's end (c8, c16: N = 8, 16;
# several stores as in run A). Hillis-Steele 2^20 at P = 65,536 and 1024, list ranking 2^18 at
# 65,536 (4 iterations a member), quicksort_balanced 10^6 at 4096, sieve 10^7 at 16,384,
# both schedules where both run; then c16's classroom first cases with compute-sanitizer.
. scripts/results-lib.sh
for v in base c8 c16; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device --runs 5
    b lr-$v 60 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
    b qsb-$v 60 quicksort --program quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
done
for v in base c16; do
    C=$PWD/.device-bin/$v/forkcc
    b sv-$v 60 sieve --n 10000000 --procs 16384 --backends gpu,gpu-device --runs 5
done
C=$PWD/.device-bin/c16/forkcc
verify v1 230 1 1 classroom-examples/*.fork tests/semantics/loads_ahead.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
