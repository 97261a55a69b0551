export PATH=/usr/local/cuda-13.0/bin:$PATH
R=$PWD; cd .device-bin/s21e
for v in a b c; do nvcc -O2 -arch=sm_90 -o $v $v.cu > $OUT/$v.build 2>&1 & done; wait
for v in a b c; do ./$v -p 65536 > $OUT/$v.out 2>&1; ncu --kernel-name regex:'k2_main|k0_main|r0_hill' --metrics gpu__time_duration.sum ./$v -p 65536 > $OUT/$v.ncu 2>&1; done
grep -H "duration\|k2_main\|k0_main\|r0_" $OUT/*.ncu | head -40
cd $R
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH FORKCC_CACHE_DIR=/tmp/cache
for r in 1 2; do for v in s21b s21d; do
  .device-bin/$v/forkcc bench prefix --n 1048576 --procs 65536 --backends gpu --runs 5 --out /tmp/$v-$r > $OUT/ab-$v-$r.txt 2>&1
  .device-bin/$v/forkcc bench sieve --n 10000000 --procs 16384 --backends gpu --runs 5 --out /tmp/$v-s$r >> $OUT/ab-$v-$r.txt 2>&1
  grep -hE " gpu +[0-9]" $OUT/ab-$v-$r.txt | cut -c1-130 | sed "s/^/$v $r /"
done; done
