# Session 8: block regions from the lowered host program (regions cb11f04) against d1a8ce9, host schedule.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
t0=$(date +%s)
for c in d1a8ce9 cb11f04; do
  F=$PWD/.device-bin/ab/forkcc-$c
  timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-unchecked > $OUT/sieve-$c.txt 2>&1
  echo "$c sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep median $OUT/sieve-$c.txt
  timeout 60 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu > $OUT/prefix-$c.txt 2>&1
  echo "$c prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep median $OUT/prefix-$c.txt
  timeout 60 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu > $OUT/lr-$c.txt 2>&1
  echo "$c list_ranking rc=$? at $(( $(date +%s) - t0 )) s"; grep median $OUT/lr-$c.txt
  timeout 60 $F bench matmul --n 512 --procs 128 --runs 5 --backends gpu > $OUT/mm-$c.txt 2>&1
  echo "$c matmul rc=$? at $(( $(date +%s) - t0 )) s"; grep median $OUT/mm-$c.txt
done
