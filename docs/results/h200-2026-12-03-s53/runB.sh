# Session 53, device run B: a runner thread's turn at a processor with fewer trips to L2 in a
# row (`s53t`: the stop words read together, and with the release's acquire; none before the
# turn's first instruction; the generation read with the group's size at an arrival) against
# `s53` (fb9a7045). pass_hs.py and stamp2 (session 52) of Hillis-Steele 2^20 on the device
# schedule at P = 65,536 (the `seq` check loop cut), then `forkcc bench` of both binaries on
# the device schedule: Hillis-Steele at 65,536 and 1024, list ranking 2^18 at 65,536, sieve
# 10^7 at 16,384, quicksort and quicksort_balanced 10^6 at 4096.
C=$PWD/.device-bin/s53/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp53
for v in hs_device_stamp2 hs_device_t_stamp2; do
    cu_build $v $E/$v.cu &
done
for v in hs_device_pass hs_device_t_pass; do kernel_build $v $E/$v.cu & done
wait
at built
for i in 1 2 3; do for v in hs_device_pass hs_device_t_pass; do
    timeout 60 /tmp/$v -p 65536 > "$OUT/$v-$i.out" 2> "$OUT/$v-$i.err"
    echo "$v $i rc=$? $(grep -c 'x\[0\] = 0' "$OUT/$v-$i.out") $(grep prof "$OUT/$v-$i.err")"
done; done
for i in 1 2 3; do for v in hs_device_stamp2 hs_device_t_stamp2; do
    timeout 60 /tmp/$v -p 65536 > "$OUT/$v-$i.out" 2> "$OUT/$v-$i.err"
    echo "$v $i rc=$? $(grep -c 'x\[0\] = 0' "$OUT/$v-$i.out") $(grep -E 'prof|arrive pc[3459]' "$OUT/$v-$i.err" | tr '\n' ' ')"
done; done | tee "$OUT/stamps2.txt"
rm -f "$OUT"/*.out
for v in s53 s53t; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu-device --runs 5
    b lr-$v 30 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
    b sieve-$v 40 sieve --n 10000000 --procs 16384 --backends gpu-device --runs 5
    b qs-$v 90 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 5
    b qsb-$v 60 quicksort --program quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
