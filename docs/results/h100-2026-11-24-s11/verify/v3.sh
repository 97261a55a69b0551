# Session 11, after the straight-rec merge: every case of tests/random and of the rules programs rule6* on the GPU (both schedules, driver and nvcc), and sieve's bench (did the trace records cost time?).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
t0=$(date +%s)
BIN=$BIN bash .device-bin/s11/v.sh s11c $LIMIT 0 0 tests/random/*.fork transform/tests/rules/rule6*.fork
F=$PWD/.device-bin/s11/forkcc-$BIN
timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/sieve > $OUT/sieve.txt 2>&1
echo "sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/sieve.txt | head -3
