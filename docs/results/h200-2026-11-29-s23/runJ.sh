# Session 23, device run J (834c639): the programs with grid regions (every case of the
# Hillis–Steele, sieve and list ranking examples and of the grid_region_* programs) and with
# calls on the five backends; the Hillis–Steele, sieve and list ranking rows on both
# schedules.
C=$PWD/.device-bin/s23d/forkcc; . scripts/results-lib.sh
S=tests/semantics
FILES="classroom-examples/prefix_hillis_steele.fork classroom-examples/sieve.fork classroom-examples/list_ranking.fork $(ls $S/grid_region_*.fork | tr '\n' ' ') $S/async_call_from_sync.fork $S/private_return.fork $S/private_return_in_loop.fork $S/seqpoint_call.fork $S/sh_argument_exclusive_write.fork $S/sync_recursion.fork" SANITIZE=0 timeout 150 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "verify rc=$?"; report /tmp/v1 verify
b prefix 70 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device,cuda-hand --runs 5
b sieve 60 sieve --n 10000000 --procs 1024 --procs 16384 --backends gpu,gpu-device,seq --runs 5
b list_ranking 60 list_ranking --procs 65536 --backends gpu,gpu-device,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
