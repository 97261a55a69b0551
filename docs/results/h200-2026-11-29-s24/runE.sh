# Session 24, device run E: block regions keep each team thread's member lookup (fk_r_proc).
# The same rows with the binary before (s24b) and after (s24d): the overhead suite's barrier,
# split and loop at P = 32 and 1024, sieve 10^7 at P = 1024 and quicksort 10^6 at P = 4096
# on both schedules (quicksort's host schedule with 3 runs), Blelloch 2^20 at P = 1024.
for V in s24b s24d; do
  C=$PWD/.device-bin/$V/forkcc; . scripts/results-lib.sh
  b $V-overhead 60 overhead --program barrier --program split --program loop --procs 32 --procs 1024 --backends gpu,gpu-device --runs 5
  b $V-sieve 40 sieve --n 10000000 --procs 1024 --backends gpu,gpu-device --runs 5
  b $V-blelloch 40 prefix --program prefix_blelloch --n 1048576 --procs 1024 --backends gpu,gpu-device --runs 5
  b $V-quicksort 60 quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
  b $V-quicksort-host 70 quicksort --n 1000000 --procs 4096 --backends gpu --runs 3
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
