# Session 27, device run E: does the region code's spilling cost? The stamped .cu of run C's
# kept version (s27c/np: blocks of 640 threads, at most 96 registers; r1_quicksort spills
# 576 bytes) built with blocks of 512 (128 registers, 280 bytes) and 384 threads (168
# registers, 100 bytes), quicksort_balanced 10^6 at P = 4096, interleaved.
C=$PWD/.device-bin/s27c/forkcc; . scripts/results-lib.sh
for v in np t512 t384; do nvcc -arch=sm_90 -o /tmp/$v $PWD/.device-bin/s27c/$v.o; done
for i in 1 2; do for v in np t512 t384; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
