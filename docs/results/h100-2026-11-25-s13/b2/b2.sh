# Session 13, bench of the final tree (uniform conditions) on the programs it changes: both schedules, medians of 5.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s13/forkcc-$BIN; D=$OUT/$NAME
mkdir -p $D; t0=$(date +%s)
for p in 1024 256 4096; do
timeout 60 $F bench sieve --n 10000000 --procs $p --runs 5 --backends gpu,gpu-device,seq --out $D/sieve$p > $D/sieve$p.txt 2>&1
echo "sieve P=$p rc=$? at $(( $(date +%s) - t0 )) s"; grep -A4 '^program' $D/sieve$p.txt | cut -c1-200
done
timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device,cuda-hand --out $D/prefix > $D/prefix.txt 2>&1
echo "prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -A6 '^program' $D/prefix.txt | cut -c1-200
timeout 40 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device --out $D/lr > $D/lr.txt 2>&1
echo "lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -A4 '^program' $D/lr.txt | cut -c1-200
tar czf $OUT/$NAME.tgz -C $OUT $NAME
