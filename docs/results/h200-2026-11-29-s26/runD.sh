# Session 26, device run D: session 25's runtime (bd9f978), the device schedule's .cu of
# quicksort_balanced (N = 10^6, 256 MiB heap, -lineinfo): the partition loop's helpers
# stamped (stamp_helpers.py, `op`), twice; then Nsight Compute's source counters (warp stall
# samples per source line of the .cu) of the unstamped build (`o`).
C=$PWD/.device-bin/s26b/forkcc; . scripts/results-lib.sh
D=$PWD/.device-bin/s26d
mkdir -p /tmp/emu && cp $D/qsb_orig.cu /tmp/emu/
for v in op o; do nvcc -arch=sm_90 -o /tmp/$v $D/$v.o; done
for i in 1 2; do t=$(date +%s%N); timeout 30 /tmp/op -p 4096 > $OUT/op-$i.out 2> $OUT/op-$i.err; at "op $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/op-$i.err; done
timeout 240 ncu --clock-control none -k regex:fk_device_run --section SourceCounters --section WarpStateStats -o $OUT/qsb /tmp/o -p 4096 > $OUT/ncu.log 2>&1
at "ncu rc=$?"; tail -3 $OUT/ncu.log
ncu --import $OUT/qsb.ncu-rep --page source --csv --print-source cuda > $OUT/src-cuda.csv 2> $OUT/src-cuda.err
at "cuda csv rc=$? $(wc -l < $OUT/src-cuda.csv) lines"
ncu --import $OUT/qsb.ncu-rep --page details --csv > $OUT/details.csv 2>&1
gzip $OUT/src-cuda.csv
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
