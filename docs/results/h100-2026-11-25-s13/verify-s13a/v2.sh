# Session 13, verification of main 7441444: the GPU trace test, then every classroom case with compute-sanitizer.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
t0=$(date +%s)
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
mkdir -p target/release && cp .device-bin/s13/forkcc-$BIN target/release/forkcc
timeout 240 .device-bin/s13/gpu_trace > $OUT/gpu_trace.log 2>&1
echo "gpu_trace rc=$? at $(( $(date +%s) - t0 )) s"; grep -E '^test |test result' $OUT/gpu_trace.log | cut -c1-150
bash .device-bin/s13/v.sh s13a $LIMIT 1 0 classroom-examples/*.fork
echo "all at $(( $(date +%s) - t0 )) s"
