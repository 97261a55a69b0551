# Session 9: the study programs on both schedules, final8 (main at the start, 49e0077's parent tree) against NEW.
# Usage: NEW=name bash .device-bin/s9/bench.sh  (binaries in .device-bin/s9/forkcc-*)
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/machine.txt
for c in final8 $NEW; do
  F=$PWD/.device-bin/s9/forkcc-$c
  timeout 120 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device,seq --out $OUT/sieve-$c > $OUT/sieve-$c.txt 2>&1
  echo "$c sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median|gpu' $OUT/sieve-$c.txt | head -6
  timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device,cuda-hand --out $OUT/prefix-$c > $OUT/prefix-$c.txt 2>&1
  echo "$c prefix rc=$? at $(( $(date +%s) - t0 )) s"
  timeout 60 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/lr-$c > $OUT/lr-$c.txt 2>&1
  echo "$c list_ranking rc=$? at $(( $(date +%s) - t0 )) s"
  timeout 60 $F bench overhead --runs 5 --backends gpu,gpu-device --out $OUT/ov-$c > $OUT/ov-$c.txt 2>&1
  echo "$c overhead rc=$? at $(( $(date +%s) - t0 )) s"
done
