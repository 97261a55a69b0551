# Session 9: compute-sanitizer on the device schedule's .cu with block tasks (sieve with tasks for every group, quicksort at the default 32).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s9/forkcc-new; B=/tmp/san9; mkdir -p $B
$F build classroom-examples/sieve.fork -D N=1000 --emit cuda --schedule device -o $B/sieve.cu
nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MIN=2 $B/sieve.cu -o $B/sieve
$F build classroom-examples/quicksort.fork -D N=2000 --emit cuda --schedule device -o $B/qs.cu
nvcc -O2 -arch=sm_90 $B/qs.cu -o $B/qs
$F build classroom-examples/prefix_hillis_steele.fork -D N=1000 --emit cuda --schedule device -o $B/hs.cu
nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MIN=2 $B/hs.cu -o $B/hs
for b in sieve qs hs; do for tool in memcheck racecheck synccheck; do
  p=64; [ $tool = memcheck ] && p=1024
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $B/$b -p $p > $B/$b.$tool.log 2>&1
  echo "$b -p $p $tool rc=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' $B/$b.$tool.log)"
done; done
