# Session 39, device run C: the final verification with blocks of 384 threads for the
# persistent kernel of a program with a grid region (the binary and the tree as handed in,
# README.md names the commit): the README's quick start on the GPU; bench rows on both
# schedules of the three programs with a grid region (sieve 10^7 at P = 1024 and 16,384,
# Hillis-Steele 2^20 at 1024 and 65,536, list ranking 2^18 at 65,536) and quicksort_balanced
# 10^6 at P = 4096 (blocks of 640, unchanged); every classroom example's first case and five
# semantics programs with the sanitizer (v1); every case of the three (v2).
C=$PWD/.device-bin/s39/forkcc; . scripts/results-lib.sh
timeout 60 "$C" run classroom-examples/quicksort.fork -p 32 -D N=2000 > "$OUT/quickstart.txt" 2>&1
at "quickstart rc=$?"; tail -3 "$OUT/quickstart.txt"
b c-sieve 60 sieve --n 10000000 --procs 1024 --procs 16384 --backends gpu,gpu-device --runs 5
b c-hs 60 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --procs 65536 --backends gpu,gpu-device --runs 5
b c-lr 60 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
b c-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
verify v1 300 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork tests/semantics/gang_exit_waits.fork
mkdir -p $OUT/hazards
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/v1/logs/*.racecheck.log 2>/dev/null | head -4); do cp $f $OUT/hazards/; done
verify v2 120 0 0 classroom-examples/sieve.fork classroom-examples/prefix_hillis_steele.fork classroom-examples/list_ranking.fork
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
