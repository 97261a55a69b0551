# Session 51, device run D: run C's timing (prof2_hs.py), with the time of Hillis-Steele's
# loop kernels (k4, k5) split into their start (the frame's loads, the range checks before
# the loop: fk_in) and their loop, summed over block 0's team thread 0's members; host and
# device schedule, checked and unchecked (-DFK_CHECKS=0).
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
for v in hs_dev_prof2 hs_host_prof2; do
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/$v .device-bin/exp/$v.cu > "$OUT/nvcc-$v.txt" 2>&1 &
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -DFK_CHECKS=0 -o /tmp/$v-u .device-bin/exp/$v.cu > "$OUT/nvcc-$v-u.txt" 2>&1 &
done
wait
at built
prof_runs "65536 16384" 3 hs_dev_prof2 hs_host_prof2 hs_dev_prof2-u hs_host_prof2-u
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
