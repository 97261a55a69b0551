export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s21g/forkcc
for u in "" "--unchecked"; do
timeout 100 ncu --kernel-name regex:r0_blelloch --launch-count 1 --section WarpStateStats --section LaunchStats --section SourceCounters -o /tmp/bl$u -f $C run classroom-examples/prefix_blelloch.fork -p 1024 -D N=1048576 --backend gpu $u > $OUT/bl$u-ncu.log 2>&1
ncu -i /tmp/bl$u.ncu-rep --page details > $OUT/bl$u-details.txt 2>&1
ncu -i /tmp/bl$u.ncu-rep --page source --csv --print-source sass > $OUT/bl$u-sass.csv 2>&1
done
$C build --emit cuda classroom-examples/prefix_blelloch.fork -D N=1048576 -o $OUT/bl.cu
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
