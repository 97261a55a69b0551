# Session 24, device run F (the final code, s24f): every classroom example's first case on the
# five backends with compute-sanitizer memcheck, racecheck and synccheck (both schedules'
# nvcc binaries, checked and -DFK_CHECKS=0); every case of the programs with a multiprefix
# (tests/semantics/multiprefix_wide.fork, mpadd_order, mpmax_mpmin, pack, quicksort) on the
# five backends; quicksort 10^6 at P = 4096 before (s24b) and after (s24f) the one-cell
# multiprefix, and sieve 10^7 at P = 16,384 against its sequential baseline.
C=$PWD/.device-bin/s24f/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 320 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "classroom verify rc=$?"; report /tmp/v0 classroom
cat /tmp/v0/rows/san.* > $OUT/classroom-sanitizer.txt 2>/dev/null; wc -l < $OUT/classroom-sanitizer.txt
grep -v "rc=0 .* 0 error\|rc=0 .* 0 hazard" $OUT/classroom-sanitizer.txt | head -12
S=tests/semantics
FILES="$S/multiprefix_wide.fork $S/mpadd_order.fork $S/mpmax_mpmin.fork classroom-examples/pack.fork classroom-examples/quicksort.fork" SANITIZE=0 timeout 60 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "multiprefix verify rc=$?"; report /tmp/v1 multiprefix
b qs-after 110 quicksort --n 1000000 --procs 4096 --backends gpu-device,gpu,seq --runs 3
C=$PWD/.device-bin/s24b/forkcc
b qs-before 40 quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 3
C=$PWD/.device-bin/s24f/forkcc
b sieve 25 sieve --n 10000000 --procs 16384 --backends gpu,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
