# Session 38, device run A: the final verification of the tree that session 37 handed in
# (2e94845f; its GPU code is session 35's s35b, its NVRTC options for the runtime unchanged):
# the README's quick start on the GPU; the bench rows of quicksort_balanced 10^6 at P = 4096,
# sieve 10^7 and Hillis-Steele 2^20 at P = 1024 on both schedules; every classroom example's
# first case and five semantics programs with the sanitizer (v1).
C=$PWD/.device-bin/s38/forkcc; . scripts/results-lib.sh
timeout 60 "$C" run classroom-examples/quicksort.fork -p 32 -D N=2000 > "$OUT/quickstart.txt" 2>&1
at "quickstart rc=$?"; tail -3 "$OUT/quickstart.txt"
b a-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
b a-sieve 45 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
b a-hs 45 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --backends gpu,gpu-device --runs 5
verify v1 300 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork tests/semantics/gang_exit_waits.fork
mkdir -p $OUT/hazards
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/v1/logs/*.racecheck.log 2>/dev/null | head -4); do cp $f $OUT/hazards/; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
