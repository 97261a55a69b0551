# Session 25, device run A: where the checks spend quicksort's sequential leaf's time, and
# what a fork in proportion to the sides' sizes does. The standalone .cu, built locally with
# nvcc -O2 -c (variants by mk.py from the emitted source):
#   h*: host schedule, N = 200,000, -p 1 (the whole sort is one seq_quicksort on one thread):
#       h0 as emitted; hU unchecked; hR FkThread *__restrict__ th in swap and seq_quicksort;
#       hS swap checks against its caller's FkSeen (by reference); hI fk_spin without
#       th->iters++; hF FkSeen's three bools as one word of flags; hA swap unchecked;
#       hRS, hRSIF, hUI combinations
#   d*: device schedule, N = 10^6, -p 4096: d0, dU, dI, dA, dRSIF as above
#   pd, pdU: quicksort_proportional.fork (device schedule, checked / unchecked), N = 10^6
C=$PWD/.device-bin/s25/forkcc; . scripts/results-lib.sh
cd .device-bin/s25
ls *.o | sed 's/\.o$//' | xargs -P 8 -I{} sh -c 'nvcc -arch=sm_90 -o /tmp/{} {}.o > /tmp/{}-link.txt 2>&1 || echo LINKFAIL {}'
cd ../..
at linked
for v in h0 hU hR hS hI hF hA hRS hRSIF hUI; do
  for r in 1 2 3; do /usr/bin/time -f "$v %e s" /tmp/$v -p 1 > $OUT/$v-out.txt 2>> $OUT/variants.txt; done
done
at host-variants
for v in d0 dU dI dA dRSIF pd pdU; do
  for r in 1 2 3; do /usr/bin/time -f "$v %e s" /tmp/$v -p 4096 > $OUT/$v-out.txt 2>> $OUT/variants.txt; done
done
at device-variants
cat $OUT/variants.txt; head -3 $OUT/h0-out.txt $OUT/d0-out.txt $OUT/pd-out.txt
timeout 120 $C run --backend gpu --schedule device --stats -p 4096 -D N=1000000 docs/results/h200-2026-11-29-s25/quicksort_proportional.fork > $OUT/pd-stats.txt 2>&1
at "pd-stats rc=$?"; tail -25 $OUT/pd-stats.txt
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
