# Session 12, a quick bench: quicksort (device), sieve, list ranking, prefix sums.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s12/forkcc-$BIN; D=$OUT/$NAME; mkdir -p $D; t0=$(date +%s)
timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device --out $D/sieve > $D/sieve.txt 2>&1
echo "sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -A3 '^program' $D/sieve.txt | cut -c1-150
timeout 40 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu-device --out $D/lr > $D/lr.txt 2>&1
echo "lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -A3 '^program' $D/lr.txt | cut -c1-150
timeout 80 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu-device --out $D/prefix > $D/prefix.txt 2>&1
echo "prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -A3 '^program' $D/prefix.txt | cut -c1-150
timeout 120 $F bench quicksort --n 1000000 --procs 4096 --runs 5 --backends gpu-device --out $D/qs > $D/qs.txt 2>&1
echo "quicksort rc=$? at $(( $(date +%s) - t0 )) s"; grep -A3 '^program' $D/qs.txt | cut -c1-150
tar czf $OUT/$NAME.tgz -C $OUT $NAME
