# Session 25, device run C: Nsight Compute's source counters (warp stall sampling per SASS
# instruction) on the host schedule's k9_seq_quicksort of h1 (N = 200,000, -p 1: the whole
# sort in one seq_quicksort call on one thread), built with -lineinfo.
C=$PWD/.device-bin/s25c/forkcc; . scripts/results-lib.sh
nvcc -arch=sm_90 -o /tmp/h1l .device-bin/s25c/h1l.o > $OUT/link.txt 2>&1
at linked
timeout 200 ncu --clock-control none -k regex:k9_seq_quicksort --section SourceCounters --section WarpStateStats --section LaunchStats -o $OUT/h1l /tmp/h1l -p 1 > $OUT/ncu.txt 2>&1
at "ncu rc=$?"; tail -5 $OUT/ncu.txt
ncu --import $OUT/h1l.ncu-rep --page source --csv --print-source sass > $OUT/h1l-sass.csv 2> $OUT/import-err.txt
ncu --import $OUT/h1l.ncu-rep --page details > $OUT/h1l-details.txt 2>> $OUT/import-err.txt
at imported; wc -l $OUT/h1l-sass.csv; head -c 600 $OUT/h1l-sass.csv; cat $OUT/import-err.txt | head
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
