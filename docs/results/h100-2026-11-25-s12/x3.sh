# Session 12, experiment 3: processors on FK_RUNNER_LANES lanes of each runner warp (32, 16, 8, 4), so that divergent sequential code (quicksort's seq_quicksort leaves) has more warps per SM.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
D=$OUT/x3; mkdir -p $D; cd .device-bin/s12/x3
for L in 32 16 8 4; do nvcc -O2 -arch=sm_90 -DFK_RUNNER_LANES=$L qs.cu -o /tmp/qs-$L > $D/nvcc-qs-$L.txt 2>&1 & done
for L in 32 8; do nvcc -O2 -arch=sm_90 -DFK_RUNNER_LANES=$L sieve.cu -o /tmp/sieve-$L > $D/nvcc-sieve-$L.txt 2>&1 & done; wait
for L in 32 16 8 4; do for r in 1 2 3; do
 s=$(date +%s%N); /tmp/qs-$L -p 4096 --timeout 60 > $D/qs-$L.out 2>&1; rc=$?; e=$(date +%s%N)
 echo "qs lanes $L run $r rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $D/qs-$L.out | cut -c1-60)"
done; done
for L in 32 8; do for r in 1 2; do
 s=$(date +%s%N); /tmp/sieve-$L -p 1024 --timeout 60 > $D/sieve-$L.out 2>&1; rc=$?; e=$(date +%s%N)
 echo "sieve lanes $L run $r rc=$rc wall $(( (e - s) / 1000000 )) ms: $(head -1 $D/sieve-$L.out | cut -c1-60)"
done; done
