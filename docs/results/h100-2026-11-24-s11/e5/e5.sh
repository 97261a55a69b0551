# Session 11, experiment 5: FK_REGION_TASK_MAX, the largest group that runs a region of synchronous kernels on one block (device schedule).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
mkdir -p $OUT/e5; t0=$(date +%s)
cd .device-bin/s11/qs
for m in 1024 2048 4096; do nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MAX=$m qs-device.cu -o /tmp/qs-$m > $OUT/e5/nvcc-qs-$m.txt 2>&1 & done
for m in 1024 4096; do nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MAX=$m sieve-device.cu -o /tmp/sieve-$m > $OUT/e5/nvcc-sieve-$m.txt 2>&1 &
  nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MAX=$m hs-device.cu -o /tmp/hs-$m > $OUT/e5/nvcc-hs-$m.txt 2>&1 & done; wait
echo "nvcc done at $(( $(date +%s) - t0 )) s"
for m in 1024 2048 4096 1024 4096; do
  s=$(date +%s%N); /tmp/qs-$m -p 4096 --timeout 100 > $OUT/e5/qs-$m.out 2>&1; rc=$?; e=$(date +%s%N)
  echo "quicksort 10^6 P=4096 TASK_MAX $m rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $OUT/e5/qs-$m.out)"
done
for prog in sieve hs; do for m in 1024 4096 1024 4096; do
  s=$(date +%s%N); /tmp/$prog-$m -p 4096 --timeout 60 > $OUT/e5/$prog-$m.out 2>&1; rc=$?; e=$(date +%s%N)
  echo "$prog P=4096 TASK_MAX $m rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -c 100 $OUT/e5/$prog-$m.out | head -1)"
done; done
cd $OUT && tar czf e5.tgz e5
