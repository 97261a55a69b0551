# Session 10 experiment: the persistent kernel's block size (FK_EXP_THREADS, maxrregcount 65536/T).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-exp
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/machine.txt
for T in 256 1024 512; do
  export FK_EXP_THREADS=$T
  timeout 100 $F bench sieve --n 10000000 --procs 1024 --runs 3 --backends gpu-device --out $OUT/sieve-$T > $OUT/sieve-$T.txt 2>&1
  echo "T=$T sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/sieve-$T.txt | head -3
  timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 3 --backends gpu-device --out $OUT/prefix-$T > $OUT/prefix-$T.txt 2>&1
  echo "T=$T prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/prefix-$T.txt | head -3
  timeout 60 $F bench list_ranking --n 65536 --procs 1024 --runs 3 --backends gpu-device --out $OUT/lr-$T > $OUT/lr-$T.txt 2>&1
  echo "T=$T lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/lr-$T.txt | head -3
done
