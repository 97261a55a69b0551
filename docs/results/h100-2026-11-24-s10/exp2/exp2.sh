# Session 10: coalesced slot stacks (forkcc-coal), persistent block of 256 or 512 threads (FK_EXP_THREADS).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-coal
t0=$(date +%s)
for T in 256 512; do
  export FK_EXP_THREADS=$T
  timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 3 --backends gpu-device --out $OUT/b/sieve-$T > $OUT/b/sieve-$T.txt 2>&1
  echo "T=$T sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/b/sieve-$T.txt | head -3
  timeout 80 $F bench prefix --n 1048576 --procs 1024 --runs 3 --backends gpu-device --out $OUT/b/prefix-$T > $OUT/b/prefix-$T.txt 2>&1
  echo "T=$T prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/b/prefix-$T.txt | head -3
  timeout 40 $F bench list_ranking --n 65536 --procs 1024 --runs 3 --backends gpu-device --out $OUT/b/lr-$T > $OUT/b/lr-$T.txt 2>&1
  echo "T=$T lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/b/lr-$T.txt | head -3
  timeout 130 $F run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats --timeout 100 > $OUT/b/qs-$T.out 2> $OUT/b/qs-$T.err
  echo "T=$T quicksort rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/b/qs-$T.out; grep -E "kernel|main|quicksort|NVRTC|compile" $OUT/b/qs-$T.err | head -8
done
tar czf $OUT/b.tgz -C $OUT b
