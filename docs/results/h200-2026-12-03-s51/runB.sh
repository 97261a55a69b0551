# Session 51, device run B: does running a team thread's two members of a grid region
# together pay? At P = 65,536 on 132 teams of 256 threads most team threads hold two members
# of Hillis-Steele's group and run each kernel's body for one, then the other: each member's
# batch of 16 loads, then its stores, then the next member's. `hs_pair` is `s50`'s
# device-schedule `.cu` of Hillis-Steele (N = 2^20, its seq check loop cut:
# .device-bin/exp/hs_nc.cu) with its two loop kernels written by hand for two members
# (pair_hs.py: both members' 16 loads, then both members' stores; FK_G_LAUNCH_PAIR where a
# thread has exactly two members). The persistent kernel's time, 9 rounds interleaved.
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
kernel_build hs_nc .device-bin/exp/hs_nc.cu &
kernel_build hs_pair .device-bin/exp/hs_pair.cu &
wait
at built
kernel_rounds 9 "-p 65536" hs_nc hs_pair
kernel_rounds 5 "-p 50000" hs_nc hs_pair
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
