# Session 44, device run B: the grid regions' path inlined into the persistent kernel
# (`variants.py IN OUT grid`) against the code as emitted (s44a, 34f6e0e7), on the
# persistent kernel's time (kernel_rounds, 5 rounds interleaved): sieve 10^7 (v) at P = 1024
# and 16,384, Hillis-Steele 2^20 (h) at P = 1024 and 65,536; name 2: inlined. Then both
# schedules' bench rows of the same cases for reference. Last, split.fork (N = 20000,
# --unchecked) at P = 1 under Nsight Compute's source counters, each schedule's `.cu` built
# with -lineinfo (su: the persistent kernel, shu: the host schedule's region kernel), the
# rows of the loop's path and the stalls kept (sass_rows.py).
C=$PWD/.device-bin/s44a/forkcc; . scripts/results-lib.sh
X=.device-bin/s44x
for v in vd vd2 hd hd2; do kernel_build $v $X/$v.cu & done
for v in su shu; do nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/$v-li $X/$v.cu > $OUT/nvcc-$v-li.txt 2>&1 & done
wait; at built
kernel_rounds 5 "-p 1024" vd vd2 hd hd2 | tee $OUT/kernel-p1024.txt; mv $OUT/rounds.txt $OUT/rounds-p1024.txt
kernel_rounds 5 "-p 16384" vd vd2 | tee $OUT/kernel-p16384.txt; mv $OUT/rounds.txt $OUT/rounds-p16384.txt
kernel_rounds 5 "-p 65536" hd hd2 | tee $OUT/kernel-p65536.txt; mv $OUT/rounds.txt $OUT/rounds-p65536.txt
at timed
b sv 120 sieve --n 10000000 --procs 1024 --procs 16384 --backends gpu,gpu-device,seq --runs 5
b hs 120 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --procs 65536 --backends gpu,gpu-device,cuda-hand --runs 5
for v in su shu; do
    k=fk_device_run; [ $v = shu ] && k=r0_
    timeout 100 ncu --clock-control none --kernel-name regex:$k --section SourceCounters --section WarpStateStats -o /tmp/$v -f /tmp/$v-li -p 1 > $OUT/ncu-$v.log 2>&1
    at "ncu $v rc=$?"
    ncu -i /tmp/$v.ncu-rep --page source --csv --print-source cuda,sass > /tmp/$v-cuda-sass.csv 2>&1
    ncu -i /tmp/$v.ncu-rep --page source --csv --print-source sass > /tmp/$v-sass.csv 2>&1
    ncu -i /tmp/$v.ncu-rep --page details > $OUT/$v-details.txt 2>&1
    python3 docs/results/h200-2026-12-02-s44/sass_rows.py /tmp/$v-sass.csv 20000 > $OUT/$v-rows.csv
    gzip -c /tmp/$v-cuda-sass.csv > $OUT/$v-cuda-sass.csv.gz
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
