# Session 10: FK_REGION_TASK_MIN on quicksort 10^6, P = 4096, the device schedule's standalone .cu (nvcc -O2).
export PATH=/usr/local/cuda-13.0/bin:$PATH
mkdir -p $OUT/t; cd .device-bin/s10/qs
for m in 16 32 64 128; do nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MIN=$m qs-device.cu -o /tmp/qs-$m > $OUT/t/nvcc-$m.txt 2>&1 & done; wait
for m in 16 32 64 128; do
  s=$(date +%s.%N); /tmp/qs-$m -p 4096 --timeout 100 > $OUT/t/qs-$m.out 2>&1; rc=$?; e=$(date +%s.%N)
  echo "FK_REGION_TASK_MIN=$m rc=$rc wall $(echo "$e - $s" | bc) s: $(head -1 $OUT/t/qs-$m.out)"
done
