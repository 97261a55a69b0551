export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
C=$PWD/.device-bin/s21c/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
for p in sieve:16384:10000000 prefix_hillis_steele:65536:1048576; do
  IFS=: read f P N <<< "$p"
  $C run classroom-examples/$f.fork -p $P -D N=$N --backend gpu --schedule device --stats > $OUT/$f-stats.txt 2>&1; at "$f stats rc=$?"
  timeout 150 ncu --kernel-name regex:fk_device_run --launch-count 1 --section WarpStateStats --section LaunchStats --section Occupancy --section SourceCounters -o /tmp/$f -f $C run classroom-examples/$f.fork -p $P -D N=$N --backend gpu --schedule device > $OUT/$f-ncu.log 2>&1; at "ncu $f rc=$?"
  ncu -i /tmp/$f.ncu-rep --page details > $OUT/$f-details.txt 2>&1
  ncu -i /tmp/$f.ncu-rep --page source --csv --print-source sass > $OUT/$f-sass.csv 2>&1
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
