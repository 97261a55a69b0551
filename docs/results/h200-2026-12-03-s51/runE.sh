# Session 51, device run E: a ranged loop's checks before it (fk_pointer_range_in) look
# for the object in the thread's last lasting one, then in the one before it, before they
# look the pointer up (`s51a`, fk_seen_other); until now they went to the lookup (fk_seen_of)
# whenever the last one did not hold, which run D found to be most of Hillis-Steele's loop
# kernels' time at P = 65,536. First run D's timing of the region's parts (prof2_hs.py) on
# `s51a`'s `.cu` (hs_dev_prof3, hs_host_prof3) beside `s50`'s (hs_dev_prof2, hs_host_prof2);
# then `forkcc bench` of both binaries: Hillis-Steele 2^20 at P = 65,536 and 1024, list
# ranking 2^18 at 65,536, both schedules.
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
for v in hs_dev_prof2 hs_host_prof2 hs_dev_prof3 hs_host_prof3; do
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/$v .device-bin/exp/$v.cu > "$OUT/nvcc-$v.txt" 2>&1 &
done
wait
at built
prof_runs "65536 16384" 3 hs_dev_prof2 hs_dev_prof3 hs_host_prof2 hs_host_prof3
for v in s50 s51a; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 70 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device --runs 5
    b lr-$v 40 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
