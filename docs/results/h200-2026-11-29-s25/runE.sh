# Session 25, device run E (s25e = 326d1cc + quicksort_balanced.fork and its bench entry):
# every classroom example's first case on the five backends with compute-sanitizer memcheck,
# racecheck and synccheck; the quicksort suite at 10^6, P = 4096 (quicksort.fork and
# quicksort_balanced.fork) on both schedules against the sequential leaf.
C=$PWD/.device-bin/s25e/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 330 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "classroom verify rc=$?"; report /tmp/v0 classroom
cat /tmp/v0/rows/san.* > $OUT/classroom-sanitizer.txt 2>/dev/null; wc -l < $OUT/classroom-sanitizer.txt
grep -v "rc=0 .* 0 error\|rc=0 .* 0 hazard" $OUT/classroom-sanitizer.txt | head -12
b qs 200 quicksort --n 1000000 --procs 4096 --backends gpu-device,gpu,seq --runs 3
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
