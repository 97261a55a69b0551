# Session 10, final tree: the overhead suite at P = 1, 32, 1024 (both schedules, runs 3).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-final; t0=$(date +%s)
timeout 400 $F bench overhead --procs 1 --procs 32 --procs 1024 --runs 3 --backends gpu,gpu-device --out $OUT/ov > $OUT/ov.txt 2>&1
echo "overhead rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/ov.txt | tail -40
