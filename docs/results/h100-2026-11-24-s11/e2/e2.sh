# Session 11, experiment 2: the checks' per-site object (fk_at_seen) on quicksort, FK_REGION_TASK_MIN with the new runners, matmul 2048 and the overhead suite at 65,536.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s11/forkcc-c
mkdir -p $OUT/e2; t0=$(date +%s)
(cd .device-bin/s11/qs; for m in 4 8 16; do nvcc -O2 -arch=sm_90 -DFK_REGION_TASK_MIN=$m qs-device.cu -o /tmp/qs-$m > $OUT/e2/nvcc-$m.txt 2>&1 & done
 nvcc -O2 -arch=sm_90 -DFK_CHECKS=0 qs-device.cu -o /tmp/qs-unchecked > $OUT/e2/nvcc-unchecked.txt 2>&1 & wait)
echo "nvcc done at $(( $(date +%s) - t0 )) s"; cat $OUT/e2/nvcc-16.txt | head -5
for m in 16 8 4 unchecked; do
  s=$(date +%s%N); /tmp/qs-$m -p 4096 --timeout 100 > $OUT/e2/qs-$m.out 2>&1; rc=$?; e=$(date +%s%N)
  echo "quicksort .cu $m rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $OUT/e2/qs-$m.out)"
done
timeout 150 $F bench matmul --n 2048 --procs 4194304 --runs 3 --backends gpu,gpu-device,cuda-hand --out $OUT/e2/matmul > $OUT/e2/matmul.txt 2>&1
echo "matmul rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median|error' $OUT/e2/matmul.txt | head -6
timeout 120 $F bench overhead --procs 65536 --runs 3 --backends gpu,gpu-device --out $OUT/e2/ov > $OUT/e2/ov.txt 2>&1
echo "overhead rc=$? at $(( $(date +%s) - t0 )) s"; tail -12 $OUT/e2/ov.txt
tar czf $OUT/e2.tgz -C $OUT e2
