# Session 8: main (c5a7af9) against cus2 (e29a838: cuspeed with fk_s_* and fk_mp_lanes inlined).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
t0=$(date +%s)
TIMEFORMAT='%U %S %R'
for c in main cus2; do
  F=$PWD/.device-bin/ab/forkcc-$c
  for s in host device; do
    tot=0
    for f in classroom-examples/*.fork; do
      { time $F build $f --emit ptx --schedule $s -o /dev/null 2>/dev/null; } 2>> $OUT/ptx-$c-$s.txt &
    done; wait
    echo "$c $s ptx: $(awk '{u+=$1; s+=$2} END {printf "%.1f CPU s over %d programs", u+s, NR}' $OUT/ptx-$c-$s.txt)"
  done
done
echo "compiles done at $(( $(date +%s) - t0 )) s"
for c in main cus2; do
  F=$PWD/.device-bin/ab/forkcc-$c
  timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 3 --backends gpu,gpu-device,gpu-unchecked > $OUT/sieve-$c.txt 2>&1
  echo "$c sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep median $OUT/sieve-$c.txt
  timeout 60 $F bench prefix --n 1048576 --procs 1024 --runs 3 --backends gpu,gpu-device > $OUT/prefix-$c.txt 2>&1
  echo "$c prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep median $OUT/prefix-$c.txt
  timeout 60 $F bench list_ranking --n 65536 --procs 1024 --runs 3 --backends gpu,gpu-device > $OUT/lr-$c.txt 2>&1
  echo "$c list_ranking rc=$? at $(( $(date +%s) - t0 )) s"; grep median $OUT/lr-$c.txt
  timeout 90 $F bench overhead --backends gpu-device --procs 1 --procs 32 --runs 3 > $OUT/overhead-$c.txt 2>&1
  echo "$c overhead rc=$? at $(( $(date +%s) - t0 )) s"; sed -n '/^cost per step/,/^wrote/p' $OUT/overhead-$c.txt
done
