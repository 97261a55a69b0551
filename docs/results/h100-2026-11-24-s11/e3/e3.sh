# Session 11, experiment 3: FK_REGION_TASK_MIN 2-4 on quicksort; runners 256 against 512 (a whole block) on matmul 2048, P = N^2.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
mkdir -p $OUT/e3; t0=$(date +%s)
(cd .device-bin/s11/qs; for m in 2 3 4; do nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MIN=$m qs-device.cu -o /tmp/qs-$m > $OUT/e3/nvcc-qs-$m.txt 2>&1 & done
 cd ../mm; for r in 256 512; do nvcc -O2 -arch=sm_90 -DFK_DEVICE_RUNNERS=$r mm-device.cu -o /tmp/mm-$r > $OUT/e3/nvcc-mm-$r.txt 2>&1 & done
 nvcc -O2 -arch=sm_90 mm-host.cu -o /tmp/mm-host > $OUT/e3/nvcc-mm-host.txt 2>&1 & wait)
echo "nvcc done at $(( $(date +%s) - t0 )) s"
for m in 4 3 2 4; do
  s=$(date +%s%N); /tmp/qs-$m -p 4096 --timeout 100 > $OUT/e3/qs-$m.out 2>&1; rc=$?; e=$(date +%s%N)
  echo "quicksort .cu TASK_MIN $m rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $OUT/e3/qs-$m.out)"
done
for r in 256 512 host 256 512 host; do
  s=$(date +%s%N); /tmp/mm-$r -p 4194304 --timeout 100 > $OUT/e3/mm-$r.out 2>&1; rc=$?; e=$(date +%s%N)
  echo "matmul 2048 .cu $r rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $OUT/e3/mm-$r.out)"
done
tar czf $OUT/e3.tgz -C $OUT e3
