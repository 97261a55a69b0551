export PATH=/usr/local/cuda-13.0/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
cd .device-bin/s13/lt
nvcc -O2 -arch=sm_90 -lineinfo qs.cu -o qs > $OUT/qs.nvcc.log 2>&1 &
nvcc -O2 -arch=sm_90 -lineinfo mm.cu -o mm > $OUT/mm.nvcc.log 2>&1 &
wait; echo "built at $SECONDS s"
timeout 150 compute-sanitizer --tool synccheck --show-backtrace device ./qs -p 8 > $OUT/qs.sync.log 2>&1 &
timeout 150 compute-sanitizer --tool synccheck --show-backtrace device ./mm -p 16 > $OUT/mm.sync.log 2>&1 &
wait; echo "ran at $SECONDS s"
for f in $OUT/*.sync.log; do echo "== $f"; grep -v "Host Frame\|Saved host" $f | head -24; done
