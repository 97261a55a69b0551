# Session 42, device run D: where the device schedule's owned step goes beyond the host
# schedule's. bench/overhead/barrier.fork with N = 20000 (its `.cu` of each schedule, emitted
# by `s42` with `-D N=20000`, carried in .device-bin/s42/), built with -lineinfo, at P = 1;
# Nsight Compute's source counters of the persistent kernel (device) and of the region
# kernel r0_main (host), exported per SASS instruction (runD/*-sass.csv).
C=$PWD/.device-bin/s42/forkcc; . scripts/results-lib.sh
for s in bd bh; do nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/$s .device-bin/s42/$s.cu > $OUT/nvcc-$s.txt 2>&1 & done; wait
at built
for s in bd bh; do /tmp/$s -p 1 > $OUT/$s-run.txt 2>&1; done; at "runs rc=$?"; cat $OUT/bd-run.txt $OUT/bh-run.txt
timeout 100 ncu --clock-control none --kernel-name regex:fk_device_run --section SourceCounters --section WarpStateStats --section LaunchStats -o /tmp/d -f /tmp/bd -p 1 > $OUT/ncu-bd.log 2>&1; at "ncu bd rc=$?"
timeout 60 ncu --clock-control none --kernel-name regex:r0_ --section SourceCounters --section WarpStateStats --section LaunchStats -o /tmp/h -f /tmp/bh -p 1 > $OUT/ncu-bh.log 2>&1; at "ncu bh rc=$?"
for s in d h; do
    ncu -i /tmp/$s.ncu-rep --page details > $OUT/$s-details.txt 2>&1
    ncu -i /tmp/$s.ncu-rep --page source --csv --print-source sass > $OUT/$s-sass.csv 2>&1
    ncu -i /tmp/$s.ncu-rep --page source --csv --print-source cuda,sass > $OUT/$s-cuda-sass.csv 2>&1
done
at exported; ls -la $OUT; tail -5 $OUT/ncu-bd.log
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
