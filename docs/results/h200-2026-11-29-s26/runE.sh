# Session 26, device run E: run D's Nsight Compute report printed by source line of the .cu
# (the report itself, 16 MB, is not kept; stall_samples.py sums cs.csv into
# runE/stall-samples-by-line.txt).
mkdir -p /tmp/emu; cp .device-bin/s26d/qsb_orig.cu /tmp/emu/; export PATH=/usr/local/cuda-13.0/bin:$PATH; R=.device-bin/s26d/qsb.ncu-rep
ncu --import $R --page source --csv --print-source sass > $OUT/sass.csv 2> $OUT/sass.err; echo "sass rc=$? $(wc -l < $OUT/sass.csv)"
ncu --import $R --page source --csv --print-source cuda,sass > $OUT/cs.csv 2> $OUT/cs.err; echo "cs rc=$? $(wc -l < $OUT/cs.csv)"
head -c 700 $OUT/sass.csv; echo; sed -n 2,4p $OUT/cs.csv | head -c 600; cat $OUT/*.err | head
gzip $OUT/*.csv
