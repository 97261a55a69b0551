# Session 15: bench of the grid regions on the programs they change, both schedules, medians of 5.
# BIN=X NAME=bN bash b.sh  (in the repository root on the H100 machine; $OUT from the device tool)
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s15/forkcc-$BIN; D=$OUT/$NAME
mkdir -p $D; t0=$(date +%s)
run() { # name timeout args...
  n=$1; t=$2; shift 2
  timeout $t $F bench "$@" --out $D/$n > $D/$n.txt 2>&1
  echo "$n rc=$? at $(( $(date +%s) - t0 )) s"; grep -A8 '^program' $D/$n.txt | cut -c1-220
}
for row in ${ROWS:-prefix1024 prefix65536 lr sieve1024 sieve65536 qs}; do
  case $row in
    prefix1024) run prefix1024 100 prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-unchecked,gpu-device,cuda-hand,seq ;;
    prefix65536) run prefix65536 100 prefix --n 1048576 --procs 65536 --runs 5 --backends gpu,gpu-unchecked,gpu-device,cuda-hand ;;
    lr) run lr 60 list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-unchecked,gpu-device,seq ;;
    sieve1024) run sieve1024 60 sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-unchecked,gpu-device,seq ;;
    sieve65536) run sieve65536 90 sieve --n 10000000 --procs 65536 --runs 5 --backends gpu,gpu-unchecked,seq ;;
    qs) run qs 120 quicksort --n 1000000 --procs 4096 --runs 3 --backends gpu-device,seq ;;
  esac
done
tar czf $OUT/$NAME.tgz -C $OUT $NAME
