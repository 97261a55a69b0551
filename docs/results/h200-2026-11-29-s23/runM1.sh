# Session 23, device run M1 (the final code): every classroom example's first case on the five
# backends with compute-sanitizer memcheck, racecheck and synccheck (both schedules' nvcc
# binaries, checked and -DFK_CHECKS=0); every case of the grid_region_* programs and of
# tests/semantics/loads_ahead.fork on the five backends.
C=$PWD/.device-bin/s23f/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=30 timeout 330 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "classroom verify rc=$?"; report /tmp/v0 classroom
cat /tmp/v0/rows/san.* > $OUT/classroom-sanitizer.txt 2>/dev/null; wc -l < $OUT/classroom-sanitizer.txt
grep -v "rc=0 .* 0 error\|rc=0 .* 0 hazard" $OUT/classroom-sanitizer.txt | head -12
FILES="tests/semantics/loads_ahead.fork $(ls tests/semantics/grid_region_*.fork | tr '\n' ' ')" SANITIZE=0 timeout 90 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "grid regions verify rc=$?"; report /tmp/v1 grid-regions
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
