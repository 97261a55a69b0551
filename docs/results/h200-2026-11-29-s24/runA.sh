# Session 24, device run A. (1) The grid region kernels' register bound: the host schedule's
# rows of sieve, Hillis–Steele, list ranking and grid_barrier with the binary before (s24a,
# HEAD 7a3f555) and after (s24b: __launch_bounds__(FK_GRID_THREADS, 2)). (2) quicksort with
# its three-way sequential leaf on both schedules against the sequential baseline of the same
# algorithm, with each schedule's per-function breakdown (--stats), and the standalone .cu of
# the device schedule as emitted (q3d), without the per-iteration step count store (q3c)
# and unchecked (q3u).
for V in s24a s24b; do
  C=$PWD/.device-bin/$V/forkcc; . scripts/results-lib.sh
  b $V-prefix 40 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu,cuda-hand --runs 5
  b $V-sieve 40 sieve --n 10000000 --procs 16384 --procs 65536 --backends gpu --runs 5
  b $V-list_ranking 30 list_ranking --procs 65536 --backends gpu --runs 5
  b $V-overhead 40 overhead --program grid_barrier --procs 65536 --procs 1048576 --backends gpu --runs 5
done
b quicksort 150 quicksort --n 1000000 --procs 4096 --backends gpu,gpu-device,seq --runs 5
for s in host device; do
  timeout 60 $C run --backend gpu --schedule $s --stats -p 4096 -D N=1000000 classroom-examples/quicksort.fork > $OUT/qs-$s-stats.txt 2>&1
  at "qs stats $s rc=$?"; tail -25 $OUT/qs-$s-stats.txt
done
D=.device-bin/s24b
for v in q3d q3c q3u; do
  nvcc -arch=sm_90 -o /tmp/$v $D/$v.o > $OUT/$v-link.txt 2>&1
  for r in 1 2 3; do /usr/bin/time -f "$v %e s" /tmp/$v -p 4096 > $OUT/$v-out.txt 2>> $OUT/qs-variants.txt; done
  at "$v"; cat $OUT/$v-out.txt
done
cat $OUT/qs-variants.txt
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
