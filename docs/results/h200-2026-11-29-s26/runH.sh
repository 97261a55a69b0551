# Session 26, device run H: the persistent kernel's block at 640 threads (op, as emitted),
# 896 (t896) and 1024 (t1024): a block task's team of 608, 864 or 992 threads, so a large
# group's helpers take fewer chunks. The stamped .cu of run D, P = 4096, three runs each,
# interleaved.
C=$PWD/.device-bin/s26b/forkcc; . scripts/results-lib.sh
D=$PWD/.device-bin/s26d
for v in op t896 t1024; do nvcc -arch=sm_90 -o /tmp/$v $D/$v.o; done
for i in 1 2 3; do for v in op t896 t1024; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err
done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
