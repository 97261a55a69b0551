# Session 10: quicksort with T=256 threads and 128 registers (does the register cap or the block count cost?), and the overhead suite.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-coal2
mkdir -p $OUT/c; t0=$(date +%s)
FK_EXP_THREADS=256 FK_EXP_REGS=128 timeout 130 $F run classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats --timeout 100 > $OUT/c/qs-256-r128.out 2> $OUT/c/qs-256-r128.err
echo "quicksort T=256 regs=128 rc=$? at $(( $(date +%s) - t0 )) s"; cat $OUT/c/qs-256-r128.out; grep -E "time:|main|quicksort" $OUT/c/qs-256-r128.err | head -5
timeout 250 $F bench overhead --runs 5 --backends gpu,gpu-device --out $OUT/c/ov > $OUT/c/ov.txt 2>&1
echo "overhead rc=$? at $(( $(date +%s) - t0 )) s"; grep -v "^ " $OUT/c/ov.txt | head -40
tar czf $OUT/c.tgz -C $OUT c
