# Session 10, after the merges: the study programs on both schedules (forkcc-m1 = main 67da9fd), and quicksort 10^6 checked.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-m1
mkdir -p $OUT/a; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/a/machine.txt
timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device,seq --out $OUT/a/sieve > $OUT/a/sieve.txt 2>&1
echo "sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/a/sieve.txt | head -3
timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device,cuda-hand --out $OUT/a/prefix > $OUT/a/prefix.txt 2>&1
echo "prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/a/prefix.txt | head -6
timeout 40 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/a/lr > $OUT/a/lr.txt 2>&1
echo "lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/a/lr.txt | head -3
for s in device host; do
timeout 130 $F run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule $s --stats --timeout 110 > $OUT/a/qs-$s.out 2> $OUT/a/qs-$s.err
echo "quicksort $s rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/a/qs-$s.out; grep -E "time:|main|quicksort" $OUT/a/qs-$s.err | head -5
done
tar czf $OUT/a.tgz -C $OUT a
