# Session 52, device run B: a ranged loop's checks through a pointer (fk_pointer_range_in)
# read a heap block's freed mark once, and find the object once for all the accesses
# through one pointer (`s52a`), where they read the mark three times an access (run A: the
# checks were 113,000 of the 117,000 cycles before k4's loop at P = 65,536). First the loop
# kernels' parts (prof4: prof2_hs.py then prof3_hs.py) of `s52` (aae743c6) and `s52a`, then
# `forkcc bench` of both binaries: Hillis-Steele 2^20 at P = 65,536 and 1024, list ranking
# 2^18 at 65,536, both schedules; quicksort_balanced 10^6 at P = 4096 (`s52a`, device).
C=$PWD/.device-bin/s52a/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp52
for v in hs_device_prof4 hs_host_prof4 hs_device_a_prof4 hs_host_a_prof4; do
    cu_build $v $E/$v.cu &
done
wait
at built
prof_runs "65536 16384" 3 hs_device_prof4 hs_device_a_prof4 hs_host_prof4 hs_host_a_prof4
for v in s52 s52a; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 70 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device --runs 5
    b lr-$v 40 list_ranking --n 262144 --procs 65536 --backends gpu,gpu-device --runs 5
done
b qsb-s52a 90 quicksort --program quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
