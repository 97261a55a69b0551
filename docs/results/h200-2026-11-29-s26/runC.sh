# Session 26, device run C: where a small group's iteration goes. The device schedule's .cu of
# quicksort_balanced (N = 10^6, 256 MiB heap) with clock64 stamps between the helpers of the
# partition loop's region (r1_quicksort), per team kind; with warp tasks (qp) and without
# (qp0, FK_WARP_TASK_MAX 0). Cycles per iteration, averaged over all groups' iterations.
C=$PWD/.device-bin/s26b/forkcc; . scripts/results-lib.sh
cd .device-bin/s26c
for v in qp qp0; do
  nvcc -arch=sm_90 -o /tmp/$v $v.o && for i in 1 2; do t=$(date +%s%N); timeout 30 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; cat $OUT/$v-$i.err | grep prof; done
done
cd ../..
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
