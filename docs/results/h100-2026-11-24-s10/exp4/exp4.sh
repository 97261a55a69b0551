# Session 10: persistent kernel of 512 threads, half of them running processors (forkcc-half), both schedules.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-half
mkdir -p $OUT/d; t0=$(date +%s)
timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device,seq --out $OUT/d/sieve > $OUT/d/sieve.txt 2>&1
echo "sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/d/sieve.txt | head -3
timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device,cuda-hand --out $OUT/d/prefix > $OUT/d/prefix.txt 2>&1
echo "prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/d/prefix.txt | head -6
timeout 40 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/d/lr > $OUT/d/lr.txt 2>&1
echo "lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/d/lr.txt | head -3
timeout 130 $F run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats --timeout 100 > $OUT/d/qs.out 2> $OUT/d/qs.err
echo "quicksort rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/d/qs.out; grep -E "time:|main|quicksort" $OUT/d/qs.err | head -5
tar czf $OUT/d.tgz -C $OUT d
