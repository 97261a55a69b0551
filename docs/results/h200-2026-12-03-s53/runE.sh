# Session 53, device run E: handoff_hs.py, a prototype of lever 1 (a grid region handed back
# to a launch of its own, 256 threads a block, two blocks an SM), against the plain `.cu`
# (time_kernel.py), `s53t`'s device schedule: Hillis-Steele 2^20 and list ranking 2^18 at
# P = 65,536 and 16,384, 9 interleaved rounds each (the persistent kernel's time, first
# launch to last synchronize, with the input and the `seq` checks); the outputs compared.
C=$PWD/.device-bin/s53t/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp53
for v in hs_device_t lr_t; do
    kernel_build $v $E/$v.cu &
    cu_build ${v}_handoff $E/${v}_handoff.cu &
done
wait
at built
for p in 65536 16384; do
    kernel_rounds 9 "-p $p" hs_device_t hs_device_t_handoff lr_t lr_t_handoff
    for v in hs_device_t hs_device_t_handoff lr_t lr_t_handoff; do
        echo "p=$p $v: $(grep fkh "$OUT/$v-1.err") $(md5sum < "$OUT/$v-1.out" | head -c 12) $(tail -1 "$OUT/$v-1.out")"
    done
    mkdir -p "$OUT/p$p"; mv "$OUT"/*.out "$OUT"/*.err "$OUT/rounds.txt" "$OUT/p$p/"
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
