# Session 10: quicksort 10^6, P = 4096, device schedule: the checks' share (--unchecked) and contiguous subgroups (fork @ = 2$$/groupsize()).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-half
mkdir -p $OUT/e; t0=$(date +%s)
timeout 130 $F run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats --unchecked --timeout 100 > $OUT/e/qs-unchecked.out 2> $OUT/e/qs-unchecked.err
echo "unchecked rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/e/qs-unchecked.out; grep -E "time:|main|quicksort" $OUT/e/qs-unchecked.err | head -5
timeout 130 $F run .device-bin/s10/qs/quicksort_contiguous.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats --timeout 100 > $OUT/e/qs-contiguous.out 2> $OUT/e/qs-contiguous.err
echo "contiguous rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/e/qs-contiguous.out; grep -E "time:|main|quicksort" $OUT/e/qs-contiguous.err | head -5
