# Session 12, experiment 2: 512, 544 or 640 threads a block (a team of 480, 512 or 608 task threads at 32 runners).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
D=$OUT/x2; mkdir -p $D; cd .device-bin/s12/x
for f in *.cu; do nvcc -O2 -arch=sm_90 -Xptxas -v ${f} -o /tmp/${f%.cu} > $D/nvcc-${f%.cu}.txt 2>&1 & done; wait
for f in $D/nvcc-*.txt; do echo "$f: $(grep -A2 'fk_device_run' $f | grep -oE '[0-9]+ bytes spill stores|Used [0-9]+ registers' | tr '\n' ' ')"; done
for f in sieve hs bl qs; do for v in 512 544 640; do for r in 1 2 3; do
 P=1024; [ $f = qs ] && P=4096
 s=$(date +%s%N); /tmp/$f-$v -p $P --timeout 60 > $D/$f-$v.out 2>&1; rc=$?; e=$(date +%s%N)
 echo "$f $v run $r rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $D/$f-$v.out | cut -c1-60)"
done; done; done
