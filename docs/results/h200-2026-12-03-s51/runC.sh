# Session 51, device run C: where Hillis-Steele's grid region spends its time at P = 65,536,
# host schedule against device schedule. prof_hs.py times the region's parts on block 0's
# team thread 0 (clock64 cycles at 1,980 MHz): each kernel (the thread's own members'
# bodies), each barrier's team count and grid arrival, the decisions, the step-limit spins.
# `hs_host_prof`: the host schedule's `.cu`; `hs_dev_prof`: the device schedule's;
# `hs_pair_prof`: the device schedule's with run B's two-member kernels (pair_hs.py). All of
# `s50`, N = 2^20, the seq check loops cut.
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
for v in hs_dev_prof hs_host_prof hs_pair_prof; do
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 -o /tmp/$v .device-bin/exp/$v.cu > "$OUT/nvcc-$v.txt" 2>&1 &
done
wait
at built
prof_runs "65536 16384 1024" 5 hs_dev_prof hs_host_prof hs_pair_prof
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
