# Session 14: racecheck of quicksort.1 (-p 8 -D N=1000) under the device schedule, checked and unchecked, capped at 400 s; then the tests/random, tests/semantics and tests/cpu_plan programs new or changed this session on five backends.
export PATH=/usr/local/cuda-13.0/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
R=$PWD
cd .device-bin/s14/lt
nvcc -O2 -arch=sm_90 qs.cu -o qs > $OUT/qs.nvcc.log 2>&1 &
nvcc -O2 -arch=sm_90 -DFK_CHECKS=0 qs.cu -o qs.unchecked > $OUT/qsu.nvcc.log 2>&1 &
wait; echo "built at $SECONDS s"
( time timeout 400 compute-sanitizer --tool racecheck --error-exitcode 99 ./qs -p 8 ) > $OUT/qs.racecheck.log 2>&1 &
( time timeout 400 compute-sanitizer --tool racecheck --error-exitcode 99 ./qs.unchecked -p 8 ) > $OUT/qs.unchecked.racecheck.log 2>&1 &
cd $R
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
FILES="$FILES" JOBS=12 SANITIZE=0 timeout 380 scripts/gpu-verify.sh .device-bin/s14/forkcc-$BIN /tmp/v3 > $OUT/verify-v3.log 2>&1
echo "verify rc=$? at $SECONDS s"; cp /tmp/v3/summary.txt $OUT/summary-v3.txt 2>/dev/null; cp /tmp/v3/progress.txt $OUT/progress-v3.txt
wait; echo "ran at $SECONDS s"
tail -4 $OUT/qs.racecheck.log; tail -4 $OUT/qs.unchecked.racecheck.log
sed -n '/^cases:/,/^$/p' /tmp/v3/summary.txt; grep -v ' ok  *ok  *ok  *ok  *ok' /tmp/v3/progress.txt | grep -v 'n/a' | head
