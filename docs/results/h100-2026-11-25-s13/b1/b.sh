# Session 13, bench after order-free loops, aligned team barriers and the assignment order: both schedules, medians of 5 (matmul, overhead: 3).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s13/forkcc-$BIN; D=$OUT/$NAME
mkdir -p $D; t0=$(date +%s)
timeout 120 $F bench quicksort --n 1000000 --procs 4096 --runs 5 --backends gpu-device,seq --out $D/qs > $D/qs.txt 2>&1
echo "quicksort rc=$? at $(( $(date +%s) - t0 )) s"; grep -A4 '^program' $D/qs.txt | cut -c1-220
timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device,seq --out $D/sieve > $D/sieve.txt 2>&1
echo "sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -A4 '^program' $D/sieve.txt | cut -c1-220
timeout 90 $F bench sieve --n 10000000 --procs 65536 --runs 5 --backends gpu,gpu-device --out $D/sieve64k > $D/sieve64k.txt 2>&1
echo "sieve 64k rc=$? at $(( $(date +%s) - t0 )) s"; grep -A4 '^program' $D/sieve64k.txt | cut -c1-220
timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device,cuda-hand --out $D/prefix > $D/prefix.txt 2>&1
echo "prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -A6 '^program' $D/prefix.txt | cut -c1-220
timeout 40 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device --out $D/lr > $D/lr.txt 2>&1
echo "lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -A4 '^program' $D/lr.txt | cut -c1-220
timeout 120 $F bench matmul --n 2048 --procs 4194304 --runs 3 --backends gpu,gpu-device,cuda-hand --out $D/matmul > $D/matmul.txt 2>&1
echo "matmul rc=$? at $(( $(date +%s) - t0 )) s"; grep -A5 '^program' $D/matmul.txt | cut -c1-220
timeout 100 $F bench overhead --procs 65536 --runs 3 --backends gpu,gpu-device --out $D/ov > $D/ov.txt 2>&1
echo "overhead rc=$? at $(( $(date +%s) - t0 )) s"; tail -12 $D/ov.txt | cut -c1-160
tar czf $OUT/$NAME.tgz -C $OUT $NAME
