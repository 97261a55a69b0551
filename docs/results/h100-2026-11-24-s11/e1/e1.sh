# Session 11, experiment 1: runners per block of the persistent kernel (fk_device_runners).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s11/forkcc-b
mkdir -p $OUT/e1; t0=$(date +%s)
(cd .device-bin/s11/qs; for r in 256 128 64 32; do nvcc -O2 -arch=sm_90 -DFK_DEVICE_RUNNERS=$r qs-device.cu -o /tmp/qs-$r > $OUT/e1/nvcc-$r.txt 2>&1 & done; wait)
echo "nvcc done at $(( $(date +%s) - t0 )) s"; cat $OUT/e1/nvcc-32.txt | head -5
for r in 256 32 64 128; do
  s=$(date +%s%N); /tmp/qs-$r -p 4096 --timeout 100 > $OUT/e1/qs-$r.out 2>&1; rc=$?; e=$(date +%s%N)
  echo "FK_DEVICE_RUNNERS=$r rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $OUT/e1/qs-$r.out)"
done
timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device,seq --out $OUT/e1/sieve > $OUT/e1/sieve.txt 2>&1
echo "sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/e1/sieve.txt | head -3
timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/e1/prefix > $OUT/e1/prefix.txt 2>&1
echo "prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/e1/prefix.txt | head -6
timeout 40 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/e1/lr > $OUT/e1/lr.txt 2>&1
echo "lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/e1/lr.txt | head -3
timeout 130 $F run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats --timeout 100 > $OUT/e1/qs.out 2> $OUT/e1/qs.err
echo "quicksort driver rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/e1/qs.out; grep -E "time:|main|quicksort" $OUT/e1/qs.err | head -5
tar czf $OUT/e1.tgz -C $OUT e1
