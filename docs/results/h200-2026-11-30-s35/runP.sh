# Session 35, device run P: where s35b's 7 ms over s34e go (quicksort_balanced's critical
# path, qsb_path), and the overhead suite's barrier and split steps at P = 32 and 1024 on both
# schedules with s35b (session 34's run E: 2.94 us a barrier step at P = 32 on the device
# schedule, with narrow teams of any width).
C=$PWD/.device-bin/s35b/forkcc; . scripts/results-lib.sh
qsb_path p
b p-overhead 100 overhead --program barrier --program split --procs 32 --procs 1024 --backends gpu,gpu-device --runs 5
grep -B2 -A12 "cost per step" $OUT/p-overhead.txt | head -30
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
