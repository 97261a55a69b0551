# Session 25, device run D: fk_at_seen with one branch on its hit path and its cold path in
# one function (fk_seen_miss), on top of run B's memset (h1, d1: run B's objects as
# controls). h2/d2 as emitted; T: every FkSeen starts as th->seen instead of empty; S: swap
# checks against its caller's FkSeen; ST both; U unchecked. h*: host schedule, N = 200,000,
# -p 1; d*: device schedule, N = 10^6, -p 4096.
C=$PWD/.device-bin/s25d/forkcc; . scripts/results-lib.sh
cd .device-bin/s25d
ls *.o | sed 's/\.o$//' | xargs -P 8 -I{} sh -c 'nvcc -arch=sm_90 -o /tmp/{} {}.o > /tmp/{}-link.txt 2>&1 || echo LINKFAIL {}'
cd ../..
at linked
for v in h1 h2 h2T h2S h2ST h2U; do
  for r in 1 2 3; do /usr/bin/time -f "$v %e s" /tmp/$v -p 1 > $OUT/$v-out.txt 2>> $OUT/variants.txt; done
done
for v in d1 d2 d2T d2S d2ST d2U; do
  for r in 1 2 3; do /usr/bin/time -f "$v %e s" /tmp/$v -p 4096 > $OUT/$v-out.txt 2>> $OUT/variants.txt; done
done
at variants
cat $OUT/variants.txt; head -2 $OUT/h2-out.txt $OUT/d2T-out.txt
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
