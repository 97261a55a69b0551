# Session 11, experiment 4: where quicksort 10^6 (P = 4096, device schedule) spends its time (--trace, --stats); quicksort 10^7 with a 1 GiB heap.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s11/forkcc-e
mkdir -p $OUT/e4; t0=$(date +%s)
(cd .device-bin/s11/qs; nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=1073741824 qs7-device.cu -o /tmp/qs7 > $OUT/e4/nvcc-qs7.txt 2>&1) &
timeout 200 $F run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats --trace $OUT/e4/qs.json --timeout 100 > $OUT/e4/qs.out 2> $OUT/e4/qs.err
echo "quicksort trace rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/e4/qs.out; grep -E "time:|main|quicksort|instances" $OUT/e4/qs.err | head -6
wait
s=$(date +%s%N); /tmp/qs7 -p 4096 --timeout 200 > $OUT/e4/qs7.out 2>&1; rc=$?; e=$(date +%s%N)
echo "quicksort 10^7 .cu (1 GiB heap) rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -2 $OUT/e4/qs7.out)"
gzip -9 $OUT/e4/qs.json; ls -la $OUT/e4
tar czf $OUT/e4.tgz -C $OUT e4
