# Session 19, device run 2: (1) Hillis–Steele after the guarded ranged loops (a condition
# `k >= b` bounds the range of the accesses it guards), against the hand-written kernels;
# (2) where a block region's step goes: bench/overhead/barrier.fork on the host schedule at
# P = 1 and 32, per iteration (N = 1100 less N = 100, over 1000), checked, --crcw arbitrary,
# --unchecked, and loop.fork; then Nsight Compute's per-instruction stall samples of the
# region kernel (the nvcc-built .cu, -lineinfo) at P = 32.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s19/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
timeout 150 $C bench prefix --n 1048576 --procs 1024 --procs 65536 --runs 5 \
    --backends gpu,gpu-unchecked,cuda-hand --out $OUT/prefix > $OUT/prefix.txt 2>&1
at "prefix rc=$?"; rm -f $OUT/prefix/*.svg; grep -A30 "^program" $OUT/prefix.txt | head -30
for prog in barrier loop; do
  for p in 1 32; do
    for variant in "" "--crcw arbitrary" "--unchecked"; do
      for n in 100 1100; do
        printf '%s P=%s N=%s %s: ' $prog $p $n "$variant"
        timeout 30 $C run bench/overhead/$prog.fork -p $p -D N=$n --backend gpu $variant --stats 2>&1 | grep -E "^  main " | tr -s ' ' | tr '\n' ' '
        echo
      done
    done
  done
done > $OUT/variants.txt 2>&1
at variants; cat $OUT/variants.txt
mkdir -p /tmp/prof && cd /tmp/prof
$C build $OLDPWD/bench/overhead/barrier.fork -D N=1100 --emit cuda -o b.cu && nvcc -O2 -arch=sm_90 -lineinfo b.cu -o b
at build
timeout 120 ncu --clock-control none --kernel-name regex:r0_ --section WarpStateStats --section SourceCounters --section LaunchStats ./b -p 32 > $OUT/ncu-sections.txt 2>&1
at "ncu sections rc=$?"; grep -v "^==PROF==" $OUT/ncu-sections.txt | tail -60
timeout 120 ncu --clock-control none --kernel-name regex:r0_ --section SourceCounters --section WarpStateStats --page source --print-source sass --csv ./b -p 32 > /tmp/prof/src.csv 2>/tmp/prof/src.err
at "ncu source rc=$?"; tail -3 /tmp/prof/src.err; head -c 600 /tmp/prof/src.csv; echo
gzip -c /tmp/prof/src.csv > $OUT/src.csv.gz; ls -la $OUT/src.csv.gz
