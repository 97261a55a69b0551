# Session 10: Hillis-Steele and sieve on both schedules after FkTrace::regions (forkcc-m2 = 852c9eb).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-m2
mkdir -p $OUT/bb; t0=$(date +%s)
timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/bb/sieve > $OUT/bb/sieve.txt 2>&1
echo "sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/bb/sieve.txt | head -3
timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/bb/prefix > $OUT/bb/prefix.txt 2>&1
echo "prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/bb/prefix.txt | head -6
