# Session 13: racecheck of quicksort.1 (-p 8 -D N=1000) under the device schedule, checked and unchecked, with a longer cap than gpu-verify's 120 s.
export PATH=/usr/local/cuda-13.0/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
cd .device-bin/s13/lt
nvcc -O2 -arch=sm_90 qs.cu -o qs > $OUT/qs.nvcc.log 2>&1 &
nvcc -O2 -arch=sm_90 -DFK_CHECKS=0 qs.cu -o qs.unchecked > $OUT/qsu.nvcc.log 2>&1 &
wait; echo "built at $SECONDS s"
( time timeout 500 compute-sanitizer --tool racecheck --error-exitcode 99 ./qs -p 8 ) > $OUT/qs.racecheck.log 2>&1 &
( time timeout 500 compute-sanitizer --tool racecheck --error-exitcode 99 ./qs.unchecked -p 8 ) > $OUT/qs.unchecked.racecheck.log 2>&1 &
wait; echo "ran at $SECONDS s"
tail -8 $OUT/qs.racecheck.log $OUT/qs.unchecked.racecheck.log
