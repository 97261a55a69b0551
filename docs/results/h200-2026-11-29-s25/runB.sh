# Session 25, device run B: fk_zero by memset (the runtime change), the check variants on
# top of it, quicksort_proportional.fork with a larger heap, and the quicksort bench.
#   h0, hU, d0, dU: run A's objects again (the runtime before), as controls in this call
#   h1*: host schedule, N = 200,000, -p 1, the runtime with memset: h1 as emitted, h1U
#        unchecked, h1S/h1I/h1SI/h1SIF/h1A as mk.py's variants (S: swap checks against its
#        caller's FkSeen; I: no th->iters++; F: FkSeen's bools as one word; A: swap unchecked)
#   d1*: device schedule, N = 10^6, -p 4096, the same variants
#   p1H (FK_HEAP_BYTES 1 GiB) / p1U (unchecked): quicksort_proportional.fork, device schedule
C=$PWD/.device-bin/s25b/forkcc; . scripts/results-lib.sh
cd .device-bin/s25b
ls *.o | sed 's/\.o$//' | xargs -P 8 -I{} sh -c 'nvcc -arch=sm_90 -o /tmp/{} {}.o > /tmp/{}-link.txt 2>&1 || echo LINKFAIL {}'
cd ../..
at linked
for v in h0 hU h1 h1U h1S h1I h1SI h1SIF h1A; do
  for r in 1 2 3; do /usr/bin/time -f "$v %e s" /tmp/$v -p 1 > $OUT/$v-out.txt 2>> $OUT/variants.txt; done
done
at host-variants
for v in d0 dU d1 d1U d1S d1I d1SI d1SIF d1A p1H p1U; do
  for r in 1 2 3; do /usr/bin/time -f "$v %e s" /tmp/$v -p 4096 > $OUT/$v-out.txt 2>> $OUT/variants.txt; done
done
at device-variants
cat $OUT/variants.txt; head -3 $OUT/h1-out.txt $OUT/d1-out.txt $OUT/p1H-out.txt
b qs 240 quicksort --n 1000000 --procs 4096 --backends gpu-device,gpu,seq --runs 3
timeout 100 $C run --backend gpu --schedule device --heap-mib 1024 --stats -p 4096 -D N=1000000 docs/results/h200-2026-11-29-s25/quicksort_proportional.fork > $OUT/p1-stats.txt 2>&1
at "p1-stats rc=$?"; tail -8 $OUT/p1-stats.txt
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
