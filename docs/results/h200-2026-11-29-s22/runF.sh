# Session 22, device run F (the final code): every classroom example's first case on the five
# backends with compute-sanitizer memcheck, racecheck and synccheck; every case of
# tests/semantics/loads_ahead.fork, of the grid_region_* programs and of the generator's
# programs with a loop that loads ahead (forkgen --seed 22000000 / 22100000, in
# .device-bin/s22f/gen/); the overhead suite's grid_barrier at 65,536 and 2^20 on both
# schedules; quicksort 10^6 at P = 4096.
C=$PWD/.device-bin/s22f/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=30 timeout 290 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "classroom verify rc=$?"; report /tmp/v0 classroom
cat /tmp/v0/rows/san.* > $OUT/classroom-sanitizer.txt 2>/dev/null; wc -l < $OUT/classroom-sanitizer.txt
grep -v "rc=0 .* 0 error\|rc=0 .* 0 hazard" $OUT/classroom-sanitizer.txt | head -12
FILES="tests/semantics/loads_ahead.fork $(ls tests/semantics/grid_region_*.fork .device-bin/s22f/gen/*.fork | tr '\n' ' ')" SANITIZE=0 timeout 90 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "loads-ahead verify rc=$?"; report /tmp/v1 loads-ahead
b overhead 40 overhead --program grid_barrier --procs 65536 --procs 1048576 --backends gpu,gpu-device --runs 5
b quicksort 40 quicksort --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
