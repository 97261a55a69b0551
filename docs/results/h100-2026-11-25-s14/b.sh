# Session 14: bench of the cyclic loops (029e4bd) on the programs they change, both schedules, medians of 5.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s14/forkcc-$BIN; D=$OUT/$NAME
mkdir -p $D; t0=$(date +%s)
run() { # name timeout args...
  n=$1; t=$2; shift 2
  timeout $t $F bench "$@" --out $D/$n > $D/$n.txt 2>&1
  echo "$n rc=$? at $(( $(date +%s) - t0 )) s"; grep -A8 '^program' $D/$n.txt | cut -c1-220
}
run prefix1024 100 prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device,cuda-hand,seq
run prefix65536 100 prefix --n 1048576 --procs 65536 --runs 5 --backends gpu,gpu-device,cuda-hand
run lr 60 list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device,seq
run sieve1024 60 sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device,seq
run qs 120 quicksort --n 1000000 --procs 4096 --runs 3 --backends gpu-device,seq
tar czf $OUT/$NAME.tgz -C $OUT $NAME
