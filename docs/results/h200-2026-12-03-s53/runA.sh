# Session 53, device run A, Hillis-Steele 2^20 on the device schedule (`s53`, fb9a7045; the
# `seq` check loop cut), three experiments on the emitted `.cu`:
# - relaxed_hs.py (session 52): the checks' freed mark read at GPU scope; prof4 (prof2_hs.py
#   then prof3_hs.py, session 51) at P = 65,536 and 16,384, and the persistent kernel's time;
# - pass_hs.py: the parts of block 0's thread 0's turns at its processors (P = 65,536);
# - cache_hs.py: a runner thread's processors released by a generation it acquired already;
#   the persistent kernel's time, pass_hs.py and stamp2 (session 52's stamps) of both.
C=$PWD/.device-bin/s53/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp53
for v in hs_device_prof hs_device_rel_prof hs_device_stamp2 hs_device_cache_stamp2; do
    cu_build $v $E/$v.cu &
done
for v in hs_device hs_device_rel hs_device_cache hs_device_pass hs_device_cache_pass; do
    kernel_build $v $E/$v.cu &
done
wait
at built
prof_runs "65536 16384" 3 hs_device_prof hs_device_rel_prof
kernel_rounds 9 "-p 65536" hs_device hs_device_rel hs_device_cache
for i in 1 2; do for v in hs_device_pass hs_device_cache_pass; do
    timeout 60 /tmp/$v -p 65536 > "$OUT/$v-$i.out" 2> "$OUT/$v-$i.err"
    echo "$v $i rc=$? $(grep -c 'x\[0\] = 0' "$OUT/$v-$i.out") $(grep prof "$OUT/$v-$i.err")"
done; done
for i in 1 2 3; do for v in hs_device_stamp2 hs_device_cache_stamp2; do
    timeout 60 /tmp/$v -p 65536 > "$OUT/$v-$i.out" 2> "$OUT/$v-$i.err"
    echo "$v $i rc=$? $(grep -c 'x\[0\] = 0' "$OUT/$v-$i.out") $(grep -E 'prof|arrive pc[45]' "$OUT/$v-$i.err" | tr '\n' ' ')"
done; done | tee "$OUT/stamps2.txt"
rm -f "$OUT"/*.out
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
