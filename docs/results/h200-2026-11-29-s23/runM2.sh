# Session 23, device run M2 (the final code): the study programs' rows on both schedules with
# their baselines; the simulator on Hillis–Steele at P = 1024; the overhead suite's
# grid_barrier at 65,536.
C=$PWD/.device-bin/s23f/forkcc; . scripts/results-lib.sh
b prefix 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device,cuda-hand --runs 5
b prefix-sim 40 prefix --program prefix_hillis_steele --n 1048576 --procs 1024 --backends sim --runs 5
b sieve 40 sieve --n 10000000 --procs 1024 --procs 16384 --backends gpu,gpu-device,seq --runs 5
b list_ranking 50 list_ranking --procs 65536 --backends gpu,gpu-device --runs 5
b overhead 40 overhead --program grid_barrier --procs 65536 --backends gpu,gpu-device --runs 5
b quicksort 80 quicksort --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
