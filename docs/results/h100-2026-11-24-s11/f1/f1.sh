# Session 11, final bench (main b43b327): both schedules, medians of 5; quicksort 10^6 and 10^7 on the device schedule.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/s11/forkcc-d
mkdir -p $OUT/f1; t0=$(date +%s)
(cd .device-bin/s11/qs; nvcc -O2 -arch=sm_90 -DFK_CHECKS=0 qs-device.cu -o /tmp/qs-unchecked > $OUT/f1/nvcc-qs-unchecked.txt 2>&1 &
 nvcc -O2 -arch=sm_90 qs7-device.cu -o /tmp/qs7 > $OUT/f1/nvcc-qs7.txt 2>&1 & wait) &
timeout 60 $F bench sieve --n 10000000 --procs 1024 --runs 5 --backends gpu,gpu-device,seq --out $OUT/f1/sieve > $OUT/f1/sieve.txt 2>&1
echo "sieve rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/f1/sieve.txt | head -3
timeout 100 $F bench prefix --n 1048576 --procs 1024 --runs 5 --backends gpu,gpu-device,cuda-hand --out $OUT/f1/prefix > $OUT/f1/prefix.txt 2>&1
echo "prefix rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/f1/prefix.txt | head -6
timeout 40 $F bench list_ranking --n 65536 --procs 1024 --runs 5 --backends gpu,gpu-device --out $OUT/f1/lr > $OUT/f1/lr.txt 2>&1
echo "lr rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/f1/lr.txt | head -3
timeout 150 $F bench quicksort --n 1000000 --procs 4096 --runs 5 --backends gpu-device,seq --out $OUT/f1/qs > $OUT/f1/qs.txt 2>&1
echo "quicksort rc=$? at $(( $(date +%s) - t0 )) s"; grep -E 'median' $OUT/f1/qs.txt | head -3; grep -A3 '^program' $OUT/f1/qs.txt | cut -c1-200
wait
s=$(date +%s%N); /tmp/qs-unchecked -p 4096 --timeout 100 > $OUT/f1/qs-unchecked.out 2>&1; rc=$?; e=$(date +%s%N)
echo "quicksort 10^6 .cu unchecked rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $OUT/f1/qs-unchecked.out)"
s=$(date +%s%N); /tmp/qs7 -p 4096 --timeout 150 > $OUT/f1/qs7.out 2>&1; rc=$?; e=$(date +%s%N)
echo "quicksort 10^7 .cu rc=$rc wall $(( (e - s) / 1000000 )) ms: $(cat $OUT/f1/qs7.out | head -2)"
tar czf $OUT/f1.tgz -C $OUT f1
